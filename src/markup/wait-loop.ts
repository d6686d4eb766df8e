// Wait markup (Conference waitUrl, Enqueue waitUrl, the Queue noun's url): fetched and played in a loop until told to stop.

import type { OutboundResult } from "../webhooks/contract.js";
import type { Step, VerbEnv, Wake } from "./effects.js";
import { documentOf, fetchFailure } from "./fetched-document.js";
import { MarkupError, type MarkupNode, parseMarkup } from "./parse.js";
import { pause } from "./verbs/pause.js";
import { play } from "./verbs/play.js";
import { say } from "./verbs/say.js";

/** What plays when no waitUrl is given: Twilio's default hold music, served by the sandbox itself. */
export const defaultHoldMusicUrl =
  "http://com.twilio.sounds.music.s3.amazonaws.com/MARKOVICHAMP-Borghestral.mp3";
const builtInWaitMarkup = `<Response><Play>${defaultHoldMusicUrl}</Play></Response>`;

export interface WaitLoop {
  /** null: the built-in hold music; "": silence; otherwise the URL to fetch each time round. */
  url: string | null;
  method: "GET" | "POST";
  /** Extra request parameters, read at each fetch (QueuePosition changes while waiting). */
  params(): Record<string, string>;
  /** Checked before each verb and after each interruption: true ends the loop. */
  stop(): boolean;
  /** `<Leave>` is honoured (Enqueue wait markup); elsewhere it is skipped. */
  allowLeave: boolean;
  /** Play the document once instead of looping (the Queue noun's url). */
  once?: boolean;
  /** Verbs fetched already (an announcement another participant fetched): played instead of fetching `url`. */
  document?: MarkupNode[];
  /** Told the first document's verbs once fetched, or null when it could not be (an announcement shares them). */
  fetched?(verbs: MarkupNode[] | null): void;
}

export type WaitEnd =
  | { type: "stopped" }
  | { type: "done" }
  | { type: "leave" }
  | { type: "hangup" }
  | { type: "error" };

function* fetchVerbs(
  env: VerbEnv,
  url: string,
  method: "GET" | "POST",
  params: Record<string, string>,
): Step<MarkupNode[] | null> {
  const result = (yield { type: "fetch", url, method, params: env.actionParams(params) }) as OutboundResult;
  if (!result.ok) {
    const failure = fetchFailure(result);
    env.alert(failure.code, `${failure.message} (${url})`);
    return null;
  }
  try {
    return documentOf(result, url);
  } catch (error) {
    if (!(error instanceof MarkupError)) throw error;
    env.alert(error.code, `${error.message} (${url})`);
    return null;
  }
}

/** Plays wait markup until `stop()` holds, `<Leave>`, `<Hangup>`, or (for `once`) the document ends. */
export function* runWaitMarkup(env: VerbEnv, loop: WaitLoop): Step<WaitEnd> {
  let next = null as { url: string; method: "GET" | "POST" } | null;
  let hops = 0;
  let first = true;
  for (;;) {
    if (loop.stop()) return { type: "stopped" };
    const url: string | null = next?.url ?? loop.url;
    const method: "GET" | "POST" = next?.method ?? loop.method;
    next = null;
    if (url === "") {
      // An empty waitUrl: silence until something changes.
      yield { type: "wait", ms: null, wake: ["signal"] };
      continue;
    }
    let verbs: MarkupNode[] | null;
    if (first && loop.document) verbs = loop.document;
    else if (url === null) verbs = parseMarkup(builtInWaitMarkup).verbs;
    else {
      verbs = yield* fetchVerbs(env, url, method, loop.params());
      if (first) loop.fetched?.(verbs);
    }
    first = false;
    if (verbs === null) return { type: "error" };
    const startedAt = env.now();
    for (const node of verbs) {
      if (loop.stop()) return { type: "stopped" };
      env.timeline("wait.verb", { verb: node.name });
      let wake: Wake | null = null;
      switch (node.name) {
        case "Say":
          wake = yield* say(node, env, ["signal"]);
          break;
        case "Play":
          wake = yield* play(node, env, ["signal"]);
          break;
        case "Pause":
          wake = yield* pause(node, env, ["signal"]);
          break;
        case "Leave":
          if (loop.allowLeave) return { type: "leave" };
          env.alert(12200, "<Leave> only works in Enqueue wait markup; it was skipped", "warning");
          break;
        case "Hangup":
          return { type: "hangup" };
        case "Redirect":
          next = {
            url: env.resolve(node.text),
            method: node.attrs.method?.toUpperCase() === "GET" ? "GET" : "POST",
          };
          break;
        default:
          env.alert(12200, `<${node.name}> is not played in wait markup; it was skipped`, "warning");
      }
      if (next) break;
      if (wake && loop.stop()) return { type: "stopped" };
    }
    if (loop.once && !next) return { type: "done" };
    hops = env.now() === startedAt ? hops + 1 : 0;
    if (hops > 20) {
      env.alert(
        12400,
        "Wait markup redirected more than 20 times without playing anything; the caller leaves the wait",
      );
      return { type: "error" };
    }
    // A document that takes no time would loop at one instant forever: wait in silence for a change instead.
    if (!next && env.now() === startedAt) yield { type: "wait", ms: null, wake: ["signal"] };
  }
}
