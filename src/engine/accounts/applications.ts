// Applications: create, change and delete an account's named handler sets; the handlers calls and numbers run.
import {
  type Application,
  type ApplicationHandlers,
  defaultApplicationHandlers,
} from "../../domain/application.js";
import { errors } from "../../domain/errors.js";
import type { PhoneNumber } from "../../domain/phone-number.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { type Changes, definedOnly, withChanges } from "../context/record-changes.js";

export function createApplication(
  ctx: EngineContext,
  accountSid: string,
  handlers: Changes<ApplicationHandlers>,
): Application {
  return ctx.store.transact(() => {
    const now = ctx.clock.now();
    const application = ctx.store.applications.insert({
      sid: ctx.ids.mint("AP"),
      account_sid: accountSid,
      ...defaultApplicationHandlers,
      ...definedOnly(handlers),
      created_at: now,
      updated_at: now,
    });
    recordEvent(ctx, "application.created", accountSid, "application", application);
    return application;
  });
}

export function updateApplication(
  ctx: EngineContext,
  application: Application,
  changes: Changes<ApplicationHandlers>,
): Application {
  return ctx.store.transact(() => {
    const updated = ctx.store.applications.replace(
      withChanges<Application>(application, changes, ctx.clock.now()),
    );
    recordEvent(ctx, "application.updated", updated.account_sid, "application", updated);
    return updated;
  });
}

/** Twilio 21218: an ApplicationSid must name one of the account's applications. */
export function findApplication(
  ctx: EngineContext,
  accountSid: string,
  sid: string,
  parameter = "ApplicationSid",
): Application {
  const application = ctx.store.applications.get(sid);
  if (!application || application.account_sid !== accountSid) {
    throw errors.invalidParameter(
      parameter,
      `${parameter} ${sid} is not an application of account ${accountSid}; create it with POST /Applications.json first.`,
      21218,
    );
  }
  return application;
}

/** What a call runs and reports to: its markup URL, fallback and status callback. */
export interface VoiceHandlers {
  url: string | null;
  method: "GET" | "POST";
  fallbackUrl: string | null;
  fallbackMethod: "GET" | "POST";
  statusCallback: string | null;
  statusCallbackMethod: "GET" | "POST";
}

/** The voice handlers an application runs (a call placed with it, a number naming it, a client's call). */
export const applicationVoiceHandlers = (app: Application): VoiceHandlers => ({
  url: app.voice_url,
  method: app.voice_method,
  fallbackUrl: app.voice_fallback_url,
  fallbackMethod: app.voice_fallback_method,
  statusCallback: app.status_callback,
  statusCallbackMethod: app.status_callback_method,
});

/** A call placed with ApplicationSid runs the application's voice handlers (Twilio ignores Url and its kin). */
export function applicationCallHandlers(ctx: EngineContext, accountSid: string, sid: string): VoiceHandlers {
  const app = findApplication(ctx, accountSid, sid);
  if (!app.voice_url) {
    throw errors.invalidParameter(
      "ApplicationSid",
      `Application ${sid} has no VoiceUrl, so a call has nothing to run; set one with POST /Applications/${sid}.json.`,
      21218,
    );
  }
  return applicationVoiceHandlers(app);
}

/** The voice handlers a call to the number runs: its application's when it names one, else its own. */
export function numberVoiceHandlers(ctx: EngineContext, number: PhoneNumber): VoiceHandlers {
  const app = number.voice_application_sid
    ? ctx.store.applications.get(number.voice_application_sid)
    : undefined;
  if (app) return applicationVoiceHandlers(app);
  return {
    url: number.voice_url,
    method: number.voice_method,
    fallbackUrl: number.voice_fallback_url,
    fallbackMethod: number.voice_fallback_method,
    statusCallback: number.status_callback,
    statusCallbackMethod: number.status_callback_method,
  };
}

/** The SMS handler a message to the number goes to: its application's when it names one, else its own. */
export function numberSmsHandler(
  ctx: EngineContext,
  number: PhoneNumber,
): { url: string | null; method: "GET" | "POST" } {
  const app = number.sms_application_sid ? ctx.store.applications.get(number.sms_application_sid) : undefined;
  return app
    ? { url: app.sms_url, method: app.sms_method }
    : { url: number.sms_url, method: number.sms_method };
}

/** Deleting an application leaves the numbers that ran it on their own handlers again. */
export function deleteApplication(ctx: EngineContext, application: Application): void {
  ctx.store.transact(() => {
    for (const number of ctx.store.phoneNumbers.where("account", application.account_sid)) {
      const voice = number.voice_application_sid === application.sid;
      const sms = number.sms_application_sid === application.sid;
      if (!voice && !sms) continue;
      ctx.store.phoneNumbers.replace({
        ...number,
        ...(voice ? { voice_application_sid: null } : {}),
        ...(sms ? { sms_application_sid: null } : {}),
        updated_at: ctx.clock.now(),
      });
    }
    ctx.store.applications.delete(application.sid);
    recordEvent(ctx, "application.deleted", application.account_sid, "application", application);
  });
}
