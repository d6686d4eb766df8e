// Media floods against the budget every stream's playback queue shares: real WebSocket apps flood audio and long marks
// while a well-behaved app plays and marks beside them; its stream is frame for frame what it is alone.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox } from "../../src/index.js";
import { useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";
import { type StreamConnection, type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { placeWithTwiml, useStreamWorld } from "../support/stream-world.js";

/** A small budget, so a few apps exceed it many times over: 10 flooders x 8 MiB would hold 80 MiB. */
const maxQueuedBytes = 2 * 1024 * 1024;
/** 45 KiB of audio a message (about 5.8 s), near the largest message an app may send (64 KiB of JSON). */
const bigPayload = Buffer.alloc(45 * 1024, 0x7f).toString("base64");
const longMark = "x".repeat(20_000);
const goodMarks = 10;
const goodNumber = "+14155550199";
const flooderNumbers = (count: number) => Array.from({ length: count }, (_, i) => `+1415555021${i}`);

/** Base64 of `ms` milliseconds of mu-law silence (8 bytes a millisecond). */
const audio = (ms: number) => Buffer.alloc(ms * 8, 0xff).toString("base64");

const connectMarkup = (url: string) =>
  `<Response><Connect><Stream url="${url}"/></Connect><Say>After the stream</Say></Response>`;

/** The budget's gauge as the flooders see it, read each time one of them sends more. */
const gaugeSeen: number[] = [];
let readGauge: () => number = () => 0;

/** On start and on every frame: a big chunk of audio and a long mark, far more than 20 ms can play. */
function flood(message: StreamMessage, connection: StreamConnection) {
  const { streamSid } = message;
  if (message.event !== "start" && message.event !== "media") return;
  gaugeSeen.push(readGauge());
  const burst = message.event === "start" ? 20 : 1;
  for (let i = 0; i < burst; i++) {
    connection.send({ event: "media", streamSid, media: { payload: bigPayload } });
    connection.send({ event: "mark", streamSid, mark: { name: longMark } });
  }
}

/** 100 ms of audio and a mark; each echo asks for the next, and the tenth closes the stream. */
function wellBehaved(message: StreamMessage, connection: StreamConnection) {
  const { streamSid } = message;
  const play = (n: number) => {
    connection.send({ event: "media", streamSid, media: { payload: audio(100) } });
    connection.send({ event: "mark", streamSid, mark: { name: `m${n}` } });
  };
  if (message.event === "start") play(1);
  if (message.event !== "mark") return;
  const n = Number(message.mark.name.slice(1));
  if (n < goodMarks) play(n + 1);
  else connection.socket.close();
}

/** What the app heard, sids aside: each message's kind, sequence number, chunk and timestamp or mark. */
const shape = (messages: StreamMessage[]) =>
  messages.map((m) =>
    m.event === "media"
      ? `${m.sequenceNumber} media ${m.media.chunk} ${m.media.timestamp}`
      : m.event === "mark"
        ? `${m.sequenceNumber} mark ${m.mark.name}`
        : `${m.sequenceNumber ?? "-"} ${m.event}`,
  );

describe("media floods against the shared budget (virtual clock)", () => {
  const door = useDoor("express", { streams: { maxQueuedBytes } });
  const w = useStreamWorld(door);
  const place = (to: string, url: string) =>
    door.twilioClient().calls.create({ to, from: fixtures.acme.mainNumber, twiml: connectMarkup(url) });

  async function runWellBehaved(flooders: number) {
    const good = await w.app(wellBehaved);
    const floodApps = await Promise.all(Array.from({ length: flooders }, () => w.app(flood)));
    const numbers = flooderNumbers(flooders);
    for (const number of numbers) door.sandbox.calls.setParty(number, { hangupAfter: "3s" });
    gaugeSeen.length = 0;
    readGauge = () => door.sandbox.calls.streams.queued().queuedBytes;
    const calls = await Promise.all([
      place(goodNumber, good.url()),
      ...numbers.map((number, i) => place(number, floodApps[i]!.url())),
    ]);
    await w.run();
    return { good, calls, seen: [...gaugeSeen], gauge: door.sandbox.calls.streams.queued() };
  }

  it("a well-behaved app's frames and marks are the same beside ten flooders as alone; the flood stays in the budget", async () => {
    const alone = await runWellBehaved(0);
    const aloneShape = shape(alone.good.connections[0]!.messages);
    door.sandbox.reset();

    const flooded = await runWellBehaved(10);
    const [goodCall, ...flooderCalls] = flooded.calls;

    // The well-behaved stream: every frame in order, each mark echoed right after the frame its audio ended on.
    const messages = flooded.good.connections[0]!.messages;
    expect(shape(messages)).toEqual(aloneShape);
    const marks = messages.filter((m) => m.event === "mark").map((m) => m.mark.name);
    expect(marks).toEqual(Array.from({ length: goodMarks }, (_, i) => `m${i + 1}`));
    for (const [i, name] of marks.entries()) {
      const at = messages.findIndex((m) => m.event === "mark" && m.mark.name === name);
      expect(messages[at - 1]).toMatchObject({ event: "media", media: { chunk: String(5 * (i + 1)) } });
    }
    expect(door.sandbox.calls.alerts(goodCall!.sid)).toEqual([]);
    const goodEnd = door.sandbox.calls.timeline(goodCall!.sid).find((e) => e.kind === "stream.ended");
    expect(goodEnd?.detail).toMatchObject({ marks: goodMarks, droppedFrames: 0, refused: 0, overBudget: 0 });

    // The flooders: each warned once (31951) and dropped what its share had no room for.
    for (const call of flooderCalls) {
      const alerts = door.sandbox.calls.alerts(call.sid);
      expect(alerts).toEqual([
        expect.objectContaining({
          code: 31951,
          level: "warning",
          message: expect.stringContaining("budget"),
        }),
      ]);
      const ended = door.sandbox.calls.timeline(call.sid).find((e) => e.kind === "stream.ended");
      expect(ended?.detail.overBudget).toBeGreaterThan(0);
    }
    // Together they never held more than the budget, and everything went back when the streams ended.
    expect(flooded.gauge.peakBytes).toBeLessThanOrEqual(maxQueuedBytes);
    expect(flooded.gauge.peakBytes).toBeGreaterThan(maxQueuedBytes * 0.9);
    expect(flooded.seen.length).toBeGreaterThan(1000);
    expect(Math.max(...flooded.seen)).toBeLessThanOrEqual(maxQueuedBytes);
    expect(flooded.gauge).toMatchObject({ queuedBytes: 0, streams: 0, limitBytes: maxQueuedBytes });
    expect(flooded.gauge.droppedMessages).toBeGreaterThan(1000);
  });

  it("a stream that opens shrinks the shares: a flooder holding the whole budget drops its newest items down to half", async () => {
    door.sandbox.calls.setParty(flooderNumbers(1)[0]!, { ringAfter: 0, answerAfter: 0, hangupAfter: "4s" });
    const flooder = await w.app(flood);
    const floodCall = await place(flooderNumbers(1)[0]!, flooder.url());
    await door.sandbox.clock.advance(1000);
    const full = door.sandbox.calls.streams.queued();
    expect(full).toMatchObject({ streams: 1, shareBytes: maxQueuedBytes });
    expect(full.queuedBytes).toBeGreaterThan(maxQueuedBytes * 0.9);

    const good = await w.app(wellBehaved);
    door.sandbox.calls.setParty(goodNumber, { ringAfter: 0, answerAfter: 0 });
    const goodCall = await place(goodNumber, good.url());
    await door.sandbox.clock.advance(100);
    const shared = door.sandbox.calls.streams.queued();
    expect(shared.streams).toBe(2);
    expect(shared.shareBytes).toBe(maxQueuedBytes / 2);
    expect(shared.queuedBytes).toBeLessThanOrEqual(maxQueuedBytes);
    const shed = door.sandbox.calls.timeline(floodCall.sid).find((e) => e.kind === "stream.shed");
    expect(shed?.detail).toMatchObject({ share: maxQueuedBytes / 2 });
    expect(shed?.detail.bytes).toBeGreaterThan(0);

    await w.run();
    const marks = good.messages("mark").map((m) => m.mark.name);
    expect(marks).toEqual(Array.from({ length: goodMarks }, (_, i) => `m${i + 1}`));
    expect(door.sandbox.calls.alerts(goodCall.sid)).toEqual([]);
    expect(door.sandbox.calls.streams.queued().peakBytes).toBeLessThanOrEqual(maxQueuedBytes);
  });
});

describe("media floods against the shared budget (real clock)", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("the flooders' sockets are not read while they hold their share; the well-behaved app plays every mark", async () => {
    const sandbox = createSandbox({ clock: "real", streams: { maxQueuedBytes } });
    cleanups.push(() => sandbox.clock.switchTo("virtual"));
    cleanups.push(() => sandbox.reset());
    const apps = await Promise.all([wellBehaved, ...Array(5).fill(flood)].map((app) => startStreamApp(app)));
    for (const app of apps) cleanups.push(() => app.close());
    const [good, ...flooders] = apps;
    sandbox.calls.setParty(goodNumber, { ringAfter: 0, answerAfter: 0 });
    const numbers = flooderNumbers(5);
    for (const number of numbers)
      sandbox.calls.setParty(number, { ringAfter: 0, answerAfter: 0, hangupAfter: "2s" });
    readGauge = () => sandbox.calls.streams.queued().queuedBytes;
    gaugeSeen.length = 0;
    const goodSid = await placeWithTwiml(sandbox, goodNumber, connectMarkup(good!.url()));
    const floodSids = await Promise.all(
      numbers.map((number, i) => placeWithTwiml(sandbox, number, connectMarkup(flooders[i]!.url()))),
    );

    await vi.waitFor(
      () => expect(sandbox.calls.heard(goodSid).map((e) => e.text)).toEqual(["After the stream"]),
      {
        timeout: 20_000,
      },
    );
    await vi.waitFor(
      () =>
        expect(floodSids.map((sid) => sandbox.store.calls.get(sid)?.status)).toEqual(
          Array(5).fill("completed"),
        ),
      { timeout: 20_000 },
    );
    const messages = good!.connections[0]!.messages;
    expect(messages.filter((m) => m.event === "mark").map((m) => m.mark.name)).toEqual(
      Array.from({ length: goodMarks }, (_, i) => `m${i + 1}`),
    );
    const chunks = messages.filter((m) => m.event === "media").map((m) => Number(m.media.chunk));
    expect(chunks).toEqual(chunks.map((_, i) => i + 1));
    expect(sandbox.calls.alerts(goodSid)).toEqual([]);
    for (const sid of floodSids) {
      expect(sandbox.calls.timeline(sid).map((e) => e.kind)).toContain("stream.paused");
    }
    const gauge = sandbox.calls.streams.queued();
    expect(gauge.peakBytes).toBeLessThanOrEqual(maxQueuedBytes);
    expect(Math.max(...gaugeSeen)).toBeLessThanOrEqual(maxQueuedBytes);
    expect(gauge).toMatchObject({ queuedBytes: 0, streams: 0 });
  });
});
