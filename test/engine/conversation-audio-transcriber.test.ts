// What a media-stream agent said: each turn of the app's audio goes to the sandbox's transcriber, and its words land in the timeline and in what the caller heard.
import alawmulaw from "alawmulaw";
import twilio from "twilio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AgentAudio, createSandbox, type Sandbox, type Transcriber } from "../../src/index.js";
import { useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";
import { type StreamApp, type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { callee, placeWithTwiml, useStreamWorld } from "../support/stream-world.js";

const { VoiceResponse } = twilio.twiml;
const silence = Buffer.alloc(160, 0xff).toString("base64");

/** `ms` of one mu-law byte: each piece of the app's audio is told apart by its byte. */
const audio = (byte: number, ms: number) => Buffer.alloc(ms * 8, byte);
const greeting = audio(0x20, 200);
const answer = audio(0x30, 600);
const goodbye = audio(0x40, 200);

const streamMarkup = (url: string) => {
  const r = new VoiceResponse();
  r.connect().stream({ url });
  r.say("After the stream");
  return r.toString();
};

/**
 * Greets when the stream starts; once the caller's words are followed by 300 ms of silence it answers,
 * clears the answer 100 ms later and says goodbye instead; at the mark after goodbye it closes.
 */
function agentApp() {
  const state = { spoke: false, quiet: 0, answeredChunk: 0 };
  const onMessage = (
    message: StreamMessage,
    connection: { send(m: unknown): void; socket: { close(): void } },
  ) => {
    const play = (bytes: Buffer) =>
      connection.send({
        event: "media",
        streamSid: message.streamSid,
        media: { payload: bytes.toString("base64") },
      });
    if (message.event === "start") play(greeting);
    if (message.event === "mark") connection.socket.close();
    if (message.event !== "media") return;
    const chunk = Number(message.media.chunk);
    if (state.answeredChunk && chunk === state.answeredChunk + 5) {
      connection.send({ event: "clear", streamSid: message.streamSid });
      play(goodbye);
      connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "bye" } });
    }
    if (state.answeredChunk) return;
    if (message.media.payload !== silence) {
      state.spoke = true;
      state.quiet = 0;
    } else if (state.spoke && ++state.quiet === 15) {
      state.answeredChunk = chunk;
      play(answer);
    }
  };
  return { state, onMessage };
}

/** An app that plays `ms` of audio when the stream starts and closes the stream once it has played. */
const playsOnce =
  (ms: number) =>
  (message: StreamMessage, connection: { send(m: unknown): void; socket: { close(): void } }) => {
    if (message.event === "start") {
      connection.send({
        event: "media",
        streamSid: message.streamSid,
        media: { payload: audio(0x20, ms).toString("base64") },
      });
      connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "done" } });
    }
    if (message.event === "mark") connection.socket.close();
  };

/** Answers each utterance in turn with the next of `texts`: the first at once, the rest a moment later. */
function scriptedTranscriber(texts: string[]) {
  const heard: AgentAudio[] = [];
  const transcriber: Transcriber = {
    transcribe(utterance) {
      heard.push(utterance);
      const text = texts[heard.length - 1] ?? "";
      if (heard.length === 1) return text;
      return new Promise((resolve) => setTimeout(() => resolve(text), 20));
    },
  };
  return { heard, transcriber };
}

const transcript = scriptedTranscriber(["Hello, thanks for calling", "Your bill is", "Goodbye now"]);

describe("a media stream agent's words, transcribed (virtual clock)", () => {
  const door = useDoor("msw", { transcriber: transcript.transcriber });
  const w = useStreamWorld(door);

  it("hands over each turn's audio once it ends, and its words land where the turn began", async () => {
    transcript.heard.length = 0;
    door.sandbox.calls.setParty(callee, {
      steps: [{ on: { verb: "Connect" }, after: "1s", say: "I would like to pay my bill" }],
    });
    const { onMessage } = agentApp();
    const app = await w.app(onMessage);
    const client = door.twilioClient();
    const call = await client.calls.create({
      to: callee,
      from: fixtures.acme.mainNumber,
      twiml: streamMarkup(app.url()),
      record: true,
      recordingChannels: "dual",
    });
    await w.run();
    const streamSid = app.messages("start")[0]!.streamSid as string;
    const timeline = door.sandbox.calls.timeline(call.sid);
    const startedAt = timeline.find((e) => e.kind === "stream.started")!.at;

    // Three turns: the greeting (until the caller spoke), the answer up to the clear, and goodbye. The wait
    // for the answer takes no sandbox time (docs/voice-agents.md, "Silence while it thinks"): the answer
    // sounds from the end of the caller's turn, at the turn's response time after it.
    const turn = timeline.find((e) => e.kind === "agent.turn")!.detail as {
      endedAt: number;
      responseMs: number;
    };
    const answered = turn.endedAt + turn.responseMs;
    expect(transcript.heard.map((u) => [u.startedAt, u.durationMs])).toEqual([
      [startedAt, 200],
      [answered, 100],
      [answered + 100, 200],
    ]);
    const expected = [greeting, answer.subarray(0, 800), goodbye];
    transcript.heard.forEach((u, i) => {
      expect(u).toMatchObject({ callSid: call.sid, streamSid, sampleRate: 8000 });
      expect(Buffer.from(u.mulaw).equals(expected[i]!)).toBe(true);
      expect(Array.from(u.pcm)).toEqual(Array.from(alawmulaw.mulaw.decode(expected[i]!)));
    });

    // The words: in the timeline as the stream's agent said them, and among what the caller heard.
    const said = timeline.filter((e) => e.kind === "stream.said");
    expect(said.map((e) => e.detail)).toEqual([
      {
        sid: streamSid,
        text: "Hello, thanks for calling",
        ms: 200,
        startedAt: new Date(startedAt).toISOString(),
      },
      { sid: streamSid, text: "Your bill is", ms: 100, startedAt: new Date(answered).toISOString() },
      { sid: streamSid, text: "Goodbye now", ms: 200, startedAt: new Date(answered + 100).toISOString() },
    ]);
    // The clock waited for the answers that came later: each lands at the instant its turn ended.
    const clearedAt = timeline.find((e) => e.kind === "stream.clear")!.at;
    expect(said[1]!.at).toBe(clearedAt);
    expect(said[2]!.at).toBe(timeline.find((e) => e.kind === "stream.ended")!.at);
    expect(door.sandbox.calls.heard(call.sid).map((h) => [h.kind, h.text, h.at])).toEqual([
      ["say", "Hello, thanks for calling", startedAt],
      ["say", "Your bill is", answered],
      ["say", "Goodbye now", answered + 100],
      ["say", "After the stream", expect.any(Number)],
    ]);
    // A recording hears the app's audio as it was, not the transcribed words spoken again.
    const [recording] = door.sandbox.store.recordings.where("call", call.sid);
    const texts = recording!.speech.map((s) => s.text);
    expect(texts).toContain("After the stream");
    expect(texts.filter((t) => t.includes("bill") || t.includes("Hello"))).toEqual([
      "I would like to pay my bill",
    ]);
  });
});

describe("where one turn of a media stream agent ends", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("at a key the caller presses, and after five seconds with nothing played", async () => {
    const heard: number[] = [];
    const sandbox = createSandbox({
      transcriber: { transcribe: (u) => String(heard.push(u.durationMs)) },
    });
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(callee, { steps: [{ on: { verb: "Connect" }, after: "8s", press: "1" }] });
    const app = await startStreamApp((message, connection) => {
      const play = (ms: number) =>
        connection.send({
          event: "media",
          streamSid: message.streamSid,
          media: { payload: audio(0x20, ms).toString("base64") },
        });
      // 200 ms at once, 200 ms more six seconds later, 100 ms in answer to the key; the mark after it ends the stream.
      if (message.event === "start") play(200);
      if (message.event === "media" && message.media.chunk === "310") play(200);
      if (message.event === "dtmf") {
        play(100);
        connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "done" } });
      }
      if (message.event === "mark") connection.socket.close();
    });
    cleanups.push(() => app.close());
    const sid = await placeWithTwiml(sandbox, callee, streamMarkup(app.url()));
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    expect(heard).toEqual([200, 200, 100]);
    expect(sandbox.calls.heard(sid).map((h) => h.text)).toEqual(["1", "2", "3", "After the stream"]);
  });
});

describe("transcribers that fail or take too long (virtual clock)", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  /** One call to an app that plays 200 ms when the stream starts. */
  const oneTurn = async (transcriber: Transcriber) => {
    const sandbox = createSandbox({ transcriber });
    cleanups.push(() => sandbox.reset());
    const app = await startStreamApp(playsOnce(200));
    cleanups.push(() => app.close());
    const sid = await placeWithTwiml(sandbox, callee, streamMarkup(app.url()));
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    return { sandbox, sid };
  };
  const stream = (sandbox: Sandbox, sid: string) =>
    sandbox.calls
      .timeline(sid)
      .filter((e) => e.kind.startsWith("stream.transcription") || e.kind === "stream.said");

  it("a transcriber that throws or rejects: the timeline says why, and nothing is heard", async () => {
    for (const transcribe of [
      () => {
        throw new Error("model not loaded");
      },
      () => Promise.reject(new Error("model not loaded")),
    ]) {
      const { sandbox, sid } = await oneTurn({ transcribe });
      expect(stream(sandbox, sid).map((e) => [e.kind, e.detail.error])).toEqual([
        ["stream.transcription-failed", "model not loaded"],
      ]);
      expect(sandbox.calls.heard(sid).map((h) => h.text)).toEqual(["After the stream"]);
    }
  });

  it("one that does not answer within its timeoutMs: the clock goes on, and a later answer is left out", async () => {
    let answer: (text: string) => void = () => undefined;
    const { sandbox, sid } = await oneTurn({
      timeoutMs: 50,
      transcribe: () => new Promise<string>((resolve) => (answer = resolve)),
    });
    expect(sandbox.store.calls.get(sid)!.status).toBe("completed");
    expect(stream(sandbox, sid).map((e) => [e.kind, e.detail.waitedMs])).toEqual([
      ["stream.transcription-late", 50],
    ]);
    answer("too late");
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sandbox.clock.runUntilIdle();
    expect(stream(sandbox, sid)).toHaveLength(1);
    expect(sandbox.calls.heard(sid).map((h) => h.text)).toEqual(["After the stream"]);
  });
});

describe("a transcriber on the real clock", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("never holds the engine up: the call ends first, and the words land when they come", async () => {
    let answer: (text: string) => void = () => undefined;
    const sandbox = createSandbox({
      clock: "real",
      transcriber: { transcribe: () => new Promise<string>((resolve) => (answer = resolve)) },
    });
    cleanups.push(() => sandbox.clock.switchTo("virtual"));
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0 });
    const app: StreamApp = await startStreamApp(playsOnce(100));
    cleanups.push(() => app.close());
    const sid = await placeWithTwiml(sandbox, callee, streamMarkup(app.url()));
    await vi.waitFor(() => expect(sandbox.store.calls.get(sid)?.status).toBe("completed"), {
      timeout: 20_000,
    });
    expect(sandbox.calls.heard(sid).map((h) => h.text)).toEqual(["After the stream"]);
    answer("Thanks for waiting");
    await vi.waitFor(
      () =>
        expect(sandbox.calls.heard(sid).map((h) => h.text)).toEqual([
          "Thanks for waiting",
          "After the stream",
        ]),
      { timeout: 20_000 },
    );
    const said = sandbox.calls.timeline(sid).find((e) => e.kind === "stream.said");
    expect(said?.detail).toMatchObject({ text: "Thanks for waiting", ms: 100 });
  });
});

describe("matching what a media stream agent said with the phone API", () => {
  it("expectSay finds the transcribed words", async () => {
    const app = await startStreamApp(playsOnce(300));
    const sandbox = createSandbox({
      transcriber: { transcribe: async (u) => `I played ${u.durationMs} ms` },
    });
    try {
      const phoneApp = "https://phone-tests.example.test";
      sandbox.webhooks.register(`${phoneApp}/`, () => streamMarkup(app.url()));
      const number = sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
      const res = await sandbox.fetch(
        `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers/${number.sid}.json`,
        {
          method: "POST",
          headers: {
            authorization: `Bearer ${fixtures.carrierKey}`,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({ VoiceUrl: `${phoneApp}/voice` }),
        },
      );
      expect(res.status).toBe(200);
      await sandbox
        .call({ from: callee, to: fixtures.acme.mainNumber })
        .expectSay("I played 300 ms")
        .expectSay("After the stream")
        .expectHangup();
    } finally {
      sandbox.reset();
      await app.close();
    }
  });
});
