// Outbound API calls: the checks Twilio makes before queueing a call, then the queued record.
import { type Call, isClientAddress, sipAddressPattern, sipHostOf } from "../../domain/call.js";
import { errors } from "../../domain/errors.js";
import { twilioMissingWording } from "../../domain/twilio-wording.js";
import { verifiedCallerId } from "../accounts/outgoing-caller-ids.js";
import type { EngineContext } from "../context/context.js";
import { createCallRecord, type NewCall } from "./calls.js";

/**
 * Places a call from the account API. Twilio needs markup (Url, Twiml or ApplicationSid: 21205 when none)
 * and a caller ID the account owns or verified (21210 otherwise), though a call to a client may come from
 * a client identity; the call starts `queued`.
 */
export function placeCall(ctx: EngineContext, input: Omit<NewCall, "direction" | "phoneNumberSid">): Call {
  assertCallMarkup(input);
  const owned = ctx.store.phoneNumbers
    .where("number", input.from)
    .find((number) => number.account_sid === input.accountSid);
  if (sipAddressPattern.test(input.to)) assertSipReachable(ctx, input.accountSid, input.to);
  const clientToClient = isClientAddress(input.from) && isClientAddress(input.to);
  if (!owned && !clientToClient && !verifiedCallerId(ctx, input.accountSid, input.from)) {
    throw errors.invalidParameter(
      "From",
      `The source phone number provided, ${input.from}, is not yet verified for your account. Use one of the account's incoming phone numbers or verified outgoing caller IDs as From.`,
      21210,
    );
  }
  // Twilio: "If both twiml and url are provided then twiml parameter will be ignored."
  return createCallRecord(ctx, {
    ...input,
    twiml: input.url ? null : (input.twiml ?? null),
    direction: "outbound-api",
    phoneNumberSid: owned?.sid ?? null,
  });
}

/** Twilio needs the call's markup: Url, Twiml or ApplicationSid (21205 when none). */
export function assertCallMarkup(input: Pick<NewCall, "url" | "twiml">): void {
  if (!input.url && !input.twiml) {
    throw errors.invalidParameter("Url", twilioMissingWording[21205]!, 21205);
  }
}

/**
 * A SIP address is reachable through a SIP trunk of the account (or one the carrier shares with every
 * account) that terminates at its host; otherwise the address is refused as Twilio refuses a bad To (21211).
 */
function assertSipReachable(ctx: EngineContext, accountSid: string, to: string): void {
  const host = sipHostOf(to);
  const reachable = ctx.store.sipTrunks
    .all()
    .some(
      (trunk) =>
        (trunk.account_sid === null || trunk.account_sid === accountSid) &&
        trunk.termination_uris.some((uri) => sipHostOf(uri) === host),
    );
  if (!reachable) {
    throw errors.invalidParameter(
      "To",
      `The 'To' address ${to} is not reachable: no SIP trunk of the account terminates at ${host}. Create one on the carrier API (POST /carrier/v1/sip_trunks with termination_uris).`,
      21211,
    );
  }
}
