// The fault registry: glob matching, use counts, time windows, and the engine-facing lookup.
import { describe, expect, it } from "vitest";
import { createIdGenerator } from "../../domain/ids.js";
import { createStore } from "../../domain/store.js";
import { createVirtualClock } from "../time/clock.js";
import { consumeFault, createFaultRegistry, globToRegExp } from "./faults.js";

describe("fault registry", () => {
  it("matches paths by glob, * spanning slashes", () => {
    const glob = globToRegExp("/2010-04-01/Accounts/*/Calls*");
    expect(glob.test("/2010-04-01/Accounts/AC1/Calls.json")).toBe(true);
    expect(glob.test("/2010-04-01/Accounts/AC1/Calls/CA1/Recordings.json")).toBe(true);
    expect(glob.test("/2010-04-01/Accounts/AC1/Messages.json")).toBe(false);
    expect(globToRegExp("/a.b?").test("/axb")).toBe(false);
  });

  it("spends a counted fault and then lets requests through", () => {
    const faults = createFaultRegistry();
    faults.add({ kind: "http", method: "GET", path: "/x*", status: 503, count: 2 }, 0);
    expect(faults.takeHttp("POST", "/x", 0)).toBeUndefined();
    expect(faults.takeHttp("get", "/x/1", 0)?.status).toBe(503);
    expect(faults.takeHttp("GET", "/x", 0)?.remaining).toBe(0);
    expect(faults.takeHttp("GET", "/x", 0)).toBeUndefined();
    expect(faults.list(0)).toEqual([]);
  });

  it("expires a windowed fault on the sandbox clock", () => {
    const faults = createFaultRegistry();
    faults.add({ kind: "http", path: "/*", delay_ms: 10, forMs: 30_000 }, 1000);
    expect(faults.takeHttp("GET", "/a", 30_999)?.delay_ms).toBe(10);
    expect(faults.takeHttp("GET", "/a", 31_000)).toBeUndefined();
  });

  it("gives the engine transcription and number faults by key", () => {
    const clock = createVirtualClock();
    const faults = createFaultRegistry();
    const ctx = { store: createStore(), clock, ids: createIdGenerator(1), faults };
    faults.add({ kind: "number", number: "+14155550100", outcome: "busy", count: 1 }, clock.now());
    faults.add({ kind: "transcription", outcome: "fail", call_sid: "CA1" }, clock.now());
    expect(consumeFault(ctx, "number", "+14155550199")).toBeUndefined();
    expect(consumeFault(ctx, "number", "+14155550100")?.outcome).toBe("busy");
    expect(consumeFault(ctx, "number", "+14155550100")).toBeUndefined();
    expect(consumeFault(ctx, "transcription", "CA2")).toBeUndefined();
    expect(consumeFault(ctx, "transcription", "CA1")?.outcome).toBe("fail");
    expect(consumeFault(ctx, "transcription", "CA1")?.outcome).toBe("fail");
    expect(consumeFault({ store: ctx.store, clock, ids: ctx.ids }, "transcription", "CA1")).toBeUndefined();
  });
});
