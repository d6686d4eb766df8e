// Applications: create, change and delete an account's named handler sets.
import {
  type Application,
  type ApplicationHandlers,
  defaultApplicationHandlers,
} from "../domain/application.js";
import type { EngineContext } from "./context.js";
import { recordEvent } from "./events.js";
import { type Changes, definedOnly, withChanges } from "./record-changes.js";

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

export function deleteApplication(ctx: EngineContext, application: Application): void {
  ctx.store.transact(() => {
    ctx.store.applications.delete(application.sid);
    recordEvent(ctx, "application.deleted", application.account_sid, "application", application);
  });
}
