// Records carrier events: every state change leaves one, pointing at the resource as it then was, within a retention bound.
import type { SandboxEvent } from "../../domain/event.js";
import type { EngineContext } from "./context.js";

/** Fields never shown in an event (secrets). */
const secretFields = ["auth_token", "test_auth_token", "key"];

export const defaultEventRetention = { maxCount: 20_000 } as const;

/**
 * Rows are immutable values (a change stores a new row), so an event holds the row itself, not a copy:
 * it costs one reference. Only a row with secrets is copied, without them.
 */
export function recordEvent(
  ctx: EngineContext,
  type: string,
  accountSid: string | null,
  resourceType: string,
  resource: { sid: string },
): SandboxEvent {
  const data = secretFields.some((field) => field in resource)
    ? Object.fromEntries(Object.entries(resource).filter(([key]) => !secretFields.includes(key)))
    : (resource as Record<string, unknown>);
  const event = ctx.store.events.insert({
    sid: ctx.ids.mintNumbered("EV", ctx.store.events.nextPosition),
    type,
    account_sid: accountSid,
    resource_type: resourceType,
    resource_sid: resource.sid,
    data,
    occurred_at: ctx.clock.now(),
  });
  dropExpiredEvents(ctx);
  return event;
}

/** Drops the oldest events beyond the count bound and those older than the age bound. */
export function dropExpiredEvents(ctx: EngineContext): void {
  const maxCount = ctx.eventRetention?.maxCount ?? defaultEventRetention.maxCount;
  const maxAgeMs = ctx.eventRetention?.maxAgeMs;
  const events = ctx.store.events;
  const oldestKept = maxAgeMs === undefined ? -Infinity : ctx.clock.now() - maxAgeMs;
  for (let oldest = events.oldest(); oldest !== undefined; oldest = events.oldest()) {
    if (events.size <= maxCount && oldest.occurred_at >= oldestKept) return;
    events.delete(oldest.sid);
  }
}
