// The inspector's read of a call's agent turns over HTTP: the turns and their figures, its checks, and the feed's timeline event.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type RunningInspector, startInspector } from "../../src/inspector/index.js";
import { placeWithTwiml } from "../support/stream-world.js";
import { type StreamAgent, startRelayAgent, startStreamAgent } from "../support/voice-agent-apps.js";

const token = "turns-admin-token";
const auth = { authorization: `Bearer ${token}` };
const callee = "+14155550123";

describe("the inspector's turns read", () => {
  let sandbox: Sandbox;
  let agent: StreamAgent;
  let inspector: RunningInspector;
  let base = "";
  let sid = "";
  const get = (path: string, headers: Record<string, string> = auth) => fetch(`${base}${path}`, { headers });

  beforeAll(async () => {
    sandbox = createSandbox({ adminToken: token });
    agent = await startStreamAgent({ leadInFrames: 10 });
    inspector = await startInspector(sandbox);
    base = inspector.url.replace(/\/__sandbox\/ui$/, "");
    sandbox.calls.setParty(callee, {
      ringAfter: 0,
      answerAfter: 0,
      steps: [{ say: "hello there", for: "1s" }, { say: "thanks", for: "500ms" }, { hangup: true }],
    });
  });
  afterAll(async () => {
    await inspector.close();
    await agent.close();
  });

  it("names the call in a timeline event as its turns are written, then lists them with the call's figures", async () => {
    sid = await placeWithTwiml(
      sandbox,
      callee,
      `<Response><Connect><Stream url="${agent.url()}"/></Connect></Response>`,
    );
    const feed = await get("/__sandbox/ui/api/feed");
    const reader = feed.body!.pipeThrough(new TextDecoderStream()).getReader();
    while (inspector.feedClients() === 0) await new Promise((resolve) => setImmediate(resolve));
    const run = sandbox.clock.runUntilIdle();
    let text = "";
    while (!/event: timeline\ndata: \{"sids":\["CA/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    await reader.cancel();
    await run;
    await sandbox.settle();
    expect(text).toContain(`"sids":["${sid}"]`);

    const res = await get(`/__sandbox/ui/api/calls/${sid}/turns`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ call_sid: sid, agent: true, total: 2 });
    expect(body.turns.map((t: { n: number; said: string }) => [t.n, t.said])).toEqual([
      [1, "hello there"],
      [2, "thanks"],
    ]);
    expect(body.metrics).toMatchObject({ turns: 2, responseMs: { p50: 220, p95: 220 } });
    // The figures stay over every turn when fewer are listed.
    const one = await (await get(`/__sandbox/ui/api/calls/${sid}/turns?limit=1`)).json();
    expect(one.turns).toHaveLength(1);
    expect(one).toMatchObject({ total: 2, metrics: { turns: 2 } });
  });

  it("lists a ConversationRelay call's turns too, the caller's words from the timeline", async () => {
    const relay = await startRelayAgent();
    try {
      sandbox.calls.setParty(callee, {
        ringAfter: 0,
        answerAfter: 0,
        steps: [{ say: "what time is it", for: "1s" }, { hangup: true }],
      });
      const relaySid = await placeWithTwiml(
        sandbox,
        callee,
        `<Response><Connect><ConversationRelay url="${relay.url()}"/></Connect></Response>`,
      );
      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
      const body = await (await get(`/__sandbox/ui/api/calls/${relaySid}/turns`)).json();
      expect(body).toMatchObject({ agent: true, total: 1 });
      expect(body.turns[0]).toMatchObject({ n: 1, by: "speech", said: "what time is it", answered: true });
    } finally {
      await relay.close();
    }
  });

  it("refuses bad input with the admin API's errors", async () => {
    for (const query of ["limit=0", "limit=1001", "limit=two", "since=5"]) {
      const res = await get(`/__sandbox/ui/api/calls/${sid}/turns?${query}`);
      expect(res.status, query).toBe(400);
      const { error } = await res.json();
      expect(error.message, query).toBeTruthy();
      if (query.startsWith("limit")) expect(JSON.stringify(error), query).toContain('"limit"');
    }
    expect((await get(`/__sandbox/ui/api/calls/CA${"0".repeat(32)}/turns`)).status).toBe(404);
    expect((await get(`/__sandbox/ui/api/calls/CAnot-a-sid/turns`)).status).toBe(404);
    expect((await get(`/__sandbox/ui/api/calls/${sid}/turns`, {})).status).toBe(401);
    const post = await fetch(`${base}/__sandbox/ui/api/calls/${sid}/turns`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
    });
    expect(post.status).toBe(404);
  });
});
