// One media stream: a real WebSocket client to the app's URL, paced on the sandbox clock, never awaited on the real clock.
import type { StreamControl, StreamSpec } from "../../markup/effects.js";
import { loadSpeech } from "../speech/speech-audio.js";
import type { ClockMode } from "../time/clock.js";
import { type EventHandle, eventClass, type Scheduler } from "../time/scheduler.js";
import { quietAgentMs } from "./agent-turns.js";
import { type AppSocket, openAppSocket } from "./app-socket.js";
import { type AppMessage, frameMs, messages, readAppMessage, trackNames } from "./stream-protocol.js";

/** Sent but unread bytes kept for a slow app; past this, media frames are dropped instead of piling up. */
export const maxBufferedBytes = 1024 * 1024;
/** Audio chunks and marks the app may have queued for playback at once (audio chunks in a row merge into one). */
export const maxQueuedPlayback = 10_000;
/** Bytes of the app's audio queued at once (about 17 minutes of mu-law); more is dropped like too many chunks. */
export const maxQueuedAudioBytes = 8 * 1024 * 1024;

export type StreamEvent = "stream-started" | "stream-stopped" | "stream-error";

/** What a session needs from the engine; every call into it happens inside a scheduler event or a socket event. */
export interface StreamSessionHost {
  readonly scheduler: Scheduler;
  clockMode(): ClockMode;
  now(): number;
  readonly accountSid: string;
  readonly callSid: string;
  /** Signs the upgrade request (X-Twilio-Signature). */
  readonly authToken: string;
  /** True while the caller speaks at `at` (when they stop, the app's answer is awaited). */
  callerSpeaking(at: number): boolean;
  /**
   * The 20 ms of a track from `at`, base64 mu-law: inbound the caller's speech, outbound what the sandbox
   * plays to the caller (<Say>, <Play>, digits).
   */
  trackAudio(track: "inbound" | "outbound", at: number): string;
  /** The app's audio that played to the caller from `at` (mu-law, 8 bytes a millisecond): recordings keep it. */
  played(at: number, audio: Uint8Array): void;
  timeline(kind: string, detail?: Record<string, unknown>): void;
  alert(code: number, message: string, level?: "error" | "warning"): void;
  statusCallback(spec: StreamSpec, sid: string, event: StreamEvent, error?: string): void;
  /** A bidirectional stream's app stopped playing audio (or has not started): the caller's next untimed step answers it. */
  listening(): void;
  /** The app's audio starts playing to the caller. */
  talking(): void;
  /** The stream is over (closed by either side, or never opened): the verb waiting on it moves on. */
  ended(sid: string): void;
}

type State = "connecting" | "open" | "stopping" | "ended";
type Queued = { kind: "audio"; ms: number } | { kind: "mark"; name: string };

export interface StreamSession extends StreamControl {
  /** Drops the socket at once, without a stop message (sandbox reset). */
  terminate(): void;
}

/** A `ws:`/`wss:` URL for the socket: relative URLs resolve against the document, http(s) becomes ws(s). */
export function socketUrl(url: string, base: string | null): URL | null {
  try {
    const resolved = new URL(url, base ?? undefined);
    if (resolved.protocol === "https:") resolved.protocol = "wss:";
    if (resolved.protocol === "http:") resolved.protocol = "ws:";
    return resolved.protocol === "ws:" || resolved.protocol === "wss:" ? resolved : null;
  } catch {
    return null;
  }
}

export function openStreamSession(host: StreamSessionHost, sid: string, spec: StreamSpec): StreamSession {
  const { scheduler } = host;
  let state: State = "connecting";
  let socket: AppSocket | null = null;
  let sequence = 0;
  let chunk = 0;
  let startedAt = 0;
  let tick: EventHandle | null = null;
  const playback: Queued[] = [];
  /** The app's queued audio bytes, in step with the queue's milliseconds (8 bytes each); `audioHead` is read so far. */
  const audio: Uint8Array[] = [];
  let audioHead = 0;
  let queuedAudioBytes = 0;
  let playedMs = 0;
  let marksEchoed = 0;
  let droppedFrames = 0;
  let refused = 0;
  /** The app's audio is playing now, and how much of it has played since it started (one utterance). */
  let talking = false;
  let utteranceMs = 0;
  /** The caller was speaking at the last frame; a turn of theirs arms `quiet` (see agent-turns.ts). */
  let callerWasSpeaking = false;
  let quiet: EventHandle | null = null;
  /** Message kinds sent to and taken from the app, in the order each first went (for expectations). */
  const sent = new Set<string>();
  const received = new Set<string>();
  let endedBy: "app" | "call" | "error" = "call";
  const virtual = () => host.clockMode() === "virtual";

  const send = (message: { event: string }) => {
    sent.add(message.event);
    socket?.send(message);
  };
  /** Virtual clock: the app has read everything sent so far (see app-socket.ts). */
  const lockstep = () => socket?.caughtUp() ?? Promise.resolve();

  /** The caller's turn ended: if the app plays nothing for a while, the caller may go on. */
  const awaitAnswer = () => {
    if (!spec.bidirectional) return;
    scheduler.cancel(quiet);
    quiet = scheduler.after(quietAgentMs, eventClass.timer, `stream quiet ${sid}`, () => {
      quiet = null;
      if (state === "open" && !talking) host.listening();
    });
  };

  /** `notify`: the verb waiting on the stream hears of it (not when the verb itself stopped the stream). */
  const finish = (notify = true) => {
    if (state === "ended") return;
    state = "ended";
    scheduler.cancel(tick);
    scheduler.cancel(quiet);
    tick = null;
    if (talking) host.timeline("stream.played", { sid, ms: utteranceMs });
    host.timeline("stream.ended", {
      sid,
      url: spec.url,
      chunks: chunk,
      playedMs,
      marks: marksEchoed,
      droppedFrames,
      refused,
      endedBy,
      sent: [...sent],
      received: [...received],
    });
    if (notify) host.ended(sid);
  };

  /** The stream could not start or broke: an alert, the stream-error callback, and the end. */
  const fail = (code: number, message: string) => {
    if (state === "ended") return;
    endedBy = "error";
    host.alert(code, `${message} (${spec.url})`);
    host.statusCallback(spec, sid, "stream-error", message);
    socket?.terminate();
    finish();
  };

  /** Takes `bytes` of the app's queued audio off the front. */
  const takeAudio = (bytes: number): Uint8Array => {
    const out = new Uint8Array(bytes);
    let filled = 0;
    while (filled < bytes && audio.length > 0) {
      const chunk = audio[0]!;
      const used = Math.min(bytes - filled, chunk.length - audioHead);
      out.set(chunk.subarray(audioHead, audioHead + used), filled);
      filled += used;
      audioHead += used;
      if (audioHead === chunk.length) {
        audio.shift();
        audioHead = 0;
      }
    }
    queuedAudioBytes -= filled;
    return filled === bytes ? out : out.subarray(0, filled);
  };

  /** Drops the app's queued audio (clear). */
  const dropAudio = () => {
    audio.length = 0;
    audioHead = 0;
    queuedAudioBytes = 0;
  };

  /** Plays `ms` of the app's queued audio from `at`; marks whose audio has all played are echoed back. */
  const play = (ms: number, at: number) => {
    let budget = ms;
    while (playback.length > 0) {
      const head = playback[0]!;
      if (head.kind === "mark") {
        playback.shift();
        marksEchoed++;
        host.timeline("stream.mark", { sid, name: head.name });
        send(messages.mark(++sequence, sid, head.name));
        continue;
      }
      const used = Math.min(budget, head.ms);
      head.ms -= used;
      budget -= used;
      if (used > 0) host.played(at + (ms - budget - used), takeAudio(used * 8));
      playedMs += used;
      if (head.ms > 0) break;
      playback.shift();
    }
  };

  /** False when the item was refused (the queue is full). */
  const enqueue = (item: Queued): boolean => {
    const last = playback.at(-1);
    if (item.kind === "audio" && last?.kind === "audio") {
      last.ms += item.ms;
      return true;
    }
    if (playback.length >= maxQueuedPlayback) {
      refuse(`more than ${maxQueuedPlayback} audio chunks and marks queued; the ${item.kind} was dropped`);
      return false;
    }
    playback.push(item);
    return true;
  };

  /** A message Twilio would not take: warning 31951 once per stream (as Twilio sends it), the rest only counted. */
  const refuse = (reason: string) => {
    refused++;
    if (refused === 1) {
      host.alert(31951, `Stream - Protocol - Invalid Message: ${reason} (${spec.url})`, "warning");
    }
  };

  const apply = (message: AppMessage) => {
    received.add(message.event);
    if (message.streamSid !== sid) {
      refuse(`streamSid ${JSON.stringify(message.streamSid)} is not this stream's (${sid})`);
      return;
    }
    if (!spec.bidirectional) {
      refuse(`a unidirectional stream takes no ${message.event} messages`);
      return;
    }
    if (message.event === "media") {
      const bytes = Buffer.from(message.media.payload, "base64");
      if (queuedAudioBytes + bytes.length > maxQueuedAudioBytes) {
        refuse(`more than ${maxQueuedAudioBytes} bytes of audio queued; the media was dropped`);
        return;
      }
      if (!enqueue({ kind: "audio", ms: bytes.length / 8 })) return;
      audio.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
      queuedAudioBytes += bytes.length;
    } else if (message.event === "mark") {
      enqueue({ kind: "mark", name: message.mark.name });
      // A mark with no audio before it is answered at once.
      play(0, host.now());
    } else {
      // clear: queued audio is dropped; the marks waiting behind it are answered.
      dropAudio();
      for (const item of playback.splice(0)) {
        if (item.kind !== "mark") continue;
        marksEchoed++;
        host.timeline("stream.mark", { sid, name: item.name, cleared: true });
        send(messages.mark(++sequence, sid, item.name));
      }
      host.timeline("stream.clear", { sid });
    }
  };

  /** Chunk `n` covers [20(n-1), 20n) ms of the stream; it leaves when its 20 ms have passed. */
  const scheduleTick = () => {
    tick = scheduler.at(startedAt + (chunk + 1) * frameMs, eventClass.input, `stream ${sid}`, () => frame());
  };

  const frame = (): Promise<void> | undefined => {
    tick = null;
    if (state !== "open" || !socket) return undefined;
    chunk++;
    const at = startedAt + (chunk - 1) * frameMs;
    const callerSpeaking = host.callerSpeaking(at);
    if (callerWasSpeaking && !callerSpeaking) awaitAnswer();
    callerWasSpeaking = callerSpeaking;
    if (socket.bufferedAmount > maxBufferedBytes) droppedFrames++;
    else {
      for (const track of trackNames(spec.track)) {
        send(messages.media(++sequence, sid, track, chunk, host.trackAudio(track, at)));
      }
    }
    const before = playedMs;
    play(frameMs, at);
    // The app talks from the first frame its audio plays until a frame plays none of it.
    if (playedMs > before) {
      if (!talking) {
        talking = true;
        scheduler.cancel(quiet);
        quiet = null;
        host.talking();
      }
      utteranceMs += playedMs - before;
    } else if (talking) {
      talking = false;
      host.timeline("stream.played", { sid, ms: utteranceMs });
      utteranceMs = 0;
      host.listening();
    }
    scheduleTick();
    return virtual() ? lockstep() : undefined;
  };

  const onOpen = () => {
    if (state !== "connecting") return;
    state = "open";
    startedAt = host.now();
    host.timeline("stream.started", {
      sid,
      url: spec.url,
      track: spec.track,
      name: spec.name,
      bidirectional: spec.bidirectional,
      parameters: spec.parameters,
    });
    send(messages.connected());
    send(
      messages.start(++sequence, {
        streamSid: sid,
        accountSid: host.accountSid,
        callSid: host.callSid,
        track: spec.track,
        customParameters: spec.parameters,
      }),
    );
    host.statusCallback(spec, sid, "stream-started");
    scheduleTick();
    // The app has said nothing yet: a caller with something to say goes first.
    if (spec.bidirectional) host.listening();
  };

  const onClose = (code: number, reason: string) => {
    if (state === "ended") return;
    if (state === "open") {
      endedBy = code === 1000 || code === 1005 ? "app" : "error";
      host.timeline("stream.closed", { sid, code, reason });
      // The app ended the stream: a clean close is how <Connect><Stream> hands the call back. A socket
      // dropped without a close frame is 31903 (broken pipe); any other close code is 31921.
      if (code !== 1000 && code !== 1005) {
        const detail = `the socket closed with code ${code}${reason ? ` (${reason})` : ""} (${spec.url})`;
        if (code === 1006) host.alert(31903, `Stream - WebSocket - Connection Broken Pipe: ${detail}`);
        else host.alert(31921, `Stream - WebSocket - Close Error: ${detail}`);
        host.statusCallback(spec, sid, "stream-error", `WebSocket closed with code ${code}`);
      }
      host.statusCallback(spec, sid, "stream-stopped");
    }
    finish();
  };

  const connect = (url: URL): Promise<void> => {
    const opened = openAppSocket(
      { url, scheduler, virtual, label: `stream ${sid}`, authToken: host.authToken },
      {
        open: onOpen,
        refused: (status) =>
          fail(
            31920,
            `Stream - WebSocket - Handshake Error: the server answered HTTP ${status} instead of 101`,
          ),
        unreachable: (message) => fail(31901, `Stream - WebSocket - Connection Timeout: ${message}`),
        protocolError: (message) => {
          if (state === "open")
            host.alert(31924, `Stream - WebSocket - Protocol Error: ${message} (${spec.url})`);
        },
        message: (text) => {
          if (state !== "open") return;
          if (text === null) return refuse("binary frames are not part of the protocol");
          const read = readAppMessage(text);
          if ("error" in read) refuse(read.error);
          else apply(read.message);
        },
        close: onClose,
      },
    );
    socket = opened.socket;
    return opened.connected;
  };

  const start = () => {
    const url = socketUrl(spec.url, null);
    if (!url) {
      fail(31920, "Stream - WebSocket - Handshake Error: the url is not a ws:// or wss:// URL");
      return;
    }
    const opened = connect(url);
    // The virtual clock stands still while the socket opens, as it does for a markup request, and until
    // speech synthesis is ready, so every frame is the same bytes run after run. On the real clock frames
    // carry the placeholder tone for the moment synthesis takes to load.
    const speech = loadSpeech();
    return virtual() ? Promise.all([opened, speech]).then(() => undefined) : undefined;
  };
  scheduler.after(0, eventClass.input, `stream connect ${sid}`, start);

  return {
    sid,
    ended: () => state === "ended",
    dtmf(digit) {
      if (state !== "open") return;
      host.timeline("stream.dtmf", { sid, digit });
      send(messages.dtmf(++sequence, sid, digit));
      awaitAnswer();
    },
    stop() {
      if (state === "ended" || state === "stopping") return;
      if (state === "connecting") {
        socket?.terminate();
        finish(false);
        return;
      }
      state = "stopping";
      scheduler.cancel(tick);
      tick = null;
      send(messages.stop(++sequence, sid, host.accountSid, host.callSid));
      host.statusCallback(spec, sid, "stream-stopped");
      socket?.close(1000);
      finish(false);
      // Virtual clock: the clock waits for the app to read `stop` and the close to finish, as it waits for frames.
      if (virtual()) scheduler.after(0, eventClass.control, `stream stop ${sid}`, lockstep);
    },
    terminate() {
      socket?.terminate();
      if (state !== "ended") {
        state = "ended";
        scheduler.cancel(quiet);
        scheduler.cancel(tick);
      }
    },
  };
}
