// Runs a call's markup as one resumable program: fetch, parse, validate, run verbs in order, follow navigations.

import type { OutboundResult } from "../webhooks/contract.js";
import type { Navigation, Outcome, Step, VerbEnv, VerbRun } from "./effects.js";
import { Redirected } from "./effects.js";
import { documentOf, fetchFailure } from "./fetched-document.js";
import { MarkupError, type MarkupNode, parseMarkup } from "./parse.js";
import { unemulatedVerbs, validateVoiceDocument } from "./schema.js";
import { connect } from "./verbs/connect.js";
import { answersOnBridge, dial } from "./verbs/dial.js";
import { enqueue } from "./verbs/enqueue.js";
import { gather } from "./verbs/gather.js";
import { hangup, reject } from "./verbs/hangup.js";
import { pause } from "./verbs/pause.js";
import { play } from "./verbs/play.js";
import { record } from "./verbs/record.js";
import { redirect } from "./verbs/redirect.js";
import { say } from "./verbs/say.js";
import { sms } from "./verbs/sms.js";
import { start, stop } from "./verbs/start-stop.js";

export interface ProgramHost {
  /** The environment verbs of the document at `documentUrl` run in. */
  envFor(documentUrl: string | null): VerbEnv;
  /** Where to go when a document cannot be fetched or read (number VoiceFallbackUrl, call FallbackUrl). */
  fallback(): { url: string; method: "GET" | "POST" } | null;
}

/** How long the "an application error has occurred" prompt lasts before the call is hung up. */
export const errorPromptMs = 3000;
/** Navigations one call may make; past this the call is hung up with an alert (a redirect loop). */
export const maxNavigations = 500;

function* runVerb(node: MarkupNode, env: VerbEnv): VerbRun {
  switch (node.name) {
    case "Say":
      yield* say(node, env);
      return { type: "next" };
    case "Play":
      yield* play(node, env);
      return { type: "next" };
    case "Pause":
      yield* pause(node, env);
      return { type: "next" };
    case "Gather":
      return yield* gather(node, env);
    case "Record":
      return yield* record(node, env);
    case "Dial":
      return yield* dial(node, env);
    case "Redirect":
      return redirect(node, env);
    case "Hangup":
      return hangup();
    case "Reject":
      return reject(node, env);
    case "Enqueue":
      return yield* enqueue(node, env);
    case "Sms":
      return sms(node, env);
    case "Connect":
      return yield* connect(node, env);
    case "Start":
      return start(node, env);
    case "Stop":
      return stop(node, env);
    case "Leave":
      // Outside Enqueue wait markup there is no queue to leave: Twilio goes on with the next verb.
      return { type: "next" };
    default:
      env.alert(12200, `<${node.name}> is not emulated by the sandbox and was skipped`, "warning");
      return { type: "next" };
  }
}

/** Runs a document's verbs; running past the last one hangs up (Twilio). */
export function* runVerbs(verbs: MarkupNode[], env: VerbEnv): VerbRun {
  if (verbs.length === 0) env.answer();
  for (const [index, node] of verbs.entries()) {
    if (unemulatedVerbs.includes(node.name)) {
      env.alert(12200, `<${node.name}> is not emulated by the sandbox and was skipped`, "warning");
      continue;
    }
    // answerOnBridge: an inbound caller keeps ringing until the dialled party answers. "If <Pause> is the
    // first verb in a TwiML document, Twilio will wait the specified number of seconds before picking up
    // the call": the verb after it answers (or rejects), and a document that is only the Pause picks up at its end.
    const delaysPickup = index === 0 && node.name === "Pause";
    if (node.name !== "Reject" && !answersOnBridge(node) && !delaysPickup) env.answer();
    env.verbStarted(node);
    env.timeline("verb.start", { verb: node.name, line: node.position.line });
    const outcome = yield* runVerb(node, env);
    env.timeline("verb.end", { verb: node.name, outcome: outcome.type });
    if (delaysPickup && verbs.length === 1 && outcome.type === "next") env.answer();
    if (outcome.type !== "next") return outcome;
  }
  return { type: "hangup", endOfDocument: true };
}

interface Loaded {
  verbs: MarkupNode[];
  url: string | null;
}

function* fetchDocument(
  host: ProgramHost,
  nav: Navigation,
  extra: Record<string, string>,
): Step<Loaded | { error: MarkupError; url: string | null }> {
  if (nav.kind === "twiml") {
    try {
      const doc = parseMarkup(nav.twiml);
      validateVoiceDocument(doc.verbs);
      return { verbs: doc.verbs, url: null };
    } catch (error) {
      if (error instanceof MarkupError) return { error, url: null };
      throw error;
    }
  }
  const env = host.envFor(nav.url);
  const result = (yield {
    type: "fetch",
    url: nav.url,
    method: nav.method,
    params: env.actionParams({ ...nav.params, ...extra }),
  }) as OutboundResult;
  if (!result.ok) return { error: fetchFailure(result), url: nav.url };
  try {
    return { verbs: documentOf(result, nav.url), url: result.url || nav.url };
  } catch (error) {
    if (error instanceof MarkupError) return { error, url: nav.url };
    throw error;
  }
}

/**
 * Loads a document; on failure reports the alert (11200/11202/11205 for HTTP, 12100/12200/12300 for the
 * answer) and tries the
 * fallback URL once with ErrorCode and ErrorUrl. Null when nothing usable came back.
 */
function* load(host: ProgramHost, nav: Navigation): Step<Loaded | null> {
  const first = yield* fetchDocument(host, nav, {});
  if ("verbs" in first) return first;
  const env = host.envFor(first.url);
  const { code, message } = first.error;
  env.alert(code, `${message}${first.url ? ` (${first.url})` : ""}`);
  const fallback = host.fallback();
  if (!fallback) return null;
  const second = yield* fetchDocument(
    host,
    { kind: "url", url: fallback.url, method: fallback.method },
    { ErrorCode: String(code), ErrorUrl: first.url ?? "" },
  );
  if ("verbs" in second) return second;
  host.envFor(fallback.url).alert(second.error.code, `${second.error.message} (${fallback.url})`);
  return null;
}

/** The whole life of a call's markup, from the first document to hangup or reject. */
export function* runCallProgram(host: ProgramHost, start: Navigation): Generator<unknown, Outcome, unknown> {
  let nav: Navigation = start;
  let navigations = 0;
  for (;;) {
    try {
      if (++navigations > maxNavigations) {
        host
          .envFor(null)
          .alert(12400, `More than ${maxNavigations} documents on one call: hung up (a redirect loop?)`);
        return { type: "hangup" };
      }
      const loaded = yield* load(host, nav);
      if (!loaded) {
        // Twilio answers and says "An application error has occurred", then hangs up.
        const env = host.envFor(null);
        env.answer();
        env.heard({
          kind: "error-prompt",
          text: "We are sorry, an application error has occurred. Goodbye.",
        });
        yield { type: "wait", ms: errorPromptMs, wake: [] };
        return { type: "hangup" };
      }
      const outcome = yield* runVerbs(loaded.verbs, host.envFor(loaded.url));
      if (outcome.type !== "navigate") return outcome;
      nav = outcome.to;
    } catch (error) {
      if (!(error instanceof Redirected)) throw error;
      nav = error.to;
    }
  }
}
