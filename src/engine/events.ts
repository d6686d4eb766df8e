// Records carrier events: every state change leaves one, with a copy of the resource as it then was.
import type { SandboxEvent } from "../domain/event.js";
import type { EngineContext } from "./context.js";

/** Fields never copied into an event (secrets). */
const secretFields = new Set(["auth_token", "test_auth_token", "key"]);

export function recordEvent(
  ctx: EngineContext,
  type: string,
  accountSid: string | null,
  resourceType: string,
  resource: { sid: string },
): SandboxEvent {
  const data = Object.fromEntries(Object.entries(resource).filter(([key]) => !secretFields.has(key)));
  return ctx.store.events.insert({
    sid: ctx.ids.mint("EV"),
    type,
    account_sid: accountSid,
    resource_type: resourceType,
    resource_sid: resource.sid,
    data: structuredClone(data),
    occurred_at: ctx.clock.now(),
  });
}
