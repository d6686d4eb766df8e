// <Hangup> ends the call; <Reject> refuses an unanswered inbound call (busy or rejected, never billed).
import type { Outcome, VerbEnv } from "../effects.js";
import type { MarkupNode } from "../parse.js";

export function hangup(): Outcome {
  return { type: "hangup" };
}

export function reject(node: MarkupNode, env: VerbEnv): Outcome {
  // Once the call is answered there is nothing to reject: Twilio hangs up.
  if (env.call().answered_at !== null) return { type: "hangup" };
  return { type: "reject", reason: node.attrs.reason === "busy" ? "busy" : "rejected" };
}
