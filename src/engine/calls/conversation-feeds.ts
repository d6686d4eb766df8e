// What a call's <Connect> apps give its conversation audio and its agent's words: a stream's frames and the app's audio, a relay's speech.
import { type TranscriberPool, trackAgentUtterances } from "../media-streams/agent-utterances.js";
import {
  type ConversationAudio,
  createConversationAudio,
  type HeardPiece,
} from "../media-streams/conversation-audio.js";
import type { RelaySessionHost } from "../media-streams/relay-state.js";
import { framePayloads, sounding } from "../media-streams/stream-audio.js";
import type { StreamSessionHost } from "../media-streams/stream-state.js";
import { wavFile } from "../recordings/recording-audio.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { fullLengthMs, heardTranscribed } from "./sandbox-speech.js";
import { agentHeard } from "./verb-party-cues.js";

/**
 * Every call's conversation with its `<Connect>` apps (bounded: conversation-audio.ts), and the transcriber
 * media streams share: what the streams part wraps its hosts with.
 */
export function createConversationFeeds(reg: CallRegistry, transcribers: TranscriberPool | null) {
  const audio = createConversationAudio((callSid, reason) =>
    reg.noteOn(callSid, "conversation.limit", { reason }),
  );
  return {
    audio,
    stream: (rt: CallRuntime, host: StreamSessionHost, streamSid: string) =>
      streamConversationHost(reg, rt, host, streamSid, audio, transcribers),
    relay: (rt: CallRuntime, host: RelaySessionHost) => relayConversationHost(reg, rt, host, audio),
    callerSpoke: (rt: CallRuntime) => relayCallerSpoke(reg, rt, audio),
    /** The call's conversation as a WAV, up to now while an app is on. */
    async wav(callSid: string): Promise<Uint8Array | undefined> {
      const channels = await audio.samples(callSid, reg.now());
      return channels && wavFile(channels);
    },
  };
}

/** The tone the sandbox plays for sounds without words (<Play>, digits), as mu-law bytes `ms` long. */
function toneBytes(ms: number): Uint8Array {
  const frame = Buffer.from(framePayloads.sound, "base64");
  const out = new Uint8Array(Math.round(ms * 8));
  for (let at = 0; at < out.length; at += frame.length) out.set(frame.subarray(0, out.length - at), at);
  return out;
}

/**
 * A `<Connect><Stream>` host that also keeps the conversation: the caller's frames as the app got them, the
 * app's audio as it played; with a transcriber, each turn of the app's audio is transcribed into what the
 * caller heard (`stream.said` in the timeline, a `say` among what was heard).
 */
export function streamConversationHost(
  reg: CallRegistry,
  rt: CallRuntime,
  host: StreamSessionHost,
  streamSid: string,
  conversation: ConversationAudio,
  transcribers: TranscriberPool | null,
): StreamSessionHost {
  const callSid = rt.sid;
  conversation.open(callSid, host.now());
  if (transcribers) rt.agentWords = true;
  const turns =
    transcribers &&
    trackAgentUtterances(transcribers, {
      scheduler: host.scheduler,
      clockMode: host.clockMode,
      callSid,
      streamSid,
      speaker: "agent",
      timeline: host.timeline,
      said(text, startedAt, ms) {
        // A call dropped since (a sandbox reset) hears nothing more.
        if (reg.runtime(callSid) !== rt) return;
        reg.note(rt, "stream.said", {
          sid: streamSid,
          text,
          ms,
          startedAt: new Date(startedAt).toISOString(),
        });
        if (text) heardTranscribed(rt, startedAt, text);
        agentHeard(reg, rt, { said: text });
      },
    });
  return {
    ...host,
    callerUtterance(at) {
      const utterance = host.callerUtterance(at);
      turns?.caller(utterance !== undefined);
      return utterance;
    },
    trackAudio(track, at) {
      const payload = host.trackAudio(track, at);
      if (track === "inbound" && payload !== framePayloads.silence)
        conversation.audio(callSid, "caller", at, Buffer.from(payload, "base64"));
      return payload;
    },
    played(at, audio) {
      host.played(at, audio);
      conversation.audio(callSid, "agent", at, audio);
      turns?.played(at, audio);
    },
    // The agent stops talking: with a transcriber, its words so far are an utterance (a caller may wait for them).
    listening() {
      turns?.boundary();
      host.listening();
    },
    // The session reports the caller's keys, its clears, marks and its end in the timeline: an utterance ends at each.
    timeline(kind, detail) {
      host.timeline(kind, detail);
      if (kind === "stream.mark" && typeof detail?.name === "string")
        agentHeard(reg, rt, { mark: detail.name });
      if (kind === "stream.dtmf" || kind === "stream.clear") turns?.boundary();
      else if (kind === "stream.ended") {
        turns?.boundary();
        conversation.close(callSid, host.now());
      }
    },
  };
}

/** A `<Connect><ConversationRelay>` host that also keeps the conversation: the agent's words as speech, cut where they were. */
export function relayConversationHost(
  reg: CallRegistry,
  rt: CallRuntime,
  host: RelaySessionHost,
  conversation: ConversationAudio,
): RelaySessionHost {
  const callSid = rt.sid;
  conversation.open(callSid, host.now());
  rt.agentWords = true;
  let last: { piece: HeardPiece; start: number } | null = null;
  return {
    ...host,
    heard(entry) {
      host.heard(entry);
      const start = host.now();
      const fullMs = fullLengthMs({ ...entry, at: start });
      const piece = conversation.heard(
        callSid,
        "agent",
        start,
        entry.kind === "say"
          ? { text: entry.text ?? "", voice: "agent", fullMs }
          : { bytes: toneBytes(fullMs) },
      );
      last = piece ? { piece, start } : null;
      if (entry.kind === "say" && entry.text) agentHeard(reg, rt, { said: entry.text });
    },
    cutHeard(ms, said) {
      host.cutHeard(ms, said);
      last?.piece.cut(last.start + ms);
    },
    timeline(kind, detail) {
      host.timeline(kind, detail);
      if (kind === "relay.ended") conversation.close(callSid, host.now());
    },
  };
}

/** The caller starts speaking to a relay app: their words join the conversation (as the caller's voice). */
export function relayCallerSpoke(reg: CallRegistry, rt: CallRuntime, conversation: ConversationAudio): void {
  const utterance = sounding(rt.speech, reg.now());
  if (!utterance) return;
  conversation.heard(rt.sid, "caller", utterance.start, {
    text: utterance.text,
    voice: "caller",
    fullMs: utterance.end - utterance.start,
  });
}
