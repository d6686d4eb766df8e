// <Connect><Stream>: the sandbox as a real WebSocket client of an app in the test process, through both doors.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import twilio from "twilio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox } from "../../src/index.js";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";
import { type StreamApp, type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { appBase, callee, placeWithTwiml, useStreamWorld } from "../support/stream-world.js";

const { VoiceResponse } = twilio.twiml;
const silence = Buffer.alloc(160, 0xff).toString("base64");

/** Base64 of `ms` milliseconds of mu-law silence (8 bytes a millisecond). */
const audio = (ms: number) => Buffer.alloc(ms * 8, 0xff).toString("base64");

/** <Connect><Stream> to `url`, then a Say the call reaches once the socket closes. */
function connectMarkup(url: string, connectAttrs: Record<string, string> = {}) {
  const r = new VoiceResponse();
  const stream = r.connect(connectAttrs).stream({
    url,
    name: "agent",
    statusCallback: `${appBase}/stream-status`,
  });
  stream.parameter({ name: "customer", value: "42" });
  stream.parameter({ name: "lang", value: "en" });
  r.say("After the stream");
  return r.toString();
}

const closeAfterMedia =
  (count: number) => (message: StreamMessage, connection: { socket: { close(): void } }) => {
    if (message.event === "media" && Number(message.media.chunk) === count) connection.socket.close();
  };

for (const doorName of doorNames) {
  describe(`<Connect><Stream> through the ${doorName} door`, () => {
    // The apps here answer at once or not at all: a turn they leave unanswered waits a second, not ten.
    const door = useDoor(doorName, { agentTurnTimeout: "1s" });
    const w = useStreamWorld(door, { "/after": "<Response><Say>Back from the stream</Say></Response>" });

    it("sends connected, start and paced inbound media; when the app closes, the markup after Connect runs", async () => {
      const app = await w.app(closeAfterMedia(3));
      const call = await w.place(connectMarkup(app.url()));
      await w.run();

      const [connected, start, ...rest] = app.messages();
      expect(connected).toEqual({ event: "connected", protocol: "Call", version: "1.0.0" });
      const streamSid = start!.streamSid as string;
      expect(streamSid).toMatch(/^MZ[0-9a-f]{32}$/);
      expect(start).toEqual({
        event: "start",
        sequenceNumber: "1",
        streamSid,
        start: {
          accountSid: fixtures.acme.sid,
          streamSid,
          callSid: call.sid,
          tracks: ["inbound"],
          customParameters: { customer: "42", lang: "en" },
          mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
        },
      });
      const media = rest.filter((m) => m.event === "media").slice(0, 3);
      expect(media).toEqual(
        [1, 2, 3].map((chunk) => ({
          event: "media",
          sequenceNumber: String(chunk + 1),
          streamSid,
          media: {
            track: "inbound",
            chunk: String(chunk),
            timestamp: String((chunk - 1) * 20),
            payload: silence,
          },
        })),
      );

      const heard = door.sandbox.calls.heard(call.sid).map((e) => e.text);
      expect(heard).toEqual(["After the stream"]);
      expect((await door.twilioClient().calls(call.sid).fetch()).status).toBe("completed");
      expect(w.streamCallbacks()).toEqual([
        expect.objectContaining({
          StreamEvent: "stream-started",
          StreamSid: streamSid,
          StreamName: "agent",
          CallSid: call.sid,
          AccountSid: fixtures.acme.sid,
        }),
        expect.objectContaining({ StreamEvent: "stream-stopped", StreamSid: streamSid, StreamName: "agent" }),
      ]);
      expect(door.sandbox.calls.alerts(call.sid)).toEqual([]);
    });

    it("posts to the Connect action when the socket closes, and runs what it answers", async () => {
      const app = await w.app(closeAfterMedia(1));
      const call = await w.place(connectMarkup(app.url(), { action: `${appBase}/after` }));
      await w.run();
      expect(w.callbacks.find((c) => c.path === "/after")?.params).toMatchObject({
        CallSid: call.sid,
        CallStatus: "in-progress",
      });
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Back from the stream"]);
    });

    it("echoes a mark once the app's audio before it has played (100 ms: five frames later)", async () => {
      const app = await w.app((message, connection) => {
        if (message.event === "start") {
          connection.send({ event: "media", streamSid: message.streamSid, media: { payload: audio(100) } });
          connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "greeting-done" } });
        }
        if (message.event === "mark") connection.socket.close();
      });
      const call = await w.place(connectMarkup(app.url()));
      await w.run();
      const messages = app.messages();
      const markAt = messages.findIndex((m) => m.event === "mark");
      expect(messages[markAt]).toEqual({
        event: "mark",
        sequenceNumber: String(Number(messages[markAt - 1]!.sequenceNumber) + 1),
        streamSid: messages[1]!.streamSid,
        mark: { name: "greeting-done" },
      });
      // The audio took five 20 ms frames: the mark comes right after the fifth inbound frame.
      expect(messages[markAt - 1]).toMatchObject({ event: "media", media: { chunk: "5" } });
      expect(door.sandbox.calls.timeline(call.sid).filter((e) => e.kind === "stream.mark")).toHaveLength(1);
    });

    it("a mark with no audio before it is echoed at once; clear drops queued audio and answers pending marks", async () => {
      const app = await w.app((message, connection) => {
        const streamSid = message.streamSid;
        if (message.event === "start") {
          connection.send({ event: "mark", streamSid, mark: { name: "first" } });
          connection.send({ event: "media", streamSid, media: { payload: audio(1000) } });
          connection.send({ event: "mark", streamSid, mark: { name: "after-a-second" } });
        }
        if (message.event === "media" && message.media.chunk === "3")
          connection.send({ event: "clear", streamSid });
        if (message.event === "mark" && message.mark.name === "after-a-second") connection.socket.close();
      });
      const call = await w.place(connectMarkup(app.url()));
      await w.run();
      const messages = app.messages();
      const marks = messages.filter((m) => m.event === "mark").map((m) => m.mark.name);
      expect(marks).toEqual(["first", "after-a-second"]);
      const second = messages.findIndex((m) => m.event === "mark" && m.mark.name === "after-a-second");
      // Answered when the clear arrived (after frame 3), not after the second of audio.
      expect(messages[second - 1]).toMatchObject({ event: "media", media: { chunk: "3" } });
      expect(door.sandbox.calls.timeline(call.sid).some((e) => e.kind === "stream.clear")).toBe(true);
    });

    it("sends the caller's key presses as dtmf messages", async () => {
      door.sandbox.calls.setParty(callee, { steps: [{ on: { verb: "Connect" }, after: "1s", press: "7#" }] });
      const app = await w.app((message, connection) => {
        if (message.event === "dtmf" && message.dtmf.digit === "#") connection.socket.close();
      });
      await w.place(connectMarkup(app.url()));
      await w.run();
      const dtmf = app.messages("dtmf");
      expect(dtmf.map((m) => m.dtmf)).toEqual([
        { track: "inbound_track", digit: "7" },
        { track: "inbound_track", digit: "#" },
      ]);
      expect(dtmf[0]).toMatchObject({ event: "dtmf", streamSid: app.messages("start")[0]!.streamSid });
      expect(Number(dtmf[1]!.sequenceNumber)).toBeGreaterThan(Number(dtmf[0]!.sequenceNumber));
    });

    it("the caller's speech is audible on the inbound track (a tone where the words are, silence around)", async () => {
      door.sandbox.calls.setParty(callee, {
        steps: [
          { on: { verb: "Connect" }, after: "200ms", say: "I need help", for: "400ms" },
          { on: { verb: "Connect" }, after: "1s", hangup: true },
        ],
      });
      const app = await w.app();
      await w.place(connectMarkup(app.url()));
      await w.run();
      const media = app.messages("media");
      const loud = media.filter((m) => m.media.payload !== silence).map((m) => Number(m.media.timestamp));
      expect(loud[0]).toBe(200);
      expect(loud.at(-1)).toBe(580);
      expect(loud).toHaveLength(20);
    });

    it("when the caller hangs up, the app gets stop and the stream-stopped callback goes out", async () => {
      door.sandbox.calls.setParty(callee, { hangupAfter: "2s" });
      const app = await w.app();
      const call = await w.place(connectMarkup(app.url()));
      await w.run();
      const stop = app.messages().at(-1);
      expect(stop).toEqual({
        event: "stop",
        sequenceNumber: expect.stringMatching(/^\d+$/),
        streamSid: app.messages("start")[0]!.streamSid,
        stop: { accountSid: fixtures.acme.sid, callSid: call.sid },
      });
      const chunks = app.messages("media").map((m) => Number(m.media.chunk));
      expect(chunks).toEqual(chunks.map((_, i) => i + 1));
      expect(chunks.length).toBeGreaterThan(90);
      expect(chunks.length).toBeLessThanOrEqual(100);
      expect(w.streamCallbacks().map((p) => p.StreamEvent)).toEqual(["stream-started", "stream-stopped"]);
      expect(door.sandbox.calls.heard(call.sid)).toEqual([]);
    });

    it("a URL that refuses the upgrade: alert 31920, a stream-error callback, and the call goes on", async () => {
      const url = await w.refusingServer();
      const call = await w.place(connectMarkup(url));
      await w.run();
      expect(door.sandbox.calls.alerts(call.sid)).toEqual([
        expect.objectContaining({
          code: 31920,
          level: "error",
          message: expect.stringContaining("HTTP 404"),
        }),
      ]);
      expect(w.streamCallbacks()).toEqual([
        expect.objectContaining({ StreamEvent: "stream-error", StreamError: expect.stringContaining("404") }),
      ]);
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["After the stream"]);
    });

    it("a URL nothing listens on: alert 31901, and the call goes on", async () => {
      const call = await w.place(connectMarkup(await w.closedPort()));
      await w.run();
      expect(door.sandbox.calls.alerts(call.sid).map((a) => a.code)).toEqual([31901]);
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["After the stream"]);
    });

    it("malformed JSON, bad base64, unknown events, a wrong streamSid and binary frames raise one 31951 warning; the stream goes on", async () => {
      const app = await w.app((message, connection) => {
        const streamSid = message.streamSid;
        if (message.event === "start") {
          connection.send("{not json");
          connection.send({ event: "media", streamSid, media: { payload: "***" } });
          connection.send({ event: "dance", streamSid });
          connection.send({ event: "clear", streamSid: "MZ00000000000000000000000000000000" });
          connection.socket.send(Buffer.from([1, 2, 3]));
        }
        if (message.event === "media" && message.media.chunk === "4") connection.socket.close();
      });
      const call = await w.place(connectMarkup(app.url()));
      await w.run();
      expect(door.sandbox.calls.alerts(call.sid)).toEqual([
        expect.objectContaining({
          code: 31951,
          level: "warning",
          message: expect.stringContaining("not JSON"),
        }),
      ]);
      const ended = door.sandbox.calls.timeline(call.sid).find((e) => e.kind === "stream.ended");
      expect(ended?.detail).toMatchObject({ refused: 5, chunks: 4 });
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["After the stream"]);
    });

    it("an oversized message closes the socket (a bounded read); the call goes on", async () => {
      const app = await w.app((message, connection) => {
        if (message.event === "start") connection.send("x".repeat(100 * 1024));
      });
      const call = await w.place(connectMarkup(app.url()));
      await w.run();
      expect(door.sandbox.calls.alerts(call.sid)).toEqual([
        expect.objectContaining({
          code: 31924,
          message: expect.stringContaining("Max payload size exceeded"),
        }),
        expect.objectContaining({ code: 31903, message: expect.stringContaining("code 1006") }),
      ]);
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["After the stream"]);
    });

    it("an app that closes at once: the markup after Connect runs", async () => {
      const early = await w.app((message, connection) => {
        if (message.event === "connected") connection.socket.close();
      });
      const call = await w.place(connectMarkup(early.url()));
      await w.run();
      expect(early.messages("media")).toHaveLength(0);
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["After the stream"]);
      expect(w.streamCallbacks().map((p) => p.StreamEvent)).toEqual(["stream-started", "stream-stopped"]);
    });
  });
}

describe("<Connect><Stream> determinism and the real clock", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const markApp = () =>
    startStreamApp((message, connection) => {
      const streamSid = message.streamSid;
      if (message.event === "start") {
        connection.send({ event: "media", streamSid, media: { payload: audio(60) } });
        connection.send({ event: "mark", streamSid, mark: { name: "said" } });
      }
      if (message.event === "mark")
        connection.send({ event: "media", streamSid, media: { payload: audio(40) } });
      if (message.event === "media" && message.media.chunk === "12") connection.socket.close();
    });

  async function runOnce(clock: "virtual" | "real", app: StreamApp) {
    const sandbox = createSandbox({ clock });
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0 });
    const sid = await placeWithTwiml(sandbox, callee, connectMarkup(app.url()));
    return { sandbox, app, sid };
  }

  it("the same call run twice gives the same timeline and the same messages (virtual clock)", async () => {
    const app = await markApp();
    cleanups.push(() => app.close());
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const { sandbox, sid } = await runOnce("virtual", app);
      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
      runs.push({ timeline: sandbox.calls.timeline(sid), messages: app.connections[i]!.messages });
    }
    expect(runs[0]!.timeline.some((e) => e.kind === "stream.mark")).toBe(true);
    expect(runs[1]).toEqual(runs[0]);
  });

  it("on the real clock frames flow, the app's close hands the call back, and a stuck handshake holds no other call", async () => {
    // A server that accepts the connection and never answers the upgrade.
    const stuck = createServer();
    const held: Duplex[] = [];
    stuck.on("upgrade", (_request, socket) => held.push(socket));
    await new Promise<void>((resolve) => stuck.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => {
      for (const socket of held) socket.destroy();
      return new Promise((resolve) => stuck.close(() => resolve()));
    });
    const app = await markApp();
    cleanups.push(() => app.close());
    const { sandbox, sid } = await runOnce("real", app);
    cleanups.push(() => sandbox.clock.switchTo("virtual"));
    sandbox.calls.setParty("+14155550124", { ringAfter: 0, answerAfter: 0 });
    const stuckUrl = `ws://127.0.0.1:${(stuck.address() as AddressInfo).port}/media`;
    const heldSid = await placeWithTwiml(sandbox, "+14155550124", connectMarkup(stuckUrl));
    await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 10_000 });

    await vi.waitFor(
      () => expect(sandbox.calls.heard(sid).map((e) => e.text)).toEqual(["After the stream"]),
      {
        timeout: 15_000,
      },
    );
    const chunks = app.messages("media").map((m) => Number(m.media.chunk));
    expect(chunks.slice(0, 12)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(app.messages("mark")).toHaveLength(1);
    // The other call still waits for its handshake: it is live, in its Connect, and nothing stalled.
    expect(sandbox.store.calls.get(heldSid)?.status).toBe("in-progress");
    sandbox.calls.hangup(heldSid);
    await vi.waitFor(() => expect(sandbox.store.calls.get(heldSid)?.status).toBe("completed"), {
      timeout: 10_000,
    });
  });
});
