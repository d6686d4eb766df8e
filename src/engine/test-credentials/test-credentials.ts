// Requests made with Twilio test credentials: validated as usual, then magic numbers decide; nothing is kept.
import type { Call } from "../../domain/call.js";
import { errors } from "../../domain/errors.js";
import { createIdGenerator } from "../../domain/ids.js";
import type { Message } from "../../domain/message.js";
import { blankHandlers, type NumberHandlers, type PhoneNumber } from "../../domain/phone-number.js";
import { callRecord, type NewCall } from "../calls/calls.js";
import { assertCallMarkup } from "../calls/place-call.js";
import type { EngineContext } from "../context/context.js";
import { definedOnly } from "../context/record-changes.js";
import {
  type ApiMessage,
  assertMessageContent,
  assertMessageSchedule,
  messageRecord,
  messageSidPrefix,
} from "../messaging/messages.js";
import {
  callFromFailures,
  callFromOther,
  callToFailures,
  magicAreaCode,
  magicFrom,
  magicPurchasedNumber,
  messageFromFailures,
  messageFromOther,
  messageToFailures,
  purchaseAreaCodeOther,
  purchaseNumberFailures,
  purchaseNumberOther,
} from "./magic-numbers.js";

/*
 * Twilio (twilio.com/docs/iam/test-credentials): test requests "change nothing, charge nothing and send no
 * callbacks". So nothing here writes to the store, records an event, debits a wallet or queues a webhook: the
 * call engine never sees these calls, since it starts only the calls it finds in the store.
 */

/**
 * The answer's sid: minted by a generator seeded with the request, not by the sandbox's, so a test request
 * leaves the id sequence (part of every snapshot) as it was. The same request at the same instant gets the
 * same sid; nothing can be fetched by it anyway.
 */
function answerSid(ctx: EngineContext, prefix: string, request: unknown): string {
  return createIdGenerator(JSON.stringify([prefix, ctx.clock.now(), request])).mint(prefix);
}

/** A message with test credentials: the live checks, then the From and To magic numbers; answered `queued`. */
export function sendTestMessage(ctx: EngineContext, input: ApiMessage): Message {
  assertMessageContent(input);
  // A Messaging Service's pool holds no magic number, so a message without From fails as any other From does.
  const from = input.from ?? "(none)";
  if (from !== magicFrom) throw (messageFromFailures[from] ?? messageFromOther)(from);
  const toFailure = messageToFailures[input.to];
  if (toFailure) throw toFailure(input.to);
  assertMessageSchedule(ctx, input);
  const message = { ...input, from };
  return messageRecord(message, answerSid(ctx, messageSidPrefix(message), message), ctx.clock.now());
}

/** A call with test credentials: the live checks, then the From and To magic numbers; answered `queued`, never run. */
export function placeTestCall(
  ctx: EngineContext,
  input: Omit<NewCall, "direction" | "phoneNumberSid">,
): Call {
  assertCallMarkup(input);
  if (input.from !== magicFrom) throw (callFromFailures[input.from] ?? callFromOther)(input.from);
  const toFailure = callToFailures[input.to];
  if (toFailure) throw toFailure(input.to);
  const call: NewCall = {
    ...input,
    twiml: input.url ? null : (input.twiml ?? null),
    direction: "outbound-api",
    phoneNumberSid: null,
  };
  return callRecord(call, answerSid(ctx, "CA", call), ctx.clock.now());
}

export interface TestPurchase {
  accountSid: string;
  phoneNumber?: string | undefined;
  areaCode?: string | undefined;
  handlers: Partial<NumberHandlers>;
}

/** A number bought with test credentials: +15005550006 (by PhoneNumber, or AreaCode 500) with the handlers given. */
export function buyTestNumber(ctx: EngineContext, input: TestPurchase): PhoneNumber {
  if (input.phoneNumber !== undefined) {
    if (input.phoneNumber !== magicPurchasedNumber) {
      throw (purchaseNumberFailures[input.phoneNumber] ?? purchaseNumberOther)(input.phoneNumber);
    }
  } else if (input.areaCode !== undefined) {
    if (input.areaCode !== magicAreaCode) throw purchaseAreaCodeOther(input.areaCode);
  } else {
    throw errors.invalidParameter(
      "PhoneNumber",
      "Missing required parameter PhoneNumber (or AreaCode).",
      21421,
    );
  }
  const now = ctx.clock.now();
  return {
    sid: answerSid(ctx, "PN", input),
    number: magicPurchasedNumber,
    number_type: "local",
    visibility: "public",
    country: "US",
    price: "0.00",
    region: null,
    locality: null,
    rate_center: null,
    lata: null,
    postal_code: null,
    latitude: null,
    longitude: null,
    metadata: {},
    status: "assigned",
    account_sid: input.accountSid,
    assigned_at: now,
    ...blankHandlers(magicPurchasedNumber),
    ...definedOnly(input.handlers),
    created_at: now,
    updated_at: now,
  };
}
