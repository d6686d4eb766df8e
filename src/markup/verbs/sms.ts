// <Sms> (Twilio's legacy voice verb): sends a text during the call, then goes on, or to `action` when one is set.
import { methodAttr } from "../attrs.js";
import type { Outcome, VerbEnv } from "../effects.js";
import type { MarkupNode } from "../parse.js";

const e164 = /^\+[1-9]\d{1,14}$/;

export function sms(node: MarkupNode, env: VerbEnv): Outcome {
  const call = env.call();
  // Twilio's defaults: to the caller on an inbound call (the called party on an outbound one), from the other side.
  const inbound = call.direction === "inbound";
  const to = node.attrs.to ?? (inbound ? call.from : call.to);
  const from = node.attrs.from ?? (inbound ? call.to : call.from);
  const body = node.text.trim();
  let sid = "";
  let status: "sending" | "failed" | "invalid" = "invalid";
  if (!e164.test(to)) env.alert(14101, `Invalid 'To' attribute: ${to}`, "warning");
  else if (!e164.test(from)) env.alert(14102, `Invalid 'From' attribute: ${from}`, "warning");
  else if (body === "") env.alert(14103, "Invalid Body: the <Sms> verb has no message text", "warning");
  else {
    const callback = node.attrs.statusCallback;
    ({ sid, status } = env.sendSms({
      to,
      from,
      body,
      statusCallback: callback ? env.resolve(callback) : null,
      // `method` is the action's; Twilio posts the status callback.
      statusCallbackMethod: "POST",
    }));
  }
  env.timeline("sms.sent", { sid: sid || null, to, from, status });
  if (!node.attrs.action) return { type: "next" };
  return {
    type: "navigate",
    to: {
      kind: "url",
      url: env.resolve(node.attrs.action),
      method: methodAttr(node),
      params: { SmsSid: sid, SmsStatus: status },
    },
  };
}
