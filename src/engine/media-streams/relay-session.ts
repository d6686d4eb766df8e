// One ConversationRelay session: the text protocol over the app's WebSocket; caller speech in as prompts, the app's words out as speech.
import type { HeardEntry, RelayControl, RelayInputs, RelayResult, RelaySpec } from "../../markup/effects.js";
import { speechLengthMs } from "../../markup/speech-length.js";
import { digitLengthMs, playLengthMs } from "../../markup/verbs/play.js";
import type { ClockMode } from "../time/clock.js";
import { type EventHandle, eventClass, type Scheduler } from "../time/scheduler.js";
import { quietAgentMs } from "./agent-turns.js";
import { type AppSocket, openAppSocket } from "./app-socket.js";
import { type RelayAppMessage, readRelayMessage, relayMessages, type SetupInfo } from "./relay-protocol.js";
import { sttFor, ttsFor } from "./relay-voices.js";
import { socketUrl } from "./stream-session.js";

/** Text tokens kept for one utterance before it is spoken anyway (an app that never sends `last`). */
export const maxPendingTextChars = 16 * 1024;
/** Utterances, audio and digits queued to play at once; more is dropped with an `error` to the app. */
export const maxQueuedSpeech = 1_000;
/** Virtual clock: real milliseconds the clock waits for the app's first reply to a prompt or key... */
const replyStartMs = 1_000;
/** ...and for the rest of a reply once its first token came. */
const replyEndMs = 5_000;

export interface RelaySessionHost {
  readonly scheduler: Scheduler;
  clockMode(): ClockMode;
  now(): number;
  readonly authToken: string;
  /** The call as the setup message describes it. */
  readonly call: Omit<SetupInfo, "sessionId" | "customParameters">;
  timeline(kind: string, detail?: Record<string, unknown>): void;
  alert(code: number, message: string, level?: "error" | "warning"): void;
  /** What the caller hears: the greeting and the app's words, audio and digits. */
  heard(entry: Omit<HeardEntry, "at">): void;
  /** What the caller heard last was cut short: it sounded `ms`, `said` its words by then. */
  cutHeard(ms: number, said: string): void;
  tts(text: string, voice: string, language: string): void;
  /** The agent has stopped talking: the scripted caller's next untimed step answers it. */
  listening(): void;
  /** The agent starts talking (after being quiet): a caller step waiting to cut in is armed. */
  talking(): void;
  /** The session is over (either side, or it never opened): the verb waiting on it moves on. */
  ended(): void;
}

type State = "connecting" | "open" | "ended";
/** What the agent plays: text (in a language), audio, or digits; what may cut it, and whether the app's next item may. */
type Speech =
  | { kind: "say"; text: string; language: string; interruptible: RelayInputs; preemptible: boolean }
  | { kind: "play"; url: string; loops: number; interruptible: RelayInputs; preemptible: boolean }
  | { kind: "digits"; digits: string };

const never: RelayInputs = { speech: false, dtmf: false };
/** A message's `interruptible`: a boolean (true any, false none) or none/dtmf/speech/any. */
const inputsOf = (value: boolean | string | undefined, fallback: RelayInputs): RelayInputs => {
  if (value === undefined) return fallback;
  const v = String(value);
  if (v === "true" || v === "any") return { speech: true, dtmf: true };
  if (v === "speech") return { speech: true, dtmf: false };
  if (v === "dtmf") return { speech: false, dtmf: true };
  return never;
};

export function openRelaySession(host: RelaySessionHost, sessionId: string, spec: RelaySpec): RelayControl {
  const { scheduler } = host;
  const virtual = () => host.clockMode() === "virtual";
  let state: State = "connecting";
  let socket: AppSocket | null = null;
  let startedAt = host.now();
  let result: RelayResult = { status: "failed", durationSeconds: 0, handoffData: null };
  let ttsLanguage = spec.ttsLanguage;
  let transcriptionLanguage = spec.transcriptionLanguage;
  let pending: string[] = [];
  let pendingChars = 0;
  /** What the tokens of the utterance being gathered asked for (the last token saying it wins). */
  let pendingOptions: { lang?: string; interruptible?: boolean | string; preemptible?: boolean } = {};
  const queue: Speech[] = [];
  let playing: { item: Speech; startedAt: number; ms: number; handle: EventHandle } | null = null;
  let received = 0;
  let invalid = 0;
  let talking = false;
  /** Armed by the caller's prompt or key: an app that says nothing for a while lets the caller go on. */
  let quiet: EventHandle | null = null;
  const awaitAnswer = () => {
    scheduler.cancel(quiet);
    quiet = scheduler.after(quietAgentMs, eventClass.timer, `relay quiet ${sessionId}`, () => {
      quiet = null;
      if (state === "open" && !talking && !playing && queue.length === 0) host.listening();
    });
  };
  /** Virtual clock: checks run on every message from the app and on close (the reply waits). */
  const checks = new Set<() => void>();

  const send = (message: object) => socket?.send(message);
  /** Closes the socket; on the virtual clock time waits until the app has read what was sent and the close is done. */
  const closeSocket = () => {
    socket?.close(1000);
    const closing = socket;
    if (virtual() && closing) {
      scheduler.after(0, eventClass.control, `relay close ${sessionId}`, () => closing.caughtUp());
    }
  };

  /** `notify`: the verb waiting on the session hears of it (not when the verb itself stopped it). */
  const finish = (status: RelayResult["status"], extra: Partial<RelayResult> = {}, notify = true) => {
    if (state === "ended") return;
    const opened = state === "open";
    state = "ended";
    scheduler.cancel(playing?.handle);
    scheduler.cancel(quiet);
    playing = null;
    queue.length = 0;
    result = {
      status,
      durationSeconds: Math.round((host.now() - startedAt) / 1000),
      handoffData: null,
      ...extra,
    };
    host.timeline("relay.ended", {
      sessionId,
      url: spec.url,
      status,
      durationSeconds: opened ? result.durationSeconds : 0,
      handoffData: result.handoffData,
      received,
      invalid,
    });
    for (const check of [...checks]) check();
    if (notify) host.ended();
  };

  const lengthOf = (item: Speech) =>
    item.kind === "say"
      ? speechLengthMs(item.text)
      : item.kind === "play"
        ? playLengthMs * item.loops
        : item.digits.length * digitLengthMs;

  /** Plays the next queued utterance, audio or digits, one after another on the clock. */
  const playNext = () => {
    if (playing || state !== "open") return;
    const item = queue.shift();
    if (!item) return;
    if (!talking) {
      talking = true;
      scheduler.cancel(quiet);
      quiet = null;
      host.talking();
    }
    if (item.kind === "say") {
      const { voice } = ttsFor(spec, item.language);
      host.tts(item.text, voice, item.language);
      host.heard({ kind: "say", text: item.text, voice, language: item.language });
    } else if (item.kind === "play") host.heard({ kind: "play", url: item.url });
    else host.heard({ kind: "digits", text: item.digits });
    const ms = lengthOf(item);
    const handle = scheduler.after(ms, eventClass.timer, `relay speech ${sessionId}`, () => {
      playing = null;
      if (queue.length === 0) {
        talking = false;
        host.listening();
      }
      playNext();
    });
    playing = { item, startedAt: host.now(), ms, handle };
  };

  /** Stops what is playing now: the caller heard it up to here, the words said by then (in proportion to its time). */
  const cutPlaying = (current: NonNullable<typeof playing>): { said: string; elapsed: number } => {
    const elapsed = host.now() - current.startedAt;
    const text = current.item.kind === "say" ? current.item.text : "";
    const words = text.split(/\s+/).filter(Boolean);
    const said = words.slice(0, Math.floor((words.length * elapsed) / current.ms)).join(" ");
    scheduler.cancel(current.handle);
    playing = null;
    host.cutHeard(elapsed, said);
    return { said, elapsed };
  };

  /** The app's next item cuts a preemptible one playing, and drops preemptible ones still queued. */
  const preempt = () => {
    const current = playing;
    if (current && current.item.kind !== "digits" && current.item.preemptible) {
      const { elapsed } = cutPlaying(current);
      host.timeline("relay.preempted", { sessionId, ms: elapsed });
    }
    for (let i = queue.length - 1; i >= 0; i--) {
      const queued = queue[i]!;
      if (queued.kind !== "digits" && queued.preemptible) queue.splice(i, 1);
    }
  };

  const enqueue = (item: Speech) => {
    if (item.kind !== "digits") preempt();
    if (queue.length >= maxQueuedSpeech) {
      send(relayMessages.error(`More than ${maxQueuedSpeech} items queued to play; this one was dropped`));
      return;
    }
    queue.push(item);
    playNext();
  };

  const flushText = () => {
    const text = pending.join("").trim();
    const options = pendingOptions;
    pending = [];
    pendingChars = 0;
    pendingOptions = {};
    if (text === "") return;
    enqueue({
      kind: "say",
      text,
      language: options.lang ?? ttsLanguage,
      interruptible: inputsOf(options.interruptible, spec.interruptible),
      preemptible: options.preemptible ?? spec.preemptible,
    });
  };

  /** The app sent something Twilio would not take: an `error` back, alert 64107 once, the rest counted. */
  const refuse = (description: string) => {
    invalid++;
    send(relayMessages.error(description));
    if (invalid === 1) host.alert(64107, `ConversationRelay: Invalid Message Received: ${description}`);
  };

  const apply = (message: RelayAppMessage) => {
    switch (message.type) {
      case "text": {
        pending.push(message.token);
        pendingChars += message.token.length;
        if (message.lang !== undefined) pendingOptions.lang = message.lang;
        if (message.interruptible !== undefined) pendingOptions.interruptible = message.interruptible;
        if (message.preemptible !== undefined) pendingOptions.preemptible = message.preemptible;
        if (message.last || pendingChars > maxPendingTextChars) flushText();
        return;
      }
      case "play":
        enqueue({
          kind: "play",
          url: message.source,
          loops: message.loop === 0 ? 1 : (message.loop ?? 1),
          interruptible: inputsOf(message.interruptible, spec.interruptible),
          preemptible: message.preemptible ?? spec.preemptible,
        });
        return;
      case "sendDigits":
        enqueue({ kind: "digits", digits: message.digits });
        return;
      case "language":
        ttsLanguage = message.ttsLanguage ?? ttsLanguage;
        transcriptionLanguage = message.transcriptionLanguage ?? transcriptionLanguage;
        // The voice and recogniser follow the language: its nested <Language>, else the noun's own.
        host.timeline("relay.language", {
          ttsLanguage,
          transcriptionLanguage,
          ...ttsFor(spec, ttsLanguage),
          ...sttFor(spec, transcriptionLanguage),
        });
        return;
      case "end":
        host.timeline("relay.end", { handoffData: message.handoffData ?? null });
        closeSocket();
        finish("ended", { handoffData: message.handoffData ?? null });
        return;
    }
  };

  /**
   * Virtual clock: after a prompt or a key the clock waits for the app's answer (up to 1 s for it to
   * start and 5 s for its last token, real time), so an app that answers after an `await` still speaks
   * at the same sandbox instant run after run.
   */
  const awaitReply = () => {
    if (!virtual()) return;
    const since = received;
    scheduler.after(
      0,
      eventClass.input,
      `relay reply ${sessionId}`,
      () =>
        new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(start);
            clearTimeout(end);
            checks.delete(check);
            resolve();
          };
          const start = setTimeout(() => received === since && done(), replyStartMs);
          const end = setTimeout(done, replyEndMs);
          const check = () => {
            if (state !== "open" || (received > since && pending.length === 0)) done();
          };
          checks.add(check);
          check();
        }),
    );
  };

  const onOpen = () => {
    if (state !== "connecting") return;
    state = "open";
    startedAt = host.now();
    // Providers, voices and hints shape recognition and synthesis, which the sandbox times rather than runs: recorded.
    host.timeline("relay.started", {
      sessionId,
      url: spec.url,
      parameters: spec.parameters,
      ttsLanguage,
      transcriptionLanguage,
      ...ttsFor(spec, ttsLanguage),
      ...sttFor(spec, transcriptionLanguage),
      hints: spec.hints,
      languages: Object.keys(spec.languages),
    });
    send(relayMessages.setup({ ...host.call, sessionId, customParameters: spec.parameters }));
    if (spec.welcomeGreeting) {
      enqueue({
        kind: "say",
        text: spec.welcomeGreeting,
        language: ttsLanguage,
        interruptible: spec.welcomeGreetingInterruptible,
        preemptible: spec.preemptible,
      });
    } else {
      talking = false;
      host.listening();
    }
  };

  const fail = (code: number, message: string) => {
    if (state === "ended") return;
    host.alert(code, `${message} (${spec.url})`);
    socket?.terminate();
    finish("failed", { errorCode: code, errorMessage: message });
  };

  const start = () => {
    const url = socketUrl(spec.url, null);
    if (!url) {
      fail(31920, "ConversationRelay: the url is not a ws:// or wss:// URL");
      return undefined;
    }
    const opened = openAppSocket(
      { url, scheduler, virtual, label: `relay ${sessionId}`, authToken: host.authToken },
      {
        open: onOpen,
        refused: (status) =>
          fail(31920, `ConversationRelay: the WebSocket server answered HTTP ${status} instead of 101`),
        unreachable: (message) => fail(31901, `ConversationRelay: the WebSocket did not open: ${message}`),
        protocolError: (message) => {
          if (state === "open") host.alert(64107, `ConversationRelay: WebSocket protocol error: ${message}`);
        },
        message: (text) => {
          if (state !== "open") return;
          received++;
          if (text === null) refuse("Invalid message received: a binary frame");
          else {
            const read = readRelayMessage(text);
            if ("error" in read) refuse(read.error);
            else apply(read.message);
          }
          for (const check of [...checks]) check();
        },
        close: (code, reason) => {
          if (state === "open") host.timeline("relay.closed", { sessionId, code, reason });
          finish("completed");
        },
      },
    );
    socket = opened.socket;
    return virtual() ? opened.connected : undefined;
  };
  scheduler.after(0, eventClass.input, `relay connect ${sessionId}`, start);

  /** The caller's speech or key cuts what the agent plays, if it may: the app hears what had been said by then. */
  const interrupt = (by: keyof RelayInputs) => {
    if (state !== "open" || !playing || playing.item.kind === "digits" || !playing.item.interruptible[by])
      return;
    const { said, elapsed } = cutPlaying(playing);
    queue.length = 0;
    // Quiet now, but the caller is still talking: the next step waits for the agent's answer to end.
    talking = false;
    host.timeline("relay.interrupt", { sessionId, said, ms: elapsed, by });
    send(relayMessages.interrupt(said, elapsed));
  };

  return {
    sessionId,
    ended: () => state === "ended",
    result: () => result,
    prompt(text) {
      if (state !== "open") return;
      // Words said while the agent talks on uncut are not reported unless reportInputDuringAgentSpeech says so.
      if (playing && !spec.reportInputDuringAgentSpeech.speech) {
        host.timeline("relay.ignored", { sessionId, text });
        return;
      }
      host.timeline("relay.prompt", { sessionId, text });
      send(relayMessages.prompt(text, transcriptionLanguage));
      awaitReply();
      awaitAnswer();
    },
    speechStarted() {
      interrupt("speech");
    },
    dtmf(digit) {
      if (state !== "open") return;
      interrupt("dtmf");
      if (!spec.dtmfDetection) return;
      if (playing && !spec.reportInputDuringAgentSpeech.dtmf) {
        host.timeline("relay.ignored", { sessionId, digit });
        return;
      }
      host.timeline("relay.dtmf", { sessionId, digit });
      send(relayMessages.dtmf(digit));
      awaitReply();
      awaitAnswer();
    },
    stop() {
      if (state === "ended") return;
      // The call ended or moved on mid-session: the session is over, as completed as an app's close.
      if (state === "connecting") {
        socket?.terminate();
        finish("failed", { errorMessage: "the call ended before the WebSocket opened" }, false);
        return;
      }
      closeSocket();
      finish("completed", {}, false);
    },
  };
}
