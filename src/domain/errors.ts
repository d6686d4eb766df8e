// Declared errors: each says what went wrong and how to fix it; the http room renders them per surface.

export interface ErrorSource {
  /** JSON pointer into the request document (carrier API), e.g. `/data/attributes/name`. */
  pointer?: string;
  /** Query or form parameter at fault, e.g. `per_page` or `PhoneNumber`. */
  parameter?: string;
}

export interface SandboxErrorInit {
  status: number;
  /** Twilio error code used by the account API body (`code`). */
  code: number;
  /** Short, stable title (carrier API `title`). */
  title: string;
  /** What went wrong and how to fix it (account API `message`, carrier API `detail`). */
  message: string;
  source?: ErrorSource;
  /** Extra response headers, e.g. `WWW-Authenticate` on a 401. */
  headers?: Record<string, string>;
}

export class SandboxError extends Error {
  readonly status: number;
  readonly code: number;
  readonly title: string;
  readonly source: ErrorSource | undefined;
  readonly headers: Record<string, string>;
  /** Further problems found in the same request (carrier API lists them all). */
  readonly more: SandboxError[];

  constructor(init: SandboxErrorInit, more: SandboxError[] = []) {
    super(init.message);
    this.name = "SandboxError";
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.source = init.source;
    this.headers = init.headers ?? {};
    this.more = more;
  }

  /** This error and the ones found with it. */
  all(): SandboxError[] {
    return [this, ...this.more];
  }
}

export const isSandboxError = (value: unknown): value is SandboxError => value instanceof SandboxError;

/** Twilio's error dictionary codes used here (https://www.twilio.com/docs/errors/<code>). */
export const codes = {
  badRequest: 400,
  authenticate: 20003,
  accountNotActive: 20005,
  testCredentialsNotAccepted: 20008,
  notFound: 20404,
  methodNotAllowed: 20004,
  phoneNumberInvalid: 21421,
  phoneNumberUnavailable: 21422,
  cannotDeleteUnfinished: 20009,
  callNotLive: 21220,
  messageNotCancelable: 30409,
} as const;

export const errors = {
  unauthenticated: (detail: string, realm: "Basic" | "Bearer") =>
    new SandboxError({
      status: 401,
      code: codes.authenticate,
      title: "Unauthorized",
      message: `Authenticate: ${detail}`,
      headers: {
        "www-authenticate": realm === "Basic" ? 'Basic realm="Twilio API"' : 'Bearer realm="carrier"',
      },
    }),
  forbidden: (message: string, source?: ErrorSource) =>
    new SandboxError({
      status: 403,
      code: codes.authenticate,
      title: "Forbidden",
      message,
      ...(source ? { source } : {}),
    }),
  /** Twilio: test credentials reach only POST Calls, Messages and IncomingPhoneNumbers; the rest is 403. */
  testCredentialsNotAccepted: (path: string) =>
    new SandboxError({
      status: 403,
      code: codes.testCredentialsNotAccepted,
      title: "Forbidden",
      message: `Resource not accessible with Test Account Credentials: ${path}. Test credentials may only create Calls, Messages and IncomingPhoneNumbers; use the account's live AuthToken or an API key for anything else.`,
    }),
  accountSuspended: (accountSid: string) =>
    new SandboxError({
      status: 403,
      code: codes.accountNotActive,
      title: "Account suspended",
      message: `Account ${accountSid} is suspended. Reactivate it with PATCH /carrier/v1/accounts/${accountSid} and status "active".`,
    }),
  notFound: (path: string) =>
    new SandboxError({
      status: 404,
      code: codes.notFound,
      title: "Not Found",
      message: `The requested resource ${path} was not found`,
    }),
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    new SandboxError({
      status: 405,
      code: codes.methodNotAllowed,
      title: "Method Not Allowed",
      message: `Method ${method} is not allowed on ${path}. Allowed: ${allowed.join(", ")}.`,
      headers: { allow: allowed.join(", ") },
    }),
  invalidParameter: (parameter: string, message: string, code: number = codes.badRequest) =>
    new SandboxError({ status: 400, code, title: "Invalid parameter", message, source: { parameter } }),
  invalidAttribute: (pointer: string, message: string, code: number = codes.badRequest) =>
    new SandboxError({ status: 422, code, title: "Invalid attribute", message, source: { pointer } }),
  conflict: (pointer: string, message: string) =>
    new SandboxError({
      status: 409,
      code: codes.badRequest,
      title: "Conflict",
      message,
      source: { pointer },
    }),
  unprocessable: (message: string, source?: ErrorSource, code: number = codes.badRequest) =>
    new SandboxError({
      status: 422,
      code,
      title: "Unprocessable Entity",
      message,
      ...(source ? { source } : {}),
    }),
  /** Twilio 20009: a call or message may be deleted only once it is finished. */
  notFinished: (what: string, sid: string, status: string) =>
    new SandboxError({
      status: 409,
      code: codes.cannotDeleteUnfinished,
      title: "Conflict",
      message: `Cannot delete ${what} ${sid} before it is complete (status ${status}). Wait for a final status, or end it first.`,
    }),
  /** Twilio 20009 as for unfinished calls: a queue may be deleted only once no caller waits in it. */
  queueNotEmpty: (sid: string, waiting: number) =>
    new SandboxError({
      status: 409,
      code: codes.cannotDeleteUnfinished,
      title: "Conflict",
      message: `Cannot delete queue ${sid}: ${waiting} caller(s) still wait in it. Dequeue them (POST to Members/Front with a Url) or wait until it is empty.`,
    }),
  /** Twilio 21220 (invalid call state): `what` needs a call in progress (a redirect by default). */
  callNotLive: (sid: string, status: string, what = "only a live call can be redirected with Url or Twiml") =>
    new SandboxError({
      status: 400,
      code: codes.callNotLive,
      title: "Invalid call state",
      message: `Call ${sid} is not in progress (status ${status}): ${what}.`,
    }),
  /** Twilio allows four unidirectional streams on a call at once. */
  tooManyStreams: (sid: string, limit: number) =>
    new SandboxError({
      status: 400,
      code: codes.badRequest,
      title: "Too many streams",
      message: `Call ${sid} already has ${limit} streams running, the most a call may have: stop one first (POST .../Streams/{Sid}.json with Status=stopped).`,
    }),
  /** Twilio 21220 as for calls: only a running or paused recording of a live call can be paused, resumed or stopped. */
  recordingNotLive: (sid: string, why: string) =>
    new SandboxError({
      status: 400,
      code: codes.callNotLive,
      title: "Invalid call state",
      message: `Recording ${sid} ${why}: only a recording in progress or paused on a live call can be paused, resumed or stopped.`,
    }),
  /** Twilio 30409: only a scheduled message can be canceled. */
  messageNotCancelable: (sid: string, status: string) =>
    new SandboxError({
      status: 400,
      code: codes.messageNotCancelable,
      title: "Message cannot be canceled",
      message: `Message ${sid} cannot be canceled: its status is ${status}, and only scheduled messages can be canceled.`,
    }),
  /** Carrier balances: a manual debit may not take the wallet below zero. */
  insufficientBalance: (accountSid: string, balanceCents: number, amountCents: number) =>
    new SandboxError({
      status: 422,
      code: codes.badRequest,
      title: "Insufficient balance",
      message: `Account ${accountSid} holds ${balanceCents} cents; a debit of ${amountCents} cents would take it below zero. Debit at most ${balanceCents}, or top up first.`,
      source: { pointer: "/amount_cents" },
    }),
  /** Calls need credit: an account whose wallet is at or below zero cannot place or receive calls. */
  walletEmpty: (accountSid: string, balanceCents: number) =>
    new SandboxError({
      status: 402,
      code: 20042,
      title: "Insufficient funds",
      message: `Account ${accountSid} has no credit (balance ${balanceCents} cents), so calls are refused. Top it up with POST /carrier/v1/accounts/${accountSid}/balances/top_up.`,
    }),
  /** The wallet has credit, but the account's running calls hold it all (each holds its next minute). */
  creditHeld: (accountSid: string, balanceCents: number, heldCents: number) =>
    new SandboxError({
      status: 402,
      code: 20042,
      title: "Insufficient funds",
      message: `Account ${accountSid} has ${balanceCents} cents, of which its running calls hold ${heldCents}: not enough is left for another call's first minute. Wait for calls to end, or top it up with POST /carrier/v1/accounts/${accountSid}/balances/top_up.`,
    }),
  /** Messages need credit as calls do: nothing is sent or received on a wallet at or below zero. */
  walletEmptyForMessages: (accountSid: string, balanceCents: number) =>
    new SandboxError({
      status: 402,
      code: 20042,
      title: "Insufficient funds",
      message: `Account ${accountSid} has no credit (balance ${balanceCents} cents), so messages are refused. Top it up with POST /carrier/v1/accounts/${accountSid}/balances/top_up.`,
    }),
  /** The wallet less what running calls and messages under way hold does not cover this message's price. */
  messageCreditShort: (accountSid: string, balanceCents: number, heldCents: number, priceCents: number) =>
    new SandboxError({
      status: 402,
      code: 20042,
      title: "Insufficient funds",
      message: `Account ${accountSid} has ${balanceCents} cents, of which running calls and messages under way hold ${heldCents}: not enough is left for this message's ${priceCents} cents. Wait for them to finish, or top it up with POST /carrier/v1/accounts/${accountSid}/balances/top_up.`,
    }),
  /** Inbound traffic to a number no account holds (unknown, or released): nothing routes it. */
  channelMismatch: () =>
    new SandboxError({
      status: 400,
      code: 21910,
      title: "Invalid From and To pair",
      message: "Invalid From and To pair. From and To should be of the same channel.",
    }),
  notWhatsappSender: (address: string) =>
    new SandboxError({
      status: 404,
      code: 63007,
      title: "Not a WhatsApp sender",
      message: `${address} is not a WhatsApp sender of any account: list the number in its account's whatsapp_senders (fixtures, or PATCH /__sandbox/accounts/{AccountSid}/settings).`,
    }),
  applicationNotRunnable: (sid: string) =>
    new SandboxError({
      status: 404,
      code: codes.notFound,
      title: "Application not runnable",
      message: `${sid} is not an application with a VoiceUrl, so a client's call has nothing to run: create it (POST /2010-04-01/Accounts/{AccountSid}/Applications.json) with a VoiceUrl first.`,
    }),
  numberNotRouted: (number: string) =>
    new SandboxError({
      status: 404,
      code: codes.notFound,
      title: "Number not routed",
      message: `${number} is not an incoming phone number of any account (unknown or released), so it is not routed. Assign it with POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers first.`,
    }),
  /** A sandbox call/transcription the admin API names that is not there (or not in the needed state). */
  notPending: (what: string, sid: string) =>
    new SandboxError({
      status: 409,
      code: codes.badRequest,
      title: "Conflict",
      message: `${what} ${sid} is not pending: only an in-progress ${what} can be finished this way.`,
    }),
  malformedBody: (message: string) =>
    new SandboxError({ status: 400, code: codes.badRequest, title: "Malformed request body", message }),
  unsupportedMediaType: (message: string) =>
    new SandboxError({ status: 415, code: codes.badRequest, title: "Unsupported Media Type", message }),
  notAcceptable: (message: string) =>
    new SandboxError({ status: 406, code: codes.badRequest, title: "Not Acceptable", message }),
  /** An error status injected with `POST /__sandbox/faults` (Twilio's 20429/20500/20503 where they exist). */
  injectedFault: (status: number, faultId: string, message?: string) =>
    new SandboxError({
      status,
      code: ({ 429: 20429, 500: 20500, 503: 20503 } as Record<number, number>)[status] ?? status,
      title: "Injected fault",
      message:
        message ??
        `Injected fault ${faultId} answered ${status}. Remove it with DELETE /__sandbox/faults/${faultId}.`,
      ...(status === 429 || status === 503 ? { headers: { "retry-after": "1" } } : {}),
    }),
  /** The sandbox cannot do this now (its data directory refuses writes); it recovers by itself. */
  unavailable: (message: string) =>
    new SandboxError({
      status: 503,
      code: 20503,
      title: "Service Unavailable",
      message,
      headers: { "retry-after": "1" },
    }),
  stateConflict: (message: string) =>
    new SandboxError({ status: 409, code: codes.badRequest, title: "Conflict", message }),
  bodyTooLarge: (limit: number) =>
    new SandboxError({
      status: 413,
      code: codes.badRequest,
      title: "Payload Too Large",
      message: `The request body is larger than ${limit} bytes. Send a smaller body.`,
    }),
} as const;
