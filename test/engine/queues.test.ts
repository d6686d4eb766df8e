// Queues: Enqueue with wait markup, an agent's Dial to the Queue bridging the front caller, queue-full, Leave, API dequeue.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const first = "+14155550301";
const second = "+14155550302";
const agent = "+14155550399";

describe("queues", () => {
  const h = useEngine();
  const client = () => h.door.twilioClient();
  const ring = (from: string, caller: Record<string, unknown> = {}) =>
    h.door.sandbox.calls.ring({ from, to: fixtures.acme.mainNumber, caller }).sid;
  /** Callers are enqueued in "support"; the agent's number dials the queue. */
  const callCenter = (enqueueAttrs: Record<string, unknown> = {}) => {
    h.app.on("/voice", (params) => {
      const r = new VoiceResponse();
      if (params.From === agent) {
        r.dial({ action: "/agent-done" }).queue({ url: "/whisper" }, "support");
      } else {
        r.enqueue({ action: "/queued", waitUrl: "/hold", ...enqueueAttrs }, "support");
      }
      return r.toString();
    });
    h.app.on("/queued", new VoiceResponse().toString());
    h.app.on("/agent-done", new VoiceResponse().toString());
  };

  it("callers wait with QueuePosition; an agent dials the queue, the front caller hears the url, and they are bridged", async () => {
    await h.routeMainNumber("/voice");
    callCenter();
    const hold = new VoiceResponse();
    hold.say("All our agents are busy");
    h.app.on("/hold", hold.toString());
    const whisper = new VoiceResponse();
    whisper.say("Connecting you to an agent");
    h.app.on("/whisper", whisper.toString());
    const one = ring(first);
    const two = ring(second, { hangupAfter: "2m" });
    await h.door.sandbox.clock.advance(10_000);
    await h.door.sandbox.settle();

    const holds = h.app.received("/hold").map((r) => r.params);
    const twoHold = holds.find((p) => p.CallSid === two)!;
    expect(twoHold).toMatchObject({ QueuePosition: "2", CurrentQueueSize: "2", MaxQueueSize: "100" });
    expect(twoHold.QueueSid).toMatch(/^QU[0-9a-f]{32}$/);
    expect(Number(holds.filter((p) => p.CallSid === one).at(-1)!.QueueTime)).toBeGreaterThan(0);
    const queue = await client().queues(twoHold.QueueSid!).fetch();
    expect(queue).toMatchObject({ friendlyName: "support", currentSize: 2, maxSize: 100 });
    const members = await client().queues(queue.sid).members.list();
    expect(members.map((m) => [m.callSid, m.position])).toEqual([
      [one, 1],
      [two, 2],
    ]);

    const a = ring(agent);
    await h.run();
    // The front caller was taken: the Queue noun's url ran on it, with the dequeuing call's sid.
    expect(h.app.received("/whisper")[0]!.params).toMatchObject({ CallSid: one, DequeingCallSid: a });
    expect(h.door.sandbox.calls.heard(one).at(-1)).toMatchObject({ text: "Connecting you to an agent" });
    // Unscripted, they talk (agent first) and the caller hangs up 60 s into the bridge.
    const agentDone = h.app.received("/agent-done")[0]!.params;
    expect(agentDone).toMatchObject({
      CallSid: a,
      DialCallStatus: "completed",
      DialCallSid: one,
      DialCallDuration: "60",
      QueueSid: queue.sid,
    });
    const queued = h.app.received("/queued").map((r) => r.params);
    expect(queued.map((p) => [p.CallSid, p.QueueResult, p.QueueSid])).toEqual([
      [one, "bridged", queue.sid],
      [two, "hangup", queue.sid],
    ]);
    expect(Number(queued[0]!.QueueTime)).toBeGreaterThanOrEqual(10);
    expect(queued[1]!.QueueTime).toBe("120");
    expect((await client().queues(queue.sid).fetch()).currentSize).toBe(0);
    // Carrier events for joins and leaves.
    const types = h.door.sandbox.store.events.all().map((e) => e.type);
    expect(types.filter((t) => t.startsWith("queue."))).toEqual([
      "queue.created",
      "queue.joined",
      "queue.joined",
      "queue.dequeued",
      "queue.left",
    ]);
  });

  it("an agent dialling an empty queue waits for the next caller (up to the Dial timeout); an unknown queue fails", async () => {
    await client().queues.create({ friendlyName: "support" });
    await h.routeMainNumber("/voice");
    callCenter({ waitUrl: "" });
    h.app.on("/whisper", new VoiceResponse().toString());
    const a = ring(agent);
    await h.door.sandbox.clock.advance(10_000);
    await h.door.sandbox.settle();
    const one = ring(first, { hangupAfter: "30s" });
    await h.run();
    expect(h.app.received("/agent-done")[0]!.params).toMatchObject({
      CallSid: a,
      DialCallStatus: "completed",
      DialCallSid: one,
      DialCallDuration: "30",
    });
    expect(h.app.received("/queued")[0]!.params).toMatchObject({ QueueResult: "bridged", QueueTime: "0" });

    // Nobody comes within the timeout: no-answer.
    h.app.clear();
    callCenter();
    const b = ring(agent);
    await h.run();
    expect(h.app.received("/agent-done")[0]!.params).toMatchObject({
      CallSid: b,
      DialCallStatus: "no-answer",
    });
    expect(h.door.sandbox.store.calls.get(b)!.duration).toBe(30);

    // No queue of that name: failed at once.
    h.app.clear();
    h.app.on("/voice", () => {
      const r = new VoiceResponse();
      r.dial({ action: "/agent-done" }).queue("nowhere");
      return r.toString();
    });
    h.app.on("/agent-done", new VoiceResponse().toString());
    const c = ring(agent);
    await h.run();
    expect(h.app.received("/agent-done")[0]!.params).toMatchObject({ CallSid: c, DialCallStatus: "failed" });
  });

  it("a full queue sends the caller to the action with QueueResult=queue-full", async () => {
    await client().queues.create({ friendlyName: "support", maxSize: 1 });
    await h.routeMainNumber("/voice");
    callCenter({ waitUrl: "" });
    h.app.on("/queued", (params) => {
      const r = new VoiceResponse();
      if (params.QueueResult === "queue-full") r.say("Please call back later");
      return r.toString();
    });
    ring(first, { hangupAfter: "30s" });
    const two = ring(second);
    await h.run();
    const full = h.app.received("/queued").find((r) => r.params.CallSid === two)!.params;
    expect(full).toMatchObject({ QueueResult: "queue-full", QueueTime: "0" });
    expect(h.door.sandbox.calls.heard(two).map((e) => e.text)).toEqual(["Please call back later"]);
  });

  it("<Leave> in the wait markup takes the caller out of the queue to the action", async () => {
    await h.routeMainNumber("/voice");
    callCenter();
    h.app.on("/hold", (params) => {
      const r = new VoiceResponse();
      r.say(`You are number ${params.QueuePosition}`);
      if (Number(params.QueueTime) >= 5) r.leave();
      return r.toString();
    });
    h.app.on("/queued", (params) => {
      const r = new VoiceResponse();
      r.say(`Result ${params.QueueResult}`);
      return r.toString();
    });
    const one = ring(first);
    await h.run();
    const left = h.app.received("/queued")[0]!.params;
    expect(left.QueueResult).toBe("leave");
    expect(Number(left.QueueTime)).toBeGreaterThanOrEqual(5);
    expect(h.door.sandbox.calls.heard(one).at(-1)!.text).toBe("Result leave");
    expect(h.door.sandbox.store.calls.get(one)!.status).toBe("completed");
  });

  it("POST Members/Front with a Url dequeues the front caller to that markup; a queue with callers cannot be deleted", async () => {
    await h.routeMainNumber("/voice");
    callCenter({ waitUrl: "" });
    const out = new VoiceResponse();
    out.say("You were picked");
    h.app.on("/picked", out.toString());
    const one = ring(first);
    const two = ring(second, { hangupAfter: "1m" });
    await h.door.sandbox.clock.advance(5000);
    await h.door.sandbox.settle();
    const [queue] = await client().queues.list();

    const before = JSON.stringify(h.door.sandbox.snapshot());
    const auth = { basic: [fixtures.acme.sid, fixtures.acme.authToken] as [string, string] };
    const refused = await h.door.call(
      "DELETE",
      `/2010-04-01/Accounts/${fixtures.acme.sid}/Queues/${queue!.sid}.json`,
      { auth },
    );
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe(20009);
    const noUrl = await h.door.call(
      "POST",
      `/2010-04-01/Accounts/${fixtures.acme.sid}/Queues/${queue!.sid}/Members/Front.json`,
      { auth, form: { Url: "not a url" } },
    );
    expect(noUrl.status).toBe(400);
    expect(JSON.stringify(h.door.sandbox.snapshot())).toBe(before);

    const front = await client().queues(queue!.sid).members("Front").fetch();
    expect(front).toMatchObject({ callSid: one, position: 1, waitTime: 5 });
    await client()
      .queues(queue!.sid)
      .members("Front")
      .update({ url: h.app.url("/picked"), method: "POST" });
    expect((await client().queues(queue!.sid).members.list()).map((m) => [m.callSid, m.position])).toEqual([
      [two, 1],
    ]);
    await h.run();
    expect(h.app.received("/picked")[0]!.params.CallSid).toBe(one);
    expect(h.door.sandbox.calls.heard(one).at(-1)!.text).toBe("You were picked");
    const results = h.app.received("/queued").map((r) => [r.params.CallSid, r.params.QueueResult]);
    expect(results).toEqual([
      [one, "redirected"],
      [two, "hangup"],
    ]);
    await client().queues(queue!.sid).remove();
    expect(await client().queues.list()).toEqual([]);
  });

  it("REST: create, list, fetch, update and refuse bad input without changing anything", async () => {
    const created = await client().queues.create({ friendlyName: "sales" });
    expect(created).toMatchObject({
      friendlyName: "sales",
      maxSize: 100,
      currentSize: 0,
      averageWaitTime: 0,
    });
    const updated = await client().queues(created.sid).update({ maxSize: 20, friendlyName: "sales-emea" });
    expect(updated).toMatchObject({ friendlyName: "sales-emea", maxSize: 20 });
    expect((await client().queues.list()).map((q) => q.sid)).toEqual([created.sid]);
    const before = JSON.stringify(h.door.sandbox.snapshot());
    const auth = { basic: [fixtures.acme.sid, fixtures.acme.authToken] as [string, string] };
    const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/Queues`;
    const bad: Record<string, string>[] = [
      { FriendlyName: "sales-emea" },
      { FriendlyName: "x", MaxSize: "0" },
      {},
    ];
    for (const form of bad) {
      const res = await h.door.call("POST", `${base}.json`, { auth, form });
      expect(res.status).toBe(400);
    }
    expect((await h.door.call("GET", `${base}/QU${"0".repeat(32)}.json`, { auth })).status).toBe(404);
    expect(
      (await h.door.call("GET", `${base}/${created.sid}/Members/CA${"0".repeat(32)}.json`, { auth })).status,
    ).toBe(404);
    expect(JSON.stringify(h.door.sandbox.snapshot())).toBe(before);
  });
});
