// Twilio error codes for account API errors declared without one: by the parameter at fault, then by resource.
import type { SandboxError } from "../../domain/errors.js";

/** Codes of one resource family (https://www.twilio.com/docs/api/errors/<code>). */
interface FamilyCodes {
  /** A URL parameter that is not an absolute http(s) URL. */
  url: number;
  /** A `...Method` parameter other than GET or POST. */
  method: number;
  /** A status callback URL that is not valid. */
  statusCallback: number;
  /** Anything else wrong with a request to this resource. */
  other: number;
}

/** 21200 "Calls Resource", 21205 "Url is not a valid URL", 21209 "Invalid Method", 21609 "Invalid StatusCallback". */
const calls: FamilyCodes = { url: 21205, method: 21209, statusCallback: 21609, other: 21200 };
/** 21402 "Invalid Url" and 21403 "Invalid Method" are the phone-number (and application) handler codes. */
const numbers: FamilyCodes = { url: 21402, method: 21403, statusCallback: 21402, other: 20422 };
/** 21100 "Accounts Resource" for the account itself, its balance, usage and subaccounts. */
const accounts: FamilyCodes = { url: 21205, method: 21209, statusCallback: 21609, other: 21100 };
/** 20422 "Invalid Parameter" where Twilio documents no resource-specific code. */
const elsewhere: FamilyCodes = { url: 21205, method: 21209, statusCallback: 21609, other: 20422 };

const familyByResource: Record<string, FamilyCodes> = {
  Calls: calls,
  Conferences: calls,
  Recordings: calls,
  IncomingPhoneNumbers: numbers,
  Applications: numbers,
  "": accounts,
  Balance: accounts,
  Usage: accounts,
  OutgoingCallerIds: accounts,
};

/** Parameters whose code is the same wherever they appear. */
const byName: Record<string, number> = {
  To: 21211,
  From: 21212,
  StatusCallbackEvent: 21626,
  ApplicationSid: 21218,
  VoiceApplicationSid: 21218,
  SmsApplicationSid: 21218,
};

/** The resource a path names right under `/Accounts/{AccountSid}` (empty for the account, or the account list). */
function familyOf(path: string): FamilyCodes {
  const rest = path.split("/").slice(4);
  const resource = (rest[0] ?? "").replace(/\.json$/, "");
  return familyByResource[resource] ?? elsewhere;
}

/** Server-side failures keep Twilio's 2xxxx form of their HTTP status. */
const byStatus: Record<number, number> = { 429: 20429, 500: 20500, 503: 20503 };

/**
 * The Twilio code for an account API error: its own when it has one (10000 and up), else the code Twilio
 * documents for the parameter at fault or the resource the path names.
 */
export function twilioCodeFor(error: SandboxError, path: string): number {
  if (error.code >= 10_000) return error.code;
  const status = byStatus[error.status];
  if (status !== undefined) return status;
  const family = familyOf(path);
  const parameter = error.source?.parameter;
  if (!parameter) return family.other;
  const named = byName[parameter];
  if (named !== undefined) return named;
  if (parameter.endsWith("StatusCallbackEvent")) return byName.StatusCallbackEvent!;
  if (parameter.endsWith("Method")) return family.method;
  if (parameter.endsWith("StatusCallback")) return family.statusCallback;
  if (parameter.endsWith("Url")) return family.url;
  return family.other;
}
