// No state change from another site: every admin route that changes anything, taken from the route table, refuses
// what a browser sends for another site's page (Origin, Sec-Fetch-Site, a form's or text/plain body, no body at
// all) and changes nothing; the same requests as curl sends them pass. Through the core and a started server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bodyTypesOf, changesState } from "../../src/http/cross-site.js";
import type { AnyRoute } from "../../src/http/route.js";
import { routes } from "../../src/http/routes.js";
import { createSandbox } from "../../src/index.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { fixtures } from "../support/fixtures.js";
import { sendRaw } from "../support/host-request.js";

const hex = (digit: string) => digit.repeat(32);
/** A well-formed value for each path parameter of the table: a new name fails here until it has one. */
const samples: Record<string, string> = {
  AccountSid: fixtures.acme.sid,
  Extension: "101",
  KeySid: fixtures.acme.readKey.sid,
  CallSid: `CA${hex("0")}`,
  Number: fixtures.acme.mainNumber,
  Sid: `TR${hex("0")}`,
  Outcome: "complete",
  FaultId: "fault_1",
  DeliveryId: `WH${hex("0")}`,
  RecordingSid: `RE${hex("0")}`,
};
const pathOf = (route: AnyRoute) =>
  route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, name: string) => {
    const value = samples[name];
    if (value === undefined) throw new Error(`no sample value for :${name} (${route.method} ${route.path})`);
    return encodeURIComponent(value);
  });

const stateChanging = routes.filter(changesState);
const named = stateChanging.map((route) => `${route.method} ${route.path}`);

interface Attempt {
  name: string;
  headers: Record<string, string>;
  body: string;
  status: 403 | 415;
}

/** What pages of other sites can make a browser send, each with the status it gets. */
function refusals(route: AnyRoute, host: string): Attempt[] {
  const own = { "content-type": bodyTypesOf(route)[0]! };
  return [
    {
      name: "Origin of another site",
      headers: { ...own, origin: "https://attacker.example" },
      body: "",
      status: 403,
    },
    {
      name: "Origin of another port here",
      headers: { ...own, origin: "http://127.0.0.1:1" },
      body: "",
      status: 403,
    },
    { name: "Origin null (a sandboxed frame)", headers: { ...own, origin: "null" }, body: "", status: 403 },
    {
      name: "Sec-Fetch-Site: cross-site",
      headers: { ...own, "sec-fetch-site": "cross-site" },
      body: "",
      status: 403,
    },
    // Another port of the same machine is the same site: refused alike.
    {
      name: "Sec-Fetch-Site: same-site, with this server's Origin",
      headers: { ...own, "sec-fetch-site": "same-site", origin: `http://${host}` },
      body: "",
      status: 403,
    },
    { name: "text/plain", headers: { "content-type": "text/plain" }, body: "{}", status: 415 },
    {
      name: "a form",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "to=empty",
      status: 415,
    },
    {
      name: "multipart",
      headers: { "content-type": "multipart/form-data; boundary=b" },
      body: '--b\r\nContent-Disposition: form-data; name="to"\r\n\r\nempty\r\n--b--\r\n',
      status: 415,
    },
    { name: "no body and no Content-Type", headers: {}, body: "", status: 415 },
    { name: "no body, text/plain", headers: { "content-type": "text/plain" }, body: "", status: 415 },
  ];
}

describe("the route table's state-changing admin routes", () => {
  it("are every admin route but the reads, resets, scenarios, state and credentials among them", () => {
    expect(stateChanging.length).toBe(
      routes.filter((r) => r.surface === "admin" && r.method !== "GET").length,
    );
    expect(named).toEqual(
      expect.arrayContaining([
        "POST /__sandbox/reset",
        "PUT /__sandbox/state",
        "POST /__sandbox/scenarios",
        "POST /__sandbox/clock",
        "POST /__sandbox/clock/advance",
        "POST /__sandbox/faults",
        "DELETE /__sandbox/faults/:FaultId",
        "POST /__sandbox/accounts/:AccountSid/api_keys",
        "DELETE /__sandbox/api_keys/:KeySid",
        "POST /__sandbox/webhooks/:DeliveryId/resend",
        "POST /__sandbox/calls/inbound",
        "POST /__sandbox/messages/inbound",
        "PATCH /__sandbox/accounts/:AccountSid/settings",
      ]),
    );
    expect(named.length).toBeGreaterThan(20);
  });

  it("take no body type a page may send to another origin unasked", () => {
    for (const route of stateChanging) {
      const types = bodyTypesOf(route);
      expect(types.length, `${route.method} ${route.path}`).toBeGreaterThan(0);
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
        expect(types, `${route.method} ${route.path}`).not.toContain(type);
    }
    expect(bodyTypesOf(stateChanging.find((r) => r.path === "/__sandbox/scenarios")!)).toContain(
      "application/yaml",
    );
  });
});

describe("through the core (handle)", () => {
  const sandbox = createSandbox();
  const host = "127.0.0.1:4010";
  const send = (route: AnyRoute, headers: Record<string, string>, body: string) =>
    sandbox.handle({
      method: route.method,
      path: pathOf(route),
      query: "",
      headers: { host, ...headers },
      body,
    });
  beforeEach(() => sandbox.reset());

  it.each(named)("%s refuses another site's requests and changes nothing", async (name) => {
    const route = stateChanging[named.indexOf(name)]!;
    const before = JSON.stringify(sandbox.snapshot());
    for (const attempt of refusals(route, host)) {
      const response = await send(route, attempt.headers, attempt.body);
      expect(response.status, attempt.name).toBe(attempt.status);
      const error = JSON.parse(String(response.body)).error;
      expect(error.status, attempt.name).toBe(attempt.status);
      expect(error.message, attempt.name).toContain(`${route.method} `);
    }
    expect(JSON.stringify(sandbox.snapshot())).toBe(before);
  });

  it.each(named)("%s takes the request as curl or the inspector sends it", async (name) => {
    const route = stateChanging[named.indexOf(name)]!;
    const type = { "content-type": bodyTypesOf(route)[0]! };
    for (const headers of [type, { ...type, origin: `http://${host}`, "sec-fetch-site": "same-origin" }]) {
      const response = await send(route, headers, "");
      expect([403, 415], JSON.stringify(headers)).not.toContain(response.status);
      sandbox.reset();
    }
  });

  it("says exactly what to send when a body-less request has no Content-Type", async () => {
    const reset = stateChanging.find((r) => r.path === "/__sandbox/reset")!;
    const response = await send(reset, {}, "");
    expect(JSON.parse(String(response.body)).error.message).toContain(
      "send Content-Type: application/json even with no body",
    );
    const scenario = stateChanging.find((r) => r.path === "/__sandbox/scenarios")!;
    const plain = await send(scenario, { "content-type": "text/plain" }, "name: x");
    expect(JSON.parse(String(plain.body)).error.message).toMatch(/application\/yaml.*\(got text\/plain\)/);
  });

  it("accepts this server's own Origin behind a proxy that sends X-Forwarded-Host", async () => {
    const reset = stateChanging.find((r) => r.path === "/__sandbox/reset")!;
    const response = await send(
      reset,
      {
        "content-type": "application/json",
        origin: "https://sandbox.tunnel.example",
        "x-forwarded-host": "sandbox.tunnel.example",
      },
      "",
    );
    expect(response.status).toBe(200);
  });

  it("leaves reads alone: a GET with another site's Origin is answered (the browser keeps the answer from the page)", async () => {
    const response = await sandbox.handle({
      method: "GET",
      path: "/__sandbox/clock",
      query: "",
      headers: { host, origin: "https://attacker.example", "sec-fetch-site": "cross-site" },
      body: "",
    });
    expect(response.status).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("through a started server", () => {
  let running: RunningServer;
  let host = "";
  beforeAll(async () => {
    running = await serve({ port: 0, clock: "virtual" });
    host = new URL(running.url).host;
  });
  afterAll(async () => running.close());
  beforeEach(() => running.sandbox.reset());

  it.each(named)("%s refuses another site's requests over HTTP and changes nothing", async (name) => {
    const route = stateChanging[named.indexOf(name)]!;
    const before = JSON.stringify(running.sandbox.snapshot());
    for (const attempt of refusals(route, host)) {
      const answer = await sendRaw(running.url, {
        method: route.method,
        path: pathOf(route),
        headers: attempt.headers,
        body: attempt.body,
      });
      expect(answer.status, attempt.name).toBe(attempt.status);
      expect(JSON.parse(answer.body).error.status, attempt.name).toBe(attempt.status);
    }
    expect(JSON.stringify(running.sandbox.snapshot())).toBe(before);
  });

  it.each(named)("%s takes curl's request over HTTP", async (name) => {
    const route = stateChanging[named.indexOf(name)]!;
    const answer = await sendRaw(running.url, {
      method: route.method,
      path: pathOf(route),
      headers: { "content-type": bodyTypesOf(route)[0]! },
    });
    expect([403, 415]).not.toContain(answer.status);
  });

  it("refuses the inspector's hang-up from another site, and takes it from the inspector's own page", async () => {
    const call = running.sandbox.calls.ring({ from: "+15005550006", to: fixtures.acme.mainNumber });
    const path = `/__sandbox/ui/api/calls/${call.sid}/hangup`;
    const own = { "content-type": "application/json" };
    const status = () => running.sandbox.store.calls.get(call.sid)?.status;
    const before = status();
    const attempts: { headers: Record<string, string>; status: number }[] = [
      { headers: { ...own, origin: "https://attacker.example" }, status: 403 },
      { headers: { ...own, "sec-fetch-site": "cross-site" }, status: 403 },
      { headers: { ...own, "sec-fetch-site": "same-site" }, status: 403 },
      { headers: { "content-type": "text/plain" }, status: 415 },
      { headers: { "content-type": "application/x-www-form-urlencoded" }, status: 415 },
      { headers: { "content-type": "multipart/form-data; boundary=b" }, status: 415 },
      { headers: {}, status: 415 },
    ];
    for (const attempt of attempts) {
      const answer = await sendRaw(running.url, { method: "POST", path, headers: attempt.headers });
      expect(answer.status, JSON.stringify(attempt.headers)).toBe(attempt.status);
      expect(JSON.parse(answer.body).error.status).toBe(attempt.status);
    }
    expect(status()).toBe(before);
    // Any other write to the inspector's API meets the same rule before its path is looked up.
    expect(
      (await sendRaw(running.url, { method: "DELETE", path: "/__sandbox/ui/api/overview" })).status,
    ).toBe(415);
    const answer = await sendRaw(running.url, {
      method: "POST",
      path,
      headers: { ...own, origin: `http://${host}`, "sec-fetch-site": "same-origin" },
    });
    expect(answer.status).toBe(200);
    // Not yet answered, so hanging up cancels it.
    expect(JSON.parse(answer.body)).toEqual({ sid: call.sid, status: "canceled" });
    expect(status()).toBe("canceled");
  });
});
