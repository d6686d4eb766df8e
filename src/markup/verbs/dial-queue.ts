// <Dial><Queue>: take the front caller of the account's queue (or wait for one), run the noun's url on it, then bridge.
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
  // Twilio: an empty queue is waited on until a caller joins or the Dial's timeout passes.
  const waitUntil = env.now() + intAttr(dial, "timeout", 30) * 1000;
  let bridgeStart: number | null = null;
  const result = (): Record<string, string> => {
    // No such queue: Twilio posts an error status (failed); nobody came in time: no-answer.
    const status = !taken ? "failed" : bridgeStart === null ? "no-answer" : "completed";
    const params: Record<string, string> = {
      DialCallStatus: status,
      DialCallDuration: String(bridgeStart === null ? 0 : Math.ceil((env.now() - bridgeStart) / 1000)),
      DialBridged: String(bridgeStart !== null),
    };
    const caller = env.queue.partner();
    if (caller) params.DialCallSid = caller;
    if (taken) params.QueueSid = taken.queueSid;
    return params;
  };
  let params: Record<string, string> | null = taken ? null : result();
  if (!taken)
    env.alert(12200, `<Dial><Queue>${noun.text}</Queue>: the account has no queue of that name`, "warning");
  try {
    while (taken) {
      const state = env.queue.agentState();
      if (state === "ended") break;
      if (state === "bridged" && bridgeStart === null) bridgeStart = env.now();
      const deadline =
        bridgeStart !== null ? bridgeStart + timeLimitMs : state === "waiting" ? waitUntil : null;
      const wake = (yield {
        type: "wait",
        ms: deadline === null ? null : Math.max(0, deadline - env.now()),
        wake: hangupOnStar ? ["signal", "dtmf"] : ["signal"],
      }) as Wake;
      if (wake.kind === "timeout" || (wake.kind === "dtmf" && wake.digit === "*")) {
        params = result();
        env.queue.release();
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof CallEnded)) throw error;
    if (action) yield { type: "fetch", url: action, method, params: env.actionParams(result()) };
    throw error;
  }
  params ??= result();
  env.timeline("dial.result", { ...params });
  if (!action) return { type: "next" };
  return { type: "navigate", to: { kind: "url", url: action, method, params } };
}
