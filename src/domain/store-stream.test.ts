// Rows read from outside share the values they repeat from the row before, as the live state held them, and keep their own where they differ.
import { describe, expect, it } from "vitest";
import { createSandboxCore } from "../sandbox.js";
import { StoreLoader } from "./store-stream.js";

const accountSid = "AC11111111111111111111111111111111";
const basic = `Basic ${Buffer.from(`${accountSid}:acme_auth_token_1111111111111111`).toString("base64")}`;

describe("StoreLoader", () => {
  it("shares a checked row's values that equal the row before's, and only those", async () => {
    const source = createSandboxCore({ clock: "virtual" });
    const placed = await source.handle({
      method: "POST",
      path: `/2010-04-01/Accounts/${accountSid}/Calls.json`,
      query: "",
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: "To=%2B15558675310&From=%2B14155550100&Twiml=%3CResponse%2F%3E&StatusCallbackEvent=completed",
    });
    expect(placed.status).toBe(201);
    // Each row as it arrives from a JSON line: a copy of every value.
    const template = JSON.stringify(source.store.calls.all()[0]);
    const line = (sid: string, changes: Record<string, unknown> = {}) => ({
      ...JSON.parse(template),
      sid,
      ...changes,
    });

    const target = createSandboxCore({ clock: "virtual" });
    const loader = new StoreLoader(target.store, true);
    loader.add("calls", line("CA00000000000000000000000000000001"));
    loader.add("calls", line("CA00000000000000000000000000000002"));
    loader.add(
      "calls",
      line("CA00000000000000000000000000000003", { status_callback_events: ["initiated", "completed"] }),
    );
    for (const _step of loader.finish()) {
      // built at once
    }
    loader.commit();

    const [first, second, third] = target.store.calls.all();
    expect(second!.status_callback_events).toBe(first!.status_callback_events);
    expect(second!.recording_status_callback_events).toBe(first!.recording_status_callback_events);
    expect(third!.recording_status_callback_events).toBe(first!.recording_status_callback_events);
    // A value that differs stays the row's own.
    expect(third!.status_callback_events).toEqual(["initiated", "completed"]);
    expect(third!.status_callback_events).not.toBe(second!.status_callback_events);
    // Nothing else changed: each row reads as it was given.
    expect(target.store.calls.all()).toEqual([
      line("CA00000000000000000000000000000001"),
      line("CA00000000000000000000000000000002"),
      line("CA00000000000000000000000000000003", { status_callback_events: ["initiated", "completed"] }),
    ]);
  });
});
