// One ConversationRelay session: the text protocol over the app's WebSocket; caller speech in as prompts, the app's words out as speech.
import type { HeardEntry, RelayControl, RelayResult, RelaySpec } from "../../markup/effects.js";
import { speechLengthMs } from "../../markup/speech-length.js";
import { digitLengthMs, playLengthMs } from "../../markup/verbs/play.js";
import type { ClockMode } from "../clock.js";
import { type EventHandle, eventClass, type Scheduler } from "../scheduler.js";
import { quietAgentMs } from "./agent-turns.js";
import { type AppSocket, openAppSocket } from "./app-socket.js";
import { type RelayAppMessage, readRelayMessage, relayMessages, type SetupInfo } from "./relay-protocol.js";
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
  tts(text: string, voice: string, language: string): void;
  /** The agent has stopped talking: the scripted caller's next untimed step answers it. */
  listening(): void;
  /** The agent starts talking (after being quiet): a caller step waiting to cut in is armed. */
  talking(): void;
  /** The session is over (either side, or it never opened): the verb waiting on it moves on. */
  ended(): void;
}

type State = "connecting" | "open" | "ended";
type Speech =
  | { kind: "say"; text: string; interruptible: boolean }
  | { kind: "play"; url: string; loops: number; interruptible: boolean }
  | { kind: "digits"; digits: string };

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
      host.tts(item.text, spec.voice, ttsLanguage);
      host.heard({ kind: "say", text: item.text, voice: spec.voice, language: ttsLanguage });
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

  const enqueue = (item: Speech) => {
    if (queue.length >= maxQueuedSpeech) {
      send(relayMessages.error(`More than ${maxQueuedSpeech} items queued to play; this one was dropped`));
      return;
    }
    queue.push(item);
    playNext();
  };

  const flushText = (interruptible: boolean) => {
    const text = pending.join("").trim();
    pending = [];
    pendingChars = 0;
    if (text !== "") enqueue({ kind: "say", text, interruptible });
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
        if (message.last || pendingChars > maxPendingTextChars) {
          flushText(message.interruptible ?? spec.interruptible);
        }
        return;
      }
      case "play":
        enqueue({
          kind: "play",
          url: message.source,
          loops: message.loop === 0 ? 1 : (message.loop ?? 1),
          interruptible: message.interruptible ?? spec.interruptible,
        });
        return;
      case "sendDigits":
        enqueue({ kind: "digits", digits: message.digits });
        return;
      case "language":
        ttsLanguage = message.ttsLanguage ?? ttsLanguage;
        transcriptionLanguage = message.transcriptionLanguage ?? transcriptionLanguage;
        host.timeline("relay.language", { ttsLanguage, transcriptionLanguage });
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
    host.timeline("relay.started", { sessionId, url: spec.url, parameters: spec.parameters });
    send(relayMessages.setup({ ...host.call, sessionId, customParameters: spec.parameters }));
    if (spec.welcomeGreeting) {
      enqueue({ kind: "say", text: spec.welcomeGreeting, interruptible: spec.welcomeGreetingInterruptible });
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

  return {
    sessionId,
    ended: () => state === "ended",
    result: () => result,
    prompt(text) {
      if (state !== "open") return;
      host.timeline("relay.prompt", { sessionId, text });
      send(relayMessages.prompt(text, transcriptionLanguage));
      awaitReply();
      awaitAnswer();
    },
    speechStarted() {
      // The caller talks over the agent: what is playing stops if it may be interrupted, with what was said so far.
      if (state !== "open" || !playing || playing.item.kind === "digits" || !playing.item.interruptible)
        return;
      const elapsed = host.now() - playing.startedAt;
      const text = playing.item.kind === "say" ? playing.item.text : "";
      const words = text.split(/\s+/).filter(Boolean);
      const said = words.slice(0, Math.floor((words.length * elapsed) / playing.ms)).join(" ");
      scheduler.cancel(playing.handle);
      playing = null;
      queue.length = 0;
      // Quiet now, but the caller is still talking: the next step waits for the agent's answer to end.
      talking = false;
      host.timeline("relay.interrupt", { sessionId, said, ms: elapsed });
      send(relayMessages.interrupt(said, elapsed));
    },
    dtmf(digit) {
      if (state !== "open" || !spec.dtmfDetection) return;
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
