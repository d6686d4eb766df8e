// A call's conversation with its <Connect> app as a two-channel WAV: the caller's frames on the left, the app's audio or the relay's speech on the right, in place.
import alawmulaw from "alawmulaw";
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import {
  conversationBytesKept,
  conversationMaxMs,
  conversationsKept,
  createConversationAudio,
} from "../../src/engine/media-streams/conversation-audio.js";
import type { Sandbox } from "../../src/index.js";
import { speechLengthMs } from "../../src/markup/speech-length.js";
import { windowRms } from "../support/audio-energy.js";
import { useDoor } from "../support/doors.js";
import type { StreamMessage } from "../support/stream-app.js";
import { callee, useStreamWorld } from "../support/stream-world.js";
import { readWav } from "../support/wav-file.js";

const { VoiceResponse } = twilio.twiml;
const silence = Buffer.alloc(160, 0xff).toString("base64");
const words = "I would like to pay my bill";

/** 400 ms of a 1 kHz tone (eight samples a period) as mu-law: what the app plays. */
const tone = Buffer.from(
  alawmulaw.mulaw.encode(
    Int16Array.from({ length: 3200 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * i) / 8))),
  ),
);

/** When the call's first <Connect> began: sample 0 of its conversation. */
const connectAt = (sandbox: Sandbox, sid: string) =>
  sandbox.calls.timeline(sid).find((e) => e.kind === "verb.start" && e.detail.verb === "Connect")!.at;

/**
 * An app that hears the caller out: once their words have been followed by 300 ms of silence it plays the
 * tone (in one media message) and remembers the chunk it answered; at the mark it closes the stream.
 */
function answeringApp() {
  const state = { answeredChunk: 0, spoke: false, quiet: 0 };
  const onMessage = (
    message: StreamMessage,
    connection: { send(m: unknown): void; socket: { close(): void } },
  ) => {
    if (message.event === "mark") connection.socket.close();
    if (message.event !== "media" || state.answeredChunk) return;
    if (message.media.payload !== silence) {
      state.spoke = true;
      state.quiet = 0;
      return;
    }
    if (!state.spoke || ++state.quiet < 15) return;
    state.answeredChunk = Number(message.media.chunk);
    connection.send({
      event: "media",
      streamSid: message.streamSid,
      media: { payload: tone.toString("base64") },
    });
    connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "answered" } });
  };
  return { state, onMessage };
}

const streamMarkup = (url: string) => {
  const r = new VoiceResponse();
  r.connect().stream({ url });
  r.say("After the stream");
  return r.toString();
};

describe("conversation audio of a media stream (virtual clock)", () => {
  const door = useDoor("msw");
  const w = useStreamWorld(door);

  it("puts the caller's frames on the left and the app's tone on the right, each at its exact sample", async () => {
    door.sandbox.calls.setParty(callee, { steps: [{ on: { verb: "Connect" }, after: "500ms", say: words }] });
    const { state, onMessage } = answeringApp();
    const app = await w.app(onMessage);
    const call = await w.place(streamMarkup(app.url()));
    await w.run();
    expect(state.answeredChunk).toBeGreaterThan(0);

    const wav = readWav((await door.sandbox.calls.conversationAudio(call.sid))!);
    expect(wav).toMatchObject({ riff: "RIFFWAVE", channels: 2, rate: 8000, bits: 16 });
    const caller = wav.channel(0);
    const agent = wav.channel(1);
    // The wait for the app's answer takes no sandbox time (docs/voice-agents.md, "Silence while it thinks"):
    // the silence it counted came while sandbox time stood at the end of the caller's turn, so its tone plays
    // from there, at the turn's response time after it.
    const connect = connectAt(door.sandbox, call.sid);
    const turn = door.sandbox.calls.timeline(call.sid).find((e) => e.kind === "agent.turn")!.detail as {
      endedAt: number;
      responseMs: number;
    };
    const first = (turn.endedAt + turn.responseMs - connect) * 8;
    const decoded = alawmulaw.mulaw.decode(tone);
    expect(agent.subarray(0, first).every((v) => v === 0)).toBe(true);
    expect(Array.from(agent.subarray(first, first + decoded.length))).toEqual(Array.from(decoded));
    expect(agent.subarray(first + decoded.length).every((v) => v === 0)).toBe(true);
    // Every frame the app got of the caller up to the turn's end is on the left where its chunk falls, sample
    // for sample (the silence sent during the wait takes no sandbox time, so it has no place of its own).
    const media = app.messages("media").filter((m) => Number(m.media.chunk) * 20 <= turn.endedAt - connect);
    expect(media.some((m) => m.media.payload !== silence)).toBe(true);
    for (const m of media) {
      const at = (Number(m.media.chunk) - 1) * 160;
      const frame = alawmulaw.mulaw.decode(Buffer.from(m.media.payload, "base64"));
      expect(Array.from(caller.subarray(at, at + 160))).toEqual(Array.from(frame));
    }
    // The caller's words start half a second into the conversation, which lasts until the app closed.
    expect(caller.findIndex((v) => v !== 0)).toBeGreaterThanOrEqual(500 * 8);
    expect(wav.frames).toBeGreaterThanOrEqual(first + decoded.length);
    const heard = door.sandbox.calls.heard(call.sid).map((h) => h.text);
    expect(heard).toEqual(["After the stream"]);
  });

  it("is the same bytes run after run, and gone after a reset", async () => {
    const runs: Uint8Array[] = [];
    for (let i = 0; i < 2; i++) {
      door.sandbox.calls.setParty(callee, {
        steps: [{ on: { verb: "Connect" }, after: "200ms", say: words }],
      });
      const app = await w.app(answeringApp().onMessage);
      const call = await w.place(streamMarkup(app.url()));
      await w.run();
      runs.push((await door.sandbox.calls.conversationAudio(call.sid))!);
      door.sandbox.reset();
      expect(await door.sandbox.calls.conversationAudio(call.sid)).toBeUndefined();
    }
    expect(Buffer.from(runs[1]!).equals(Buffer.from(runs[0]!))).toBe(true);
  });

  it("keeps nothing for a call without a <Connect> app, nor for a <Start> stream", async () => {
    const app = await w.app();
    const r = new VoiceResponse();
    r.start().stream({ url: app.url() });
    r.say("Just a prompt");
    const call = await w.place(r.toString());
    await w.run();
    expect(app.messages("start")).toHaveLength(1);
    expect(await door.sandbox.calls.conversationAudio(call.sid)).toBeUndefined();
  });
});

describe("conversation audio of ConversationRelay (virtual clock)", () => {
  const door = useDoor("msw");
  const w = useStreamWorld(door);

  it("speaks the greeting and the app's text on the right where the caller heard them, the caller's words on the left", async () => {
    door.sandbox.calls.setParty(callee, {
      steps: [{ say: "What is my balance" }, { on: { verb: "Connect" }, after: "15s", hangup: true }],
    });
    const relay = await w.app((message, connection) => {
      if (message.type === "prompt")
        connection.send({ type: "text", token: "It is forty dollars", last: true });
    });
    const r = new VoiceResponse();
    r.connect().conversationRelay({ url: relay.url(), welcomeGreeting: "Hello, this is Acme" });
    const call = await w.place(r.toString());
    await w.run();

    const origin = connectAt(door.sandbox, call.sid);
    const wav = readWav((await door.sandbox.calls.conversationAudio(call.sid))!);
    expect(wav.channels).toBe(2);
    const windows = (samples: Int16Array) => windowRms(samples);
    const agent = windows(wav.channel(1));
    const caller = windows(wav.channel(0));
    const said = door.sandbox.calls.heard(call.sid).filter((h) => h.kind === "say");
    expect(said.map((h) => h.text)).toEqual(["Hello, this is Acme", "It is forty dollars"]);
    const spoken = door.sandbox.calls.timeline(call.sid).filter((e) => e.kind === "party.say");
    expect(spoken).toHaveLength(1);
    /** 20 ms windows of the conversation from clock time `from` for `ms`. */
    const span = (from: number, ms: number) => ({
      first: (from - origin) / 20,
      last: (from - origin + ms) / 20,
    });
    const agentSpans = said.map((h) => span(h.at, speechLengthMs(h.text!)));
    const callerSpan = span(spoken[0]!.at, Number(spoken[0]!.detail.ms));
    const inside = (i: number, spans: { first: number; last: number }[]) =>
      spans.some((s) => i >= s.first && i < s.last);
    // Speech where each was heard, and nothing but silence anywhere else on its side.
    for (const s of agentSpans)
      expect(agent.slice(s.first, s.last).filter((v) => v > 300).length).toBeGreaterThan(10);
    expect(agent.every((v, i) => v === 0 || inside(i, agentSpans))).toBe(true);
    expect(caller.slice(callerSpan.first, callerSpan.last).filter((v) => v > 300).length).toBeGreaterThan(10);
    expect(caller.every((v, i) => v === 0 || inside(i, [callerSpan]))).toBe(true);
  });
});

describe("conversation audio bounds", () => {
  const second = new Uint8Array(8000).fill(0x10);
  const sid = (n: number) => `CA${String(n).padStart(32, "0")}`;

  it("keeps ten minutes a call: audio past them is left out, once reported", async () => {
    const limits: string[] = [];
    const store = createConversationAudio((callSid, reason) => limits.push(`${callSid} ${reason}`));
    store.open(sid(1), 0);
    for (let at = 0; at < conversationMaxMs + 5000; at += 1000) store.audio(sid(1), "agent", at, second);
    store.close(sid(1), conversationMaxMs + 5000);
    const [caller, agent] = (await store.samples(sid(1), conversationMaxMs + 5000))!;
    expect(agent.length).toBe((conversationMaxMs / 1000) * 8000);
    expect(caller.length).toBe(agent.length);
    expect(agent.at(-1)).toBe(alawmulaw.mulaw.decode(second.subarray(0, 1))[0]);
    expect(limits).toEqual([`${sid(1)} length`]);
  });

  it("keeps the newest hundred calls, dropping the oldest finished one first", () => {
    const store = createConversationAudio();
    for (let n = 1; n <= conversationsKept; n++) store.open(sid(n), n);
    store.finish(sid(2));
    store.open(sid(101), 101);
    expect(store.has(sid(2))).toBe(false);
    expect(store.has(sid(1))).toBe(true);
    // None finished: the oldest goes.
    store.open(sid(102), 102);
    expect(store.has(sid(1))).toBe(false);
    expect([3, 100, 101, 102].every((n) => store.has(sid(n)))).toBe(true);
  });

  it("holds at most the byte budget: finished calls make room, a live one past it keeps what it had", () => {
    const limits: string[] = [];
    const store = createConversationAudio((callSid, reason) => limits.push(`${callSid} ${reason}`));
    const minute = new Uint8Array(8000 * 60).fill(0x10);
    // Nine-minute conversations, both sides: about 8.6 MB each, so the budget holds seven of them.
    const fill = (n: number) => {
      store.open(sid(n), 0);
      for (let m = 0; m < 9; m++) {
        store.audio(sid(n), "caller", m * 60_000, minute);
        store.audio(sid(n), "agent", m * 60_000, minute);
      }
    };
    const perCall = 2 * 9 * minute.length;
    const fits = Math.floor(conversationBytesKept / perCall);
    for (let n = 1; n <= fits; n++) fill(n);
    store.finish(sid(1));
    fill(fits + 1);
    expect(store.has(sid(1))).toBe(false);
    expect(limits).toEqual([]);
    fill(fits + 2);
    expect(limits).toEqual([`${sid(fits + 2)} memory`]);
    expect(store.has(sid(2))).toBe(true);
  });
});
