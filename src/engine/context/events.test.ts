// Carrier events: an event holds the row as it was, and never a secret field of it.
import { describe, expect, it } from "vitest";
import { createIdGenerator } from "../../domain/ids.js";
import { createStore } from "../../domain/store.js";
import { createVirtualClock } from "../time/clock.js";
import type { EngineContext } from "./context.js";
import { recordEvent } from "./events.js";

const contextOf = () =>
  ({
    store: createStore(),
    clock: createVirtualClock(),
    ids: createIdGenerator(1),
  }) as unknown as EngineContext;

describe("recordEvent", () => {
  it("keeps the row itself when it holds no secret", () => {
    const ctx = contextOf();
    const row = { sid: "SM1", status: "sent" };
    const event = ctx.store.transact(() => recordEvent(ctx, "message.sent", "AC1", "message", row));
    expect(event.data).toBe(row);
    expect(ctx.store.events.get(event.sid)).toBe(event);
  });

  it.each(["auth_token", "test_auth_token", "key"])(
    "leaves %s out of the event's copy of the row",
    (field) => {
      const ctx = contextOf();
      const row = { sid: "AC1", friendly_name: "Main", [field]: "s3cret" };
      const event = ctx.store.transact(() => recordEvent(ctx, "account.updated", "AC1", "account", row));
      expect(event.data).toEqual({ sid: "AC1", friendly_name: "Main" });
      expect(JSON.stringify(event)).not.toContain("s3cret");
    },
  );
});
