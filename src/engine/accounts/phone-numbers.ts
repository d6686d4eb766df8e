// The carrier's number inventory, and the assignment of numbers to accounts (incoming phone numbers).
import { errors } from "../../domain/errors.js";
import {
  blankHandlers,
  type NumberHandlers,
  type numberTypes,
  type PhoneNumber,
} from "../../domain/phone-number.js";

type NumberType = (typeof numberTypes)[number];

import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { definedOnly, withChanges } from "../context/record-changes.js";
import { countryOf } from "../location/calling-codes.js";
import { findApplication } from "./applications.js";

export type InventoryFields = Pick<
  PhoneNumber,
  | "number_type"
  | "visibility"
  | "country"
  | "price"
  | "region"
  | "locality"
  | "rate_center"
  | "lata"
  | "postal_code"
  | "latitude"
  | "longitude"
  | "metadata"
>;

export type NewPhoneNumber = { number: string } & Partial<InventoryFields>;

export function createPhoneNumber(ctx: EngineContext, input: NewPhoneNumber, sid?: string): PhoneNumber {
  return ctx.store.transact(() => {
    if (ctx.store.phoneNumbers.findOne("number", input.number)) {
      throw errors.unprocessable(
        `${input.number} is already in the inventory. Use PATCH on the existing number to change it.`,
        { pointer: "/data/attributes/number" },
      );
    }
    const now = ctx.clock.now();
    const number = ctx.store.phoneNumbers.insert({
      sid: sid ?? ctx.ids.mint("PN"),
      number: input.number,
      number_type: input.number_type ?? "local",
      visibility: input.visibility ?? "public",
      country: input.country ?? countryOf(input.number) ?? "US",
      price: input.price ?? "1.00",
      region: input.region ?? null,
      locality: input.locality ?? null,
      rate_center: input.rate_center ?? null,
      lata: input.lata ?? null,
      postal_code: input.postal_code ?? null,
      latitude: input.latitude ?? null,
      longitude: input.longitude ?? null,
      metadata: input.metadata ?? {},
      status: "available",
      account_sid: null,
      assigned_at: null,
      ...blankHandlers(input.number),
      created_at: now,
      updated_at: now,
    });
    recordEvent(ctx, "phone_number.created", null, "phone_number", number);
    return number;
  });
}

export function updatePhoneNumber(
  ctx: EngineContext,
  number: PhoneNumber,
  changes: Partial<InventoryFields>,
): PhoneNumber {
  return ctx.store.transact(() => {
    const updated = ctx.store.phoneNumbers.replace(withChanges(number, changes, ctx.clock.now()));
    recordEvent(ctx, "phone_number.updated", updated.account_sid, "phone_number", updated);
    return updated;
  });
}

/** Gives an assigned number back to the inventory: unassigned, handlers cleared, nothing routed to it. */
export function releaseNumber(ctx: EngineContext, number: PhoneNumber): PhoneNumber {
  return ctx.store.transact(() => {
    const released = ctx.store.phoneNumbers.replace({
      ...number,
      ...blankHandlers(number.number),
      status: "available",
      account_sid: null,
      assigned_at: null,
      updated_at: ctx.clock.now(),
    });
    recordEvent(ctx, "phone_number.released", number.account_sid, "phone_number", released);
    return released;
  });
}

/** Removes a number that no account holds from the inventory altogether. */
export function removePhoneNumber(ctx: EngineContext, number: PhoneNumber): void {
  ctx.store.transact(() => {
    ctx.store.phoneNumbers.delete(number.sid);
    recordEvent(ctx, "phone_number.deleted", null, "phone_number", number);
  });
}

/**
 * Provisions a number for the account (Twilio's IncomingPhoneNumbers create): the one asked for, or the
 * first available one in a North American area code.
 */
export function provisionNumber(
  ctx: EngineContext,
  accountSid: string,
  request: {
    phoneNumber?: string | undefined;
    areaCode?: string | undefined;
    /** Twilio's typed lists (`IncomingPhoneNumbers/Local`, `/TollFree`, `/Mobile`) take numbers of one type. */
    numberType?: NumberType | undefined;
  },
  handlers: Partial<NumberHandlers>,
): PhoneNumber {
  let e164 = request.phoneNumber;
  const ofType = (n: PhoneNumber) => request.numberType === undefined || n.number_type === request.numberType;
  if (!e164 && request.areaCode) {
    const prefix = `+1${request.areaCode}`;
    const candidate = ctx.store.phoneNumbers
      .where("status", "available")
      .find((n) => n.number.startsWith(prefix) && ofType(n));
    if (!candidate) {
      throw errors.invalidParameter(
        "AreaCode",
        `No phone numbers found in area code ${request.areaCode}.`,
        21452,
      );
    }
    e164 = candidate.number;
  }
  if (!e164) {
    throw errors.invalidParameter(
      "PhoneNumber",
      "Missing required parameter PhoneNumber (or AreaCode).",
      21421,
    );
  }
  const stocked = ctx.store.phoneNumbers.findOne("number", e164);
  if (stocked && !ofType(stocked)) {
    throw errors.invalidParameter(
      "PhoneNumber",
      `PhoneNumber ${e164} is a ${stocked.number_type} number, not ${request.numberType}: create it under its own type's list, or IncomingPhoneNumbers itself.`,
      21422,
    );
  }
  return assignNumber(ctx, accountSid, e164, handlers);
}

/** Takes `e164` out of the inventory and gives it to the account, with the handlers asked for. */
export function assignNumber(
  ctx: EngineContext,
  accountSid: string,
  e164: string,
  handlers: Partial<NumberHandlers>,
): PhoneNumber {
  return ctx.store.transact(() => {
    const number = ctx.store.phoneNumbers.findOne("number", e164);
    if (!number) {
      throw errors.invalidParameter(
        "PhoneNumber",
        `PhoneNumber ${e164} is not available: it is not in the carrier inventory. Add it with POST /carrier/v1/phone_numbers first.`,
        21422,
      );
    }
    if (number.status !== "available") {
      throw errors.invalidParameter(
        "PhoneNumber",
        `PhoneNumber ${e164} is not available: it is already assigned to an account. Release it first.`,
        21422,
      );
    }
    assertApplications(ctx, accountSid, handlers);
    const now = ctx.clock.now();
    const assigned = ctx.store.phoneNumbers.replace({
      ...number,
      ...blankHandlers(number.number),
      ...definedOnly(handlers),
      status: "assigned",
      account_sid: accountSid,
      assigned_at: now,
      updated_at: now,
    });
    recordEvent(ctx, "phone_number.assigned", accountSid, "phone_number", assigned);
    return assigned;
  });
}

export function updateHandlers(
  ctx: EngineContext,
  number: PhoneNumber,
  handlers: Partial<NumberHandlers>,
): PhoneNumber {
  return ctx.store.transact(() => {
    if (number.account_sid) assertApplications(ctx, number.account_sid, handlers);
    const updated = ctx.store.phoneNumbers.replace(withChanges(number, handlers, ctx.clock.now()));
    recordEvent(ctx, "phone_number.updated", updated.account_sid, "phone_number", updated);
    return updated;
  });
}

/** A number's VoiceApplicationSid and SmsApplicationSid must name applications of its account (21218). */
function assertApplications(ctx: EngineContext, accountSid: string, handlers: Partial<NumberHandlers>): void {
  if (handlers.voice_application_sid) {
    findApplication(ctx, accountSid, handlers.voice_application_sid, "VoiceApplicationSid");
  }
  if (handlers.sms_application_sid) {
    findApplication(ctx, accountSid, handlers.sms_application_sid, "SmsApplicationSid");
  }
}
