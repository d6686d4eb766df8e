// The inspector's server side over HTTP: its page and files, its reads and hang-up, the live feed, and the admin token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type RunningInspector, startInspector } from "../../src/inspector/index.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { fixtures } from "../support/fixtures.js";
import { getWithHost, sendRaw } from "../support/host-request.js";

const app = "https://app.example.test";
const token = "inspector-admin-token";
const auth = { authorization: `Bearer ${token}` };
/** What the inspector's page sends with a write: its token and a JSON body type, even with no body. */
const write = { ...auth, "content-type": "application/json" };

/** Reads server-sent events from a stream until `wanted` matches one; gives the events seen. */
async function readEvents(response: Response, wanted: (event: string, data: unknown) => boolean) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: { event: string; data: unknown }[] = [];
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return seen;
    buffer += value;
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1] ?? "message";
      const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? "null");
      seen.push({ event, data });
      if (wanted(event, data)) {
        await reader.cancel();
        return seen;
      }
    }
  }
}

describe("the inspector behind an admin token", () => {
  let sandbox: Sandbox;
  let inspector: RunningInspector;
  let base = "";

  /** Back to the fixtures, with Acme's main line answered by the app. */
  const prepare = () => {
    sandbox.reset();
    const line = sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
    sandbox.store.phoneNumbers.replace({ ...line, voice_url: `${app}/voice`, sms_url: `${app}/sms` });
  };

  beforeAll(async () => {
    sandbox = createSandbox({ adminToken: token });
    prepare();
    sandbox.webhooks.register(`${app}/`, (request) =>
      request.url.endsWith("/sms")
        ? "<Response><Message>Thanks</Message></Response>"
        : "<Response><Gather><Say>Hello</Say></Gather></Response>",
    );
    inspector = await startInspector(sandbox);
    base = inspector.url.replace(/\/__sandbox\/ui$/, "");
  });
  afterAll(async () => inspector.close());

  const get = (path: string, headers: Record<string, string> = auth) => fetch(`${base}${path}`, { headers });

  it("serves its page without the token (it holds no data), with a policy that admits only its own files", async () => {
    const page = await get("/__sandbox/ui", {});
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'self'");
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(await page.text()).toContain('<script type="module" src="/__sandbox/ui/assets/app.js">');
    for (const file of [
      "/__sandbox/ui/assets/app.js",
      "/__sandbox/ui/vendor/preact.mjs",
      "/__sandbox/ui/vendor/htm.mjs",
    ]) {
      const asset = await get(file, {});
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get("content-type"), file).toMatch(/javascript/);
    }
    expect((await get("/__sandbox/ui/vendor/lodash.mjs", {})).status).toBe(404);
    // Names of an object's own members are no files either (they once answered 500).
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"])
      expect((await get(`/__sandbox/ui/vendor/${name}`, {})).status, name).toBe(404);
    expect((await get("/__sandbox/ui/assets/../api.ts", {})).status).toBe(404);
  });

  it("answers its reads only to the admin token, in the admin API's error format", async () => {
    const anonymous = await get("/__sandbox/ui/api/overview", {});
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.status).toBe(401);
    expect((await get("/__sandbox/ui/api/overview", { authorization: "Bearer wrong" })).status).toBe(403);
    expect((await get("/__sandbox/ui/api/feed", {})).status).toBe(401);
    const overview = await get("/__sandbox/ui/api/overview");
    expect(overview.status).toBe(200);
    const body = await overview.json();
    expect(body.accounts.map((a: { sid: string }) => a.sid)).toEqual([
      fixtures.acme.sid,
      fixtures.globex.sid,
    ]);
    expect(body.numbers).toContainEqual(
      expect.objectContaining({ number: fixtures.acme.mainNumber, voice_url: `${app}/voice` }),
    );
    expect(body.clock.mode).toBe("virtual");
  });

  it("lists calls newest first, filtered by account and status, and refuses bad filters with a 400", async () => {
    prepare();
    const first = sandbox.calls.ring({ from: "+15005550006", to: fixtures.acme.mainNumber });
    const second = sandbox.calls.ring({ from: "+15005550007", to: fixtures.acme.mainNumber });
    await sandbox.clock.advance(1000);
    const list = await (await get("/__sandbox/ui/api/calls")).json();
    expect(list.calls.map((c: { sid: string }) => c.sid)).toEqual([second.sid, first.sid]);
    expect(list.total).toBe(2);
    const live = await (
      await get(`/__sandbox/ui/api/calls?status=in-progress&account=${fixtures.acme.sid}`)
    ).json();
    expect(live.total).toBe(2);
    expect((await (await get(`/__sandbox/ui/api/calls?account=${fixtures.globex.sid}`)).json()).total).toBe(
      0,
    );
    expect((await (await get("/__sandbox/ui/api/calls?limit=1")).json()).calls).toHaveLength(1);
    for (const query of ["status=talking", "limit=0", "limit=501", "account=acme", "colour=blue"]) {
      const res = await get(`/__sandbox/ui/api/calls?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).error.message, query).toBeTruthy();
    }
  });

  it("searches calls by sid or number and hides those a clear saw, also those of the same millisecond", async () => {
    prepare();
    const first = sandbox.calls.ring({ from: "+15005550006", to: fixtures.acme.mainNumber });
    const second = sandbox.calls.ring({ from: "+15005550007", to: fixtures.acme.mainNumber });
    const sids = async (query: string) => {
      const list = await (await get(`/__sandbox/ui/api/calls?${query}`)).json();
      return { sids: list.calls.map((c: { sid: string }) => c.sid), total: list.total, mark: list.mark };
    };
    expect(await sids(`q=${first.sid}`)).toMatchObject({ sids: [first.sid], total: 1 });
    expect(await sids(`q=${encodeURIComponent("+15005550007")}`)).toMatchObject({ sids: [second.sid] });
    // A number calls come to finds them as one that calls go from does.
    expect((await sids(`q=${encodeURIComponent(fixtures.acme.mainNumber)}`)).sids).toEqual([
      second.sid,
      first.sid,
    ]);
    expect(await sids(`q=${encodeURIComponent("+19995550000")}`)).toMatchObject({ sids: [], total: 0 });
    expect((await sids(`q=${encodeURIComponent("+15005550006")}&status=completed`)).sids).toEqual([]);

    // The clock stands still: a call rung after the clear shares the millisecond of those it hides.
    const { mark } = await sids("");
    expect(mark).toEqual({ at: sandbox.clock.now(), sids: [second.sid, first.sid] });
    const hide = `since=${mark.at}&hide=${mark.sids.join(",")}`;
    expect(await sids(hide)).toMatchObject({ sids: [], total: 0 });
    const third = sandbox.calls.ring({ from: "+15005550008", to: fixtures.acme.mainNumber });
    expect(await sids(hide)).toMatchObject({ sids: [third.sid], total: 1 });
    await sandbox.clock.advance(1000);
    const fourth = sandbox.calls.ring({ from: "+15005550009", to: fixtures.acme.mainNumber });
    expect((await sids(hide)).sids).toEqual([fourth.sid, third.sid]);
    expect((await sids(`${hide}&q=${encodeURIComponent("+15005550006")}`)).sids).toEqual([]);
    for (const query of [
      "since=-1",
      "since=soon",
      "hide=CA1",
      `hide=${"x".repeat(40)}`,
      `q=${"9".repeat(201)}`,
    ]) {
      const res = await get(`/__sandbox/ui/api/calls?${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it("searches conversations by number, sid and status, and hides the messages a clear saw", async () => {
    prepare();
    const hello = sandbox.calls.messages.receive({
      from: "+15005550006",
      to: fixtures.acme.mainNumber,
      body: "hello",
    });
    sandbox.calls.messages.receive({ from: "+15005550007", to: fixtures.acme.mainNumber, body: "other" });
    await sandbox.clock.advance(2000);
    await sandbox.settle();
    const read = async (query: string) => (await get(`/__sandbox/ui/api/conversations?${query}`)).json();
    const byNumber = await read(`q=${encodeURIComponent("+15005550007")}`);
    expect(byNumber.conversations.map((c: { numbers: string[] }) => c.numbers)).toEqual([
      ["+14155550100", "+15005550007"],
    ]);
    expect(byNumber.messages.map((m: { body: string }) => m.body)).toEqual(["other", "Thanks"]);
    expect((await read(`q=${hello.sid}`)).messages.map((m: { body: string }) => m.body)).toEqual(["hello"]);
    expect(
      (await read("status=received")).messages.every((m: { status: string }) => m.status === "received"),
    ).toBe(true);
    expect((await read("status=failed")).conversations).toEqual([]);
    const { mark } = await read("");
    const cleared = await read(`since=${mark.at}&hide=${mark.sids.join(",")}`);
    expect(cleared.conversations).toEqual([]);
    sandbox.calls.messages.receive({ from: "+15005550006", to: fixtures.acme.mainNumber, body: "again" });
    const after = await read(`since=${mark.at}&hide=${mark.sids.join(",")}`);
    expect(after.messages.map((m: { body: string }) => m.body)).toEqual(["again"]);
    expect(after.conversations[0].count).toBe(1);
    expect((await get("/__sandbox/ui/api/conversations?status=lost")).status).toBe(400);
  });

  it("describes one call (timeline, what was heard, markup fetched) and hangs it up", async () => {
    prepare();
    const call = sandbox.calls.ring({ from: "+15005550006", to: fixtures.acme.mainNumber });
    await sandbox.clock.advance(1000);
    const page = await (await get(`/__sandbox/ui/api/calls/${call.sid}`)).json();
    expect(page.call).toMatchObject({ sid: call.sid, status: "in-progress" });
    expect(page.timeline.map((e: { kind: string }) => e.kind)).toContain("markup.request");
    expect(page.heard).toContainEqual(expect.objectContaining({ kind: "say", text: "Hello" }));
    expect(page.webhooks).toContainEqual(
      expect.objectContaining({
        kind: "voice-markup",
        url: `${app}/voice`,
        response_body: expect.stringContaining("<Say>Hello</Say>"),
      }),
    );
    expect(page.charges[0]).toMatchObject({ item: "call", sid: call.sid });

    const hangup = await fetch(`${base}/__sandbox/ui/api/calls/${call.sid}/hangup`, {
      method: "POST",
      headers: write,
    });
    expect(hangup.status).toBe(200);
    expect(await hangup.json()).toEqual({ sid: call.sid, status: "completed" });
    expect(sandbox.store.calls.get(call.sid)?.status).toBe("completed");

    const unknown = "CA00000000000000000000000000000000";
    expect((await get(`/__sandbox/ui/api/calls/${unknown}`)).status).toBe(404);
    expect(
      (await fetch(`${base}/__sandbox/ui/api/calls/${unknown}/hangup`, { method: "POST", headers: write }))
        .status,
    ).toBe(404);
    expect((await get(`/__sandbox/ui/api/calls/${call.sid}/hangup`)).status).toBe(404);
  });

  it("hangs up nothing for another site's page, nor for a write without a JSON body type", async () => {
    prepare();
    const call = sandbox.calls.ring({ from: "+15005550006", to: fixtures.acme.mainNumber });
    await sandbox.clock.advance(1000);
    const path = `/__sandbox/ui/api/calls/${call.sid}/hangup`;
    for (const [headers, status] of [
      [{ ...write, origin: "https://attacker.example" }, 403],
      [{ ...write, "sec-fetch-site": "cross-site" }, 403],
      [{ ...auth, "content-type": "text/plain" }, 415],
      [auth, 415],
    ] as const) {
      const answer = await sendRaw(base, { method: "POST", path, headers, body: "" });
      expect(answer.status, JSON.stringify(headers)).toBe(status);
      expect(JSON.parse(answer.body).error.status).toBe(status);
    }
    // Checked before the token: a page holding none learns nothing more than a 403.
    const tokenless = await sendRaw(base, {
      method: "POST",
      path,
      headers: { origin: "https://attacker.example" },
    });
    expect(tokenless.status).toBe(403);
    expect(sandbox.store.calls.get(call.sid)?.status).toBe("in-progress");
    // The admin API behind the same listener follows the same rule.
    const reset = await sendRaw(base, {
      method: "POST",
      path: "/__sandbox/reset",
      headers: { ...auth, "content-type": "text/plain" },
      body: "{}",
    });
    expect(reset.status).toBe(415);
    expect(sandbox.store.calls.get(call.sid)?.status).toBe("in-progress");
  });

  it("groups messages into one conversation per pair of numbers, oldest first inside it", async () => {
    prepare();
    sandbox.calls.messages.receive({ from: "+15005550006", to: fixtures.acme.mainNumber, body: "hi" });
    sandbox.calls.messages.receive({ from: "+15005550009", to: fixtures.acme.mainNumber, body: "other" });
    await sandbox.clock.advance(2000);
    await sandbox.settle();
    const thread = ["+15005550006", fixtures.acme.mainNumber].sort().join(" ");
    const body = await (
      await get(`/__sandbox/ui/api/conversations?thread=${encodeURIComponent(thread)}`)
    ).json();
    expect(body.conversations).toHaveLength(2);
    expect(body.conversations.find((c: { thread: string }) => c.thread === thread).count).toBe(2);
    expect(body.messages.map((m: { body: string }) => m.body)).toEqual(["hi", "Thanks"]);
  });

  it("streams a change naming the call when the engine moves it, and a webhooks event after a delivery", async () => {
    prepare();
    const feed = await get("/__sandbox/ui/api/feed");
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toMatch(/^text\/event-stream/);
    let sid = "";
    const events = readEvents(
      feed,
      (event, data) => event === "change" && (data as { sids: string[] }).sids.includes(sid),
    );
    // The feed is attached once its first frame is out; wait for the server to count it.
    while (inspector.feedClients() === 0) await new Promise((resolve) => setImmediate(resolve));
    sid = sandbox.calls.ring({ from: "+15005550006", to: fixtures.acme.mainNumber }).sid;
    const seen = await events;
    expect(seen[0]!.event).toBe("ready");
    expect(seen.at(-1)!.data).toMatchObject({ tables: expect.arrayContaining(["calls"]) });

    const again = await get("/__sandbox/ui/api/feed");
    const hooks = readEvents(again, (event) => event === "webhooks");
    while (inspector.feedClients() === 0) await new Promise((resolve) => setImmediate(resolve));
    await sandbox.clock.advance(1000);
    expect((await hooks).at(-1)!.event).toBe("webhooks");
  });
});

describe("the inspector's listener", () => {
  it("refuses an address beyond loopback without an admin token", async () => {
    await expect(startInspector(createSandbox(), { host: "0.0.0.0" })).rejects.toThrow(/admin token/);
  });

  it("answers reads, the feed and the admin API only for Host names a rebinding page cannot use", async () => {
    const inspector = await startInspector(createSandbox());
    try {
      for (const path of ["/__sandbox/ui/api/overview", "/__sandbox/ui/api/feed", "/__sandbox/clock"]) {
        const foreign = await getWithHost(inspector.url, path, "attacker.example:80");
        expect(foreign.status, path).toBe(403);
        expect(JSON.parse(foreign.body).error.message, path).toContain("Host");
      }
      expect((await getWithHost(inspector.url, "/__sandbox/ui/api/overview", "localhost")).status).toBe(200);
      // The page holds no data: served whatever the Host.
      expect((await getWithHost(inspector.url, "/__sandbox/ui", "attacker.example")).status).toBe(200);
    } finally {
      await inspector.close();
    }
  });
});

describe("the inspector on the standalone server", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve({ port: 0 });
  });
  afterAll(async () => running.close());

  it("is linked from the landing page for browsers and listed in its plain text", async () => {
    const html = await fetch(`${running.url}/`, { headers: { accept: "text/html" } });
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await html.text()).toContain('<a href="/__sandbox/ui">/__sandbox/ui</a>');
    const text = await fetch(`${running.url}/`);
    expect(text.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await text.text()).toMatch(/^Inspector: +\/__sandbox\/ui/m);
  });

  it("serves the page and the reads beside the API", async () => {
    expect((await fetch(`${running.url}/__sandbox/ui`)).status).toBe(200);
    const overview = await (await fetch(`${running.url}/__sandbox/ui/api/overview`)).json();
    expect(overview.clock.mode).toBe("real");
    expect((await fetch(`${running.url}/__sandbox/ui/api/nothing`)).status).toBe(404);
  });
});
