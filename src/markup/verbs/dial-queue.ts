// <Dial><Queue>: take the front caller of the account's queue, run the noun's url on it, then bridge.
import { boolAttr, intAttr, methodAttr } from "../attrs.js";
import { CallEnded, type VerbEnv, type VerbRun, type Wake } from "../effects.js";
import type { MarkupNode } from "../parse.js";

export function* dialQueue(dial: MarkupNode, noun: MarkupNode, env: VerbEnv): VerbRun {
  const action = dial.attrs.action ? env.resolve(dial.attrs.action) : null;
  const method = methodAttr(dial);
  const hangupOnStar = boolAttr(dial, "hangupOnStar", false);
  const timeLimitMs = intAttr(dial, "timeLimit", 14_400) * 1000;
  const url = noun.attrs.url ? env.resolve(noun.attrs.url) : null;
  const taken = env.queue.take(noun.text, url, methodAttr(noun));
  let bridgeStart: number | null = null;
  const result = (): Record<string, string> => {
    const params: Record<string, string> = {
      DialCallStatus: bridgeStart === null ? "no-answer" : "completed",
      DialCallDuration: String(bridgeStart === null ? 0 : Math.ceil((env.now() - bridgeStart) / 1000)),
      DialBridged: String(bridgeStart !== null),
    };
    if (taken) {
      params.DialCallSid = taken.callerSid;
      params.QueueSid = taken.queueSid;
    }
    return params;
  };
  try {
    // An empty (or unknown) queue: nobody to bridge, the Dial ends at once.
    while (taken) {
      const state = env.queue.agentState();
      if (state === "ended") break;
      if (state === "bridged" && bridgeStart === null) bridgeStart = env.now();
      const wake = (yield {
        type: "wait",
        ms: bridgeStart === null ? null : Math.max(0, bridgeStart + timeLimitMs - env.now()),
        wake: hangupOnStar ? ["signal", "dtmf"] : ["signal"],
      }) as Wake;
      if (wake.kind === "timeout" || (wake.kind === "dtmf" && wake.digit === "*")) {
        env.queue.release();
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof CallEnded)) throw error;
    if (action) yield { type: "fetch", url: action, method, params: env.actionParams(result()) };
    throw error;
  }
  const params = result();
  env.timeline("dial.result", { ...params });
  if (!action) return { type: "next" };
  return { type: "navigate", to: { kind: "url", url: action, method, params } };
}
