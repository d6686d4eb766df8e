// Outgoing caller IDs: validation requests (answered at once with a code) and the verified numbers they leave.
import { errors } from "../../domain/errors.js";
import type { OutgoingCallerId } from "../../domain/outgoing-caller-id.js";
import { formatNumber } from "../../domain/phone-number.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { withChanges } from "../context/record-changes.js";

export interface ValidationRequest {
  callerId: OutgoingCallerId;
  /** The six digits the owner of the number would key in on Twilio's validation call. */
  validationCode: string;
}

/** The account's verified caller ID for a number, if any. */
export const verifiedCallerId = (ctx: EngineContext, accountSid: string, number: string) =>
  ctx.store.outgoingCallerIds.findOne("number", `${accountSid}:${number}`);

/**
 * Twilio calls the number and waits for the code; here the number's owner is simulated and always keys it
 * in, so the caller ID is verified as the request is answered. Twilio 21450: a number verified already.
 */
export function requestValidation(
  ctx: EngineContext,
  accountSid: string,
  input: { phoneNumber: string; friendlyName?: string | undefined },
): ValidationRequest {
  if (verifiedCallerId(ctx, accountSid, input.phoneNumber)) {
    throw errors.invalidParameter(
      "PhoneNumber",
      `Phone number ${input.phoneNumber} is already verified on this account; list it with GET /OutgoingCallerIds.json.`,
      21450,
    );
  }
  return ctx.store.transact(() => {
    const now = ctx.clock.now();
    const callerId = ctx.store.outgoingCallerIds.insert({
      sid: ctx.ids.mint("PN"),
      account_sid: accountSid,
      phone_number: input.phoneNumber,
      friendly_name: input.friendlyName || formatNumber(input.phoneNumber),
      created_at: now,
      updated_at: now,
    });
    recordEvent(ctx, "outgoing_caller_id.verified", accountSid, "outgoing_caller_id", callerId);
    // Seeded ids make the code repeatable: the same scenario gives the same code.
    const validationCode = String(Number.parseInt(ctx.ids.mint("VC").slice(2, 10), 16) % 1_000_000).padStart(
      6,
      "0",
    );
    return { callerId, validationCode };
  });
}

export function renameCallerId(
  ctx: EngineContext,
  callerId: OutgoingCallerId,
  friendlyName: string,
): OutgoingCallerId {
  return ctx.store.outgoingCallerIds.replace(
    withChanges(callerId, { friendly_name: friendlyName }, ctx.clock.now()),
  );
}

export function deleteCallerId(ctx: EngineContext, callerId: OutgoingCallerId): void {
  ctx.store.transact(() => {
    ctx.store.outgoingCallerIds.delete(callerId.sid);
    recordEvent(ctx, "outgoing_caller_id.deleted", callerId.account_sid, "outgoing_caller_id", callerId);
  });
}
