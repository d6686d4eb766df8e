// Real clock: media streams' sockets live on frame sender threads; frames leave in order, on their chunks, behind nothing.
import { afterEach, describe, expect, it } from "vitest";
import { defaultSenderThreads, sharedFrameSenders } from "../../src/engine/media-streams/frame-senders.js";
import { createSandbox } from "../../src/index.js";
import { codeFile } from "../../src/package-files.js";
import { type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { callee, placeWithTwiml } from "../support/stream-world.js";

const senders = () =>
  sharedFrameSenders(codeFile("engine", "media-streams", "frame-sender.worker.mjs"), defaultSenderThreads());
const waitReal = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Sockets the shared sender threads hold now. */
const heldBySenders = () =>
  senders()
    .load()
    .reduce((a, b) => a + b, 0);
/** A call's markup: a `<Start><Stream>` to each URL given (with its track, if any), then 3 s of pause. */
const streamsThenPause = (...streams: [url: string, track?: string][]) =>
  `<Response>${streams
    .map(([url, track]) => `<Start><Stream url="${url}"${track ? ` track="${track}"` : ""}/></Start>`)
    .join("")}<Pause length="3"/></Response>`;

describe("frame sender threads", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A real-clock call whose `<Start><Stream>` runs about a second; what the app got, and the call's timeline. */
  async function streamedCall(senderThreads?: number, line?: { jitter: string; seed: number }) {
    const app = await startStreamApp();
    cleanups.push(() => app.close());
    const sandbox = createSandbox({
      clock: "real",
      ...(senderThreads === undefined ? {} : { streams: { senderThreads } }),
    });
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(callee, {
      ringAfter: 0,
      answerAfter: 0,
      hangupAfter: "1200ms",
      steps: [{ say: "hello there", after: "200ms", for: "600ms" }],
      ...(line ? { line } : {}),
    });
    const sid = await placeWithTwiml(sandbox, callee, streamsThenPause([app.url()]));
    let held = 0;
    for (let i = 0; i < 100 && app.connections.length === 0; i++) await waitReal(20);
    await waitReal(300);
    held = heldBySenders();
    for (let i = 0; i < 200 && !sandbox.calls.timeline(sid).some((e) => e.kind === "stream.ended"); i++)
      await waitReal(20);
    await waitReal(200);
    return { all: app.messages(), media: app.messages("media"), timeline: sandbox.calls.timeline(sid), held };
  }

  /** Frames come chunk after chunk, sequence numbers one apart from `start` on, each timestamp on its chunk. */
  function expectInOrder(all: StreamMessage[]) {
    expect(all.map((m) => m.event).filter((e, i, list) => list[i - 1] !== e)).toEqual([
      "connected",
      "start",
      "media",
      "stop",
    ]);
    const sequenced = all.filter((m) => m.sequenceNumber !== undefined);
    expect(sequenced.map((m) => Number(m.sequenceNumber))).toEqual(sequenced.map((_, i) => i + 1));
    const media = all.filter((m) => m.event === "media");
    expect(media.map((m) => [m.media.chunk, m.media.timestamp])).toEqual(
      media.map((_, i) => [String(i + 1), String(i * 20)]),
    );
  }

  it("hold the socket by default: frames arrive in order on their chunks and timestamps, stop after the last", async () => {
    const { all, media, timeline, held } = await streamedCall();
    expect(held).toBeGreaterThan(0);
    expect(media.length).toBeGreaterThan(25);
    expectInOrder(all);
    const ended = timeline.find((e) => e.kind === "stream.ended")!;
    expect(ended.detail.lateFrames).toEqual(expect.any(Number));
    expect(ended.detail.sent).toEqual(["connected", "start", "media", "stop"]);
  });

  it("the frames, the timeline and the callbacks' order are the same as when the main thread sends them", async () => {
    const threaded = await streamedCall();
    const here = await streamedCall(0);
    expect(here.held).toBe(0);
    expectInOrder(here.all);
    // The same audio on the same chunks (the real clock may end either call a frame or two apart).
    const frames = Math.min(threaded.media.length, here.media.length) - 2;
    expect(frames).toBeGreaterThan(25);
    const shape = (m: StreamMessage) => [m.sequenceNumber, m.media.chunk, m.media.timestamp, m.media.payload];
    expect(threaded.media.slice(0, frames).map(shape)).toEqual(here.media.slice(0, frames).map(shape));
    const kinds = (timeline: { kind: string }[]) => timeline.map((e) => e.kind);
    expect(kinds(threaded.timeline)).toEqual(kinds(here.timeline));
  });

  it("a jittered line's frames leave later but in order, their timestamps unchanged", async () => {
    const { all, media } = await streamedCall(undefined, { jitter: "60ms", seed: 5 });
    expect(media.length).toBeGreaterThan(30);
    expectInOrder(all);
  });

  it("a clock switched to real after virtual time ran ahead of the wall still sends every frame on time, and stop", async () => {
    const app = await startStreamApp();
    cleanups.push(() => app.close());
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.reset());
    await sandbox.clock.advance(3_600_000);
    sandbox.clock.switchTo("real");
    cleanups.push(() => sandbox.clock.switchTo("virtual"));
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0, hangupAfter: "800ms" });
    // A fragment never reaches a WebSocket server (and ws refuses one): the stream goes to the URL without it.
    const sid = await placeWithTwiml(sandbox, callee, streamsThenPause([`${app.url()}#agent`]));
    for (let i = 0; i < 150 && app.messages("stop").length === 0; i++) await waitReal(20);
    expect(app.connections[0]!.request.url).toBe("/media");
    expect(app.messages("media").length).toBeGreaterThan(20);
    expect(app.messages("stop")).toHaveLength(1);
    expectInOrder(app.messages());
    expect(sandbox.calls.timeline(sid).some((e) => e.kind === "stream.ended")).toBe(true);
  });

  it("a stream opened on the virtual clock stays on the main thread after a switch to real, its frames in order to stop", async () => {
    const app = await startStreamApp();
    cleanups.push(() => app.close());
    // Started on the real clock, so virtual time runs from the wall's: the switch back leaps at most by the
    // real time the setup took beyond the 400 ms advanced.
    const sandbox = createSandbox({ clock: "real" });
    cleanups.push(() => sandbox.reset());
    sandbox.clock.switchTo("virtual");
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0, hangupAfter: "1500ms" });
    const sid = await placeWithTwiml(sandbox, callee, streamsThenPause([app.url()]));
    await sandbox.clock.advance(400);
    await sandbox.settle();
    const beforeSwitch = app.messages("media").length;
    expect(beforeSwitch).toBeGreaterThan(5);
    sandbox.clock.switchTo("real");
    cleanups.push(() => sandbox.clock.switchTo("virtual"));
    for (let i = 0; i < 50 && app.messages("media").length <= beforeSwitch; i++) await waitReal(20);
    const held = heldBySenders();
    for (let i = 0; i < 150 && app.messages("stop").length === 0; i++) await waitReal(20);
    expect(held).toBe(0);
    expect(app.connections).toHaveLength(1);
    expect(app.messages("media").length).toBeGreaterThan(beforeSwitch + 20);
    expect(app.messages("stop")).toHaveLength(1);
    expectInOrder(app.messages());
    const ended = sandbox.calls.timeline(sid).find((e) => e.kind === "stream.ended")!;
    expect(ended.detail.sent).toEqual(["connected", "start", "media", "stop"]);
  });

  it("a stream on a sender switched to the virtual clock stays there, its frames in order as virtual time runs", async () => {
    const app = await startStreamApp();
    cleanups.push(() => app.close());
    const sandbox = createSandbox({ clock: "real" });
    cleanups.push(() => sandbox.reset());
    cleanups.push(() => sandbox.clock.switchTo("virtual"));
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0, hangupAfter: "2s" });
    const sid = await placeWithTwiml(sandbox, callee, streamsThenPause([app.url()]));
    for (let i = 0; i < 100 && app.messages("media").length === 0; i++) await waitReal(20);
    expect(heldBySenders()).toBe(1);
    sandbox.clock.switchTo("virtual");
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    for (let i = 0; i < 100 && app.messages("stop").length === 0; i++) await waitReal(20);
    expect(app.connections).toHaveLength(1);
    expect(app.messages("stop")).toHaveLength(1);
    expectInOrder(app.messages());
    const ended = sandbox.calls.timeline(sid).find((e) => e.kind === "stream.ended")!;
    // Two seconds of frames, the real ones and those virtual time ran through, each on its chunk.
    expect(app.messages("media").length).toBeGreaterThanOrEqual(80);
    expect(ended.detail.chunks).toBe(app.messages("media").length);
  });

  /**
   * Main thread only: an inbound and a both_tracks stream of one call, started at the same instant, so their
   * frames fall due together; the main thread held 300 ms once both flow. Each stream's late frames, by track.
   */
  async function lateAfterHold(line?: { drop: number }) {
    const app = await startStreamApp();
    cleanups.push(() => app.close());
    const sandbox = createSandbox({ clock: "real", streams: { senderThreads: 0 } });
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(callee, {
      ringAfter: 0,
      answerAfter: 0,
      hangupAfter: "1200ms",
      ...(line ? { line } : {}),
    });
    const sid = await placeWithTwiml(
      sandbox,
      callee,
      streamsThenPause([app.url(), "inbound_track"], [app.url(), "both_tracks"]),
    );
    const started = () =>
      app.connections.length === 2 && app.connections.every((c) => c.messages.length >= 2);
    for (let i = 0; i < 100 && !started(); i++) await waitReal(20);
    await waitReal(100);
    expect(started()).toBe(true);
    const until = Date.now() + 300;
    while (Date.now() < until) {
      // Busy: no timer runs, so the frames due meanwhile leave that late.
    }
    const entries = (kind: string) => sandbox.calls.timeline(sid).filter((e) => e.kind === kind);
    for (let i = 0; i < 200 && entries("stream.ended").length < 2; i++) await waitReal(20);
    const trackOf = new Map(entries("stream.started").map((e) => [e.detail.sid, e.detail.track]));
    const late = new Map(
      entries("stream.ended").map((e) => [trackOf.get(e.detail.sid), e.detail.lateFrames]),
    );
    return { one: late.get("inbound_track") as number, both: late.get("both_tracks") as number };
  }

  it("late frames count each track's frame, on the main thread as on a sender: a tick of both tracks counts two", async () => {
    const { one, both } = await lateAfterHold();
    expect(one).toBeGreaterThanOrEqual(10);
    // The same ticks were late on both; the tick at the hold's edge may count on one stream and not the other.
    expect(Math.abs(both - 2 * one)).toBeLessThanOrEqual(2);
    expect(both % 2).toBe(0);
  });

  it("a frame the line lost is not counted late: it never left", async () => {
    const { one, both } = await lateAfterHold({ drop: 1 });
    expect(one).toBe(0);
    expect(both).toBeGreaterThanOrEqual(10);
  });

  it("a sender thread that stops closes its streams as broken (31903), and the next stream starts another", async () => {
    const app = await startStreamApp();
    cleanups.push(() => app.close());
    const sandbox = createSandbox({ clock: "real" });
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0, hangupAfter: "3s" });
    const twiml = `<Response><Connect><Stream url="${app.url()}"/></Connect></Response>`;
    const first = await placeWithTwiml(sandbox, callee, twiml);
    for (let i = 0; i < 100 && app.messages("media").length === 0; i++) await waitReal(20);
    await senders().close();
    for (let i = 0; i < 100 && !sandbox.calls.timeline(first).some((e) => e.kind === "stream.ended"); i++)
      await waitReal(20);
    const closed = sandbox.calls.timeline(first).find((e) => e.kind === "stream.closed")!;
    expect(closed.detail.code).toBe(1006);
    expect(sandbox.calls.alerts(first).map((a) => a.code)).toContain(31903);
    const second = await placeWithTwiml(sandbox, callee, twiml);
    for (let i = 0; i < 100 && app.connections.length < 2; i++) await waitReal(20);
    await waitReal(200);
    expect(app.connections[1]!.messages.filter((m) => m.event === "media").length).toBeGreaterThan(3);
    expect(heldBySenders()).toBe(1);
    await sandbox.calls.hangup(second);
  });
});
