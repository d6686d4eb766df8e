// The admin API's operations through both doors: the clock, injected faults, and the request journal.
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures } from "../support/fixtures.js";

const json = { "content-type": "application/json" };
const numbersPath = `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers.json`;

describe.each(doorNames)("admin clock via %s", (door) => {
  const ctx = useDoor(door);

  it("reads the clock, advances virtual time and runs until idle", async () => {
    const start = await ctx.call("GET", "/__sandbox/clock");
    expect(start.json).toEqual({ now: "2026-01-01T00:00:00.000Z", mode: "virtual", pending_timers: 0 });
    const advanced = await ctx.call("POST", "/__sandbox/clock/advance", {
      json: { by: "1m30s" },
      headers: json,
    });
    expect(advanced.json.now).toBe("2026-01-01T00:01:30.000Z");
    let ran = false;
    ctx.sandbox.clock.schedule(ctx.sandbox.clock.now() + 3_600_000, () => {
      ran = true;
    });
    const idle = await ctx.call("POST", "/__sandbox/clock/run_until_idle", { headers: json });
    expect(idle.status).toBe(200);
    expect(ran).toBe(true);
    expect(idle.json).toMatchObject({ now: "2026-01-01T01:01:30.000Z", pending_timers: 0 });
  });

  it("switches to real time and back without going backwards", async () => {
    await ctx.call("POST", "/__sandbox/clock/advance", { json: { by: "1d" }, headers: json });
    const virtualNow = Date.parse((await ctx.call("GET", "/__sandbox/clock")).json.now);
    const real = await ctx.call("POST", "/__sandbox/clock", { json: { mode: "real" }, headers: json });
    expect(real.json.mode).toBe("real");
    expect(Date.parse(real.json.now)).toBeGreaterThanOrEqual(virtualNow);
    const refused = await ctx.call("POST", "/__sandbox/clock/advance", {
      json: { by: "30s" },
      headers: json,
    });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toContain('{"mode": "virtual"}');
    const back = await ctx.call("POST", "/__sandbox/clock", { json: { mode: "virtual" }, headers: json });
    expect(back.json.mode).toBe("virtual");
    expect(Date.parse(back.json.now)).toBeGreaterThanOrEqual(Date.parse(real.json.now));
  });

  it("refuses a bad duration or mode with a 400 that says what is accepted", async () => {
    const before = (await ctx.call("GET", "/__sandbox/clock")).json;
    const bad = await ctx.call("POST", "/__sandbox/clock/advance", { json: { by: "soon" }, headers: json });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/30s/);
    const mode = await ctx.call("POST", "/__sandbox/clock", { json: { mode: "fast" }, headers: json });
    expect(mode.status).toBe(400);
    expect((await ctx.call("GET", "/__sandbox/clock")).json).toEqual(before);
  });
});

describe.each(doorNames)("admin faults via %s", (door) => {
  const ctx = useDoor(door);

  it("answers matching API requests with the injected status for `count` requests, in each surface's format", async () => {
    const created = await ctx.call("POST", "/__sandbox/faults", {
      json: { method: "GET", path: "/2010-04-01/Accounts/*/IncomingPhoneNumbers*", status: 503, count: 1 },
      headers: json,
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      id: "fault_1",
      kind: "http",
      method: "GET",
      status: 503,
      remaining: 1,
    });
    const client = ctx.twilioClient();
    const failure = await client.incomingPhoneNumbers.list().catch((e) => e);
    expect(failure.status).toBe(503);
    expect(failure.code).toBe(20503);
    expect((await client.incomingPhoneNumbers.list()).length).toBe(1);
    expect((await ctx.call("GET", "/__sandbox/faults")).json.faults).toEqual([]);

    await ctx.call("POST", "/__sandbox/faults", {
      json: { path: "/carrier/v1/accounts", status: 429 },
      headers: json,
    });
    const carrier = await ctx.call("GET", "/carrier/v1/accounts", { auth: carrierAuth });
    expect(carrier.status).toBe(429);
    expect(carrier.json.errors[0]).toMatchObject({ status: "429", title: "Injected fault" });
    expect(carrier.headers.get("retry-after")).toBe("1");
  });

  it("applies a fault for a window of sandbox time, then stops", async () => {
    await ctx.call("POST", "/__sandbox/faults", {
      json: { path: "/carrier/v1/*", status: 500, for: "30s" },
      headers: json,
    });
    expect((await ctx.call("GET", "/carrier/v1/accounts", { auth: carrierAuth })).status).toBe(500);
    expect((await ctx.call("GET", "/carrier/v1/phone_numbers", { auth: carrierAuth })).status).toBe(500);
    await ctx.call("POST", "/__sandbox/clock/advance", { json: { by: "30s" }, headers: json });
    expect((await ctx.call("GET", "/carrier/v1/accounts", { auth: carrierAuth })).status).toBe(200);
  });

  it("never applies to the admin API, and changes no state when it fails a write", async () => {
    await ctx.call("POST", "/__sandbox/faults", { json: { path: "/*", status: 503 }, headers: json });
    const before = JSON.stringify(ctx.sandbox.snapshot());
    const write = await ctx.call("POST", "/carrier/v1/accounts", {
      auth: carrierAuth,
      json: { data: { type: "account", attributes: { name: "Never" } } },
    });
    expect(write.status).toBe(503);
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
    expect((await ctx.call("GET", "/__sandbox/health")).status).toBe(200);
    const list = await ctx.call("GET", "/__sandbox/faults");
    expect(list.json.faults).toHaveLength(1);
    const removed = await ctx.call("DELETE", `/__sandbox/faults/${list.json.faults[0].id}`);
    expect(removed.json).toEqual({ removed: list.json.faults[0].id });
    expect((await ctx.call("GET", "/carrier/v1/accounts", { auth: carrierAuth })).status).toBe(200);
    expect((await ctx.call("DELETE", "/__sandbox/faults/fault_999")).status).toBe(404);
  });

  it("delays answers and records the delay in the journal", async () => {
    await ctx.call("POST", "/__sandbox/faults", {
      json: { method: "GET", path: "/carrier/v1/accounts", delay: "20ms", count: 1 },
      headers: json,
    });
    const res = await ctx.call("GET", "/carrier/v1/accounts", { auth: carrierAuth });
    expect(res.status).toBe(200);
    const journal = await ctx.call("GET", "/__sandbox/requests?fault=true");
    expect(journal.json.requests).toHaveLength(1);
    expect(journal.json.requests[0]).toMatchObject({ status: 200, fault: { delay_ms: 20 } });
  });

  it("stores transcription and number faults for the engine, and clears every fault on DELETE and reset", async () => {
    const transcription = await ctx.call("POST", "/__sandbox/faults", {
      json: { kind: "transcription", outcome: "fail", count: 2 },
      headers: json,
    });
    expect(transcription.json).toMatchObject({ kind: "transcription", outcome: "fail", remaining: 2 });
    const number = await ctx.call("POST", "/__sandbox/faults", {
      json: { kind: "number", number: fixtures.acme.mainNumber, outcome: "busy" },
      headers: json,
    });
    expect(number.json).toMatchObject({ kind: "number", number: fixtures.acme.mainNumber, outcome: "busy" });
    expect(
      ctx.sandbox.faults.take("number", fixtures.acme.mainNumber, ctx.sandbox.clock.now())?.outcome,
    ).toBe("busy");
    expect((await ctx.call("GET", "/__sandbox/faults")).json.faults).toHaveLength(2);
    expect((await ctx.call("DELETE", "/__sandbox/faults")).json).toEqual({ cleared: true });
    expect((await ctx.call("GET", "/__sandbox/faults")).json.faults).toEqual([]);
    await ctx.call("POST", "/__sandbox/faults", { json: { path: "/*", status: 500 }, headers: json });
    ctx.sandbox.reset();
    expect((await ctx.call("GET", "/__sandbox/faults")).json.faults).toEqual([]);
  });

  it("refuses a fault it cannot apply, saying why", async () => {
    const cases: [unknown, RegExp][] = [
      [{ path: "/x" }, /status, a delay/],
      [{ path: "x", status: 503 }, /starting with \//],
      [{ path: "/x", status: 200 }, /error status/],
      [{ kind: "number", number: "415", outcome: "busy" }, /E\.164/],
      [{ kind: "number", number: "+14155550100", outcome: "explode" }, /busy, no-answer, fail/],
      [{ kind: "weather" }, /"http" \(the default\)/],
      [{ path: "/x", status: 503, count: 0 }, /1 or more/],
    ];
    for (const [body, message] of cases) {
      const res = await ctx.call("POST", "/__sandbox/faults", { json: body, headers: json });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.message).toMatch(message);
    }
    expect((await ctx.call("GET", "/__sandbox/faults")).json.faults).toEqual([]);
  });
});

describe("request journal limit", () => {
  it("refuses a limit that is not a whole number, 0 or more, naming the option", () => {
    expect(() => createSandbox({ journalLimit: -1 })).toThrow(
      /journalLimit must be a whole number, 0 or more/,
    );
    expect(() => createSandbox({ journalLimit: 2.5 })).toThrow(/journalLimit/);
  });
});

describe.each(doorNames)("request journal via %s", (door) => {
  const ctx = useDoor(door, { journalLimit: 3 });

  it("records method, path, status, latency and account, oldest first, and filters them", async () => {
    await ctx.call("DELETE", "/__sandbox/requests");
    await ctx.call("GET", numbersPath, { auth: acmeAuth });
    await ctx.call("GET", "/carrier/v1/accounts/AC00000000000000000000000000000000", { auth: carrierAuth });
    const all = await ctx.call("GET", "/__sandbox/requests");
    expect(all.json.capacity).toBe(3);
    expect(all.json.requests.map((r: { path: string }) => r.path)).toEqual([
      "/__sandbox/requests",
      numbersPath,
      "/carrier/v1/accounts/AC00000000000000000000000000000000",
    ]);
    const [, account, carrier] = all.json.requests;
    expect(account).toMatchObject({
      // Arrival on the sandbox clock, ISO 8601 (the virtual clock has not moved since).
      at: new Date(ctx.sandbox.clock.now()).toISOString(),
      method: "GET",
      surface: "account",
      status: 200,
      account_sid: fixtures.acme.sid,
      fault: null,
    });
    expect(typeof account.latency_ms).toBe("number");
    expect(carrier).toMatchObject({ surface: "carrier", status: 404, account_sid: null });
    const filtered = await ctx.call("GET", "/__sandbox/requests?status=4xx");
    expect(filtered.json.requests).toHaveLength(1);
    expect(
      (await ctx.call("GET", `/__sandbox/requests?account_sid=${fixtures.acme.sid}`)).json.requests,
    ).toHaveLength(1);
    expect((await ctx.call("GET", "/__sandbox/requests?path=/carrier/*&limit=1")).json.requests).toHaveLength(
      1,
    );
  });

  it("keeps only the newest entries once the ring is full, and counts the rest", async () => {
    await ctx.call("DELETE", "/__sandbox/requests");
    for (let i = 0; i < 5; i++) await ctx.call("GET", numbersPath, { auth: acmeAuth });
    const res = await ctx.call("GET", "/__sandbox/requests");
    expect(res.json.recorded).toBe(6);
    const ids = res.json.requests.map((r: { id: number }) => r.id);
    expect(ids).toHaveLength(3);
    expect(ids[2] - ids[0]).toBe(2);
    expect(res.json.requests.at(-1).path).toBe(numbersPath);
  });

  it("keeps the start of each body and the answer's error code, with secret values masked", async () => {
    await ctx.call("DELETE", "/__sandbox/requests");
    const messages = `/2010-04-01/Accounts/${fixtures.acme.sid}/Messages.json`;
    await ctx.call("POST", messages, {
      auth: acmeAuth,
      form: { To: "+15005550006", Body: "x".repeat(3000) },
    });
    await ctx.call("POST", `/__sandbox/accounts/${fixtures.acme.sid}/api_keys`, {
      json: { scopes: ["messages_read"] },
      headers: { "content-type": "application/json" },
    });
    await ctx.call("POST", `${messages}?AuthToken=in-the-query`, {
      auth: acmeAuth,
      form: { Body: "hi", AuthToken: "in-the-body" },
    });
    const [tooLong, key, bad] = (await ctx.call("GET", "/__sandbox/requests")).json.requests;
    expect(tooLong.request_body).toHaveLength(2048);
    expect(tooLong.request_body).toMatch(/^To=%2B15005550006&Body=xxx/);
    expect(tooLong.status).toBe(400);
    expect(tooLong.error_code).toBe(21617);
    expect(JSON.parse(tooLong.response_body)).toMatchObject({ code: 21617, status: 400 });
    expect(key.error_code).toBeNull();
    expect(key.response_body).toContain('"key":"[redacted]"');
    expect(key.response_body).toContain('"scopes":["messages_read"]');
    expect(bad.query).toBe("AuthToken=[redacted]");
    expect(bad.request_body).toBe("Body=hi&AuthToken=[redacted]");
    expect(JSON.stringify(bad)).not.toContain("in-the-");
  });

  it("rejects an unknown filter or a bad status", async () => {
    expect((await ctx.call("GET", "/__sandbox/requests?colour=red")).status).toBe(400);
    const bad = await ctx.call("GET", "/__sandbox/requests?status=teapot");
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/4xx/);
  });
});
