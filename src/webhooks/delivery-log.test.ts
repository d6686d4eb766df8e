// The delivery log keeps the newest attempts up to its capacity and filters them.
import { describe, expect, it } from "vitest";
import { createDeliveryLog, type DeliveryAttempt } from "./delivery-log.js";

const attempt = (n: number, overrides: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  id: `WH${n}`,
  attempt: 1,
  kind: "call-status",
  method: "POST",
  url: "http://127.0.0.1/cb",
  params: {},
  signature: "sig",
  idempotencyToken: `WH${n}`,
  accountSid: "AC1",
  callSid: `CA${n % 2}`,
  messageSid: null,
  orderingKey: null,
  at: n,
  status: 200,
  outcome: "success",
  error: null,
  latencyMs: 1,
  cookie: null,
  setCookies: [],
  responseBody: "",
  nextAttemptAt: null,
  ...overrides,
});

describe("delivery log", () => {
  it("keeps the newest attempts when full and counts the ones it dropped", () => {
    const log = createDeliveryLog(3);
    for (let n = 1; n <= 5; n++) log.append(attempt(n));
    expect(log.list().map((a) => a.id)).toEqual(["WH3", "WH4", "WH5"]);
    expect(log.size).toBe(3);
    expect(log.evicted).toBe(2);
  });

  it("filters by call, account, kind and outcome, and keeps the last `limit` matches", () => {
    const log = createDeliveryLog(10);
    for (let n = 1; n <= 6; n++)
      log.append(attempt(n, n === 6 ? { outcome: "timeout", kind: "transcription" } : {}));
    expect(log.list({ callSid: "CA1" }).map((a) => a.id)).toEqual(["WH1", "WH3", "WH5"]);
    expect(log.list({ callSid: "CA1", limit: 2 }).map((a) => a.id)).toEqual(["WH3", "WH5"]);
    expect(log.list({ outcome: "timeout" }).map((a) => a.id)).toEqual(["WH6"]);
    expect(log.list({ kind: "transcription", accountSid: "AC1" }).map((a) => a.id)).toEqual(["WH6"]);
    expect(log.list({ accountSid: "AC2" })).toEqual([]);
  });

  it("empties on clear", () => {
    const log = createDeliveryLog(2);
    for (let n = 1; n <= 3; n++) log.append(attempt(n));
    log.clear();
    expect(log.list()).toEqual([]);
    expect(log.evicted).toBe(0);
    log.append(attempt(9));
    expect(log.list().map((a) => a.id)).toEqual(["WH9"]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => createDeliveryLog(0)).toThrow(/logLimit/);
  });
});
