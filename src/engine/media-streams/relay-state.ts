// A ConversationRelay session's state and what the engine gives it, with the steps every part of the session shares: send, refuse, fail, finish.
import type { HeardEntry, RelayInputs, RelayResult, RelaySpec } from "../../markup/effects.js";
import type { ClockMode } from "../time/clock.js";
import { type EventHandle, eventClass, type Scheduler } from "../time/scheduler.js";
import { realMs, realNow } from "./agent-turns.js";
import type { AppSocket } from "./app-socket.js";
import type { Conversation } from "./conversation.js";
import { relayMessages, type SetupInfo } from "./relay-protocol.js";

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
  /** Whether the caller's latest words are a backchannel ("uh-huh" while the agent talks: no turn). */
  callerBackchannel(): boolean;
  /** The agent has stopped talking: the scripted caller's next untimed step answers it. */
  listening(): void;
  /** The agent starts talking (after being quiet): a caller step waiting to cut in is armed. */
  talking(): void;
  /** Real ms the virtual clock waits for an app that owes the call an answer (agentTurnTimeout). */
  agentTurnTimeoutMs(): number;
  /** The sandbox waited `ms` of real time for the app's answer to turn `n` (null: it did not answer). */
  agentWaited(n: number, ms: number | null): void;
  /** The session is over (either side, or it never opened): the verb waiting on it moves on. */
  ended(): void;
}

type State = "connecting" | "open" | "ended";
/** What the agent plays: text (in a language), audio, or digits; what may cut it, and whether the app's next item may. */
export type Speech =
  | { kind: "say"; text: string; language: string; interruptible: RelayInputs; preemptible: boolean }
  | { kind: "play"; url: string; loops: number; interruptible: RelayInputs; preemptible: boolean }
  | { kind: "digits"; digits: string };
/** The item playing now: since when, for how long, and the timer that ends it. */
export interface Playing {
  item: Speech;
  startedAt: number;
  ms: number;
  handle: EventHandle;
}

/** One session's state: what the session's named steps share. */
export interface RelayState {
  readonly host: RelaySessionHost;
  readonly sessionId: string;
  readonly spec: RelaySpec;
  state: State;
  socket: AppSocket | null;
  startedAt: number;
  result: RelayResult;
  ttsLanguage: string;
  transcriptionLanguage: string;
  pending: string[];
  pendingChars: number;
  /** What the tokens of the utterance being gathered asked for (the last token saying it wins). */
  pendingOptions: { lang?: string; interruptible?: boolean | string; preemptible?: boolean };
  readonly queue: Speech[];
  playing: Playing | null;
  received: number;
  invalid: number;
  talking: boolean;
  /** Armed by the caller's prompt or key: an app that says nothing for a while lets the caller go on. */
  quiet: EventHandle | null;
  /** Virtual clock: checks run on every message from the app and on close (the reply waits). */
  readonly checks: Set<() => void>;
  /** Turns, answers, barge-ins, talk-over and silences, written to the timeline as `agent.*` entries. */
  conversation: Conversation | null;
  /** The caller's turn the app owes an answer to: its number, since when (real ms), whether it answered. */
  owed: { n: number; realSince: number; answered: boolean; timer: EventHandle | null } | null;
  /** When the caller's words began (a prompt is sent when they end). */
  callerSince: number | null;
}

export function newRelayState(host: RelaySessionHost, sessionId: string, spec: RelaySpec): RelayState {
  return {
    host,
    sessionId,
    spec,
    state: "connecting",
    socket: null,
    startedAt: host.now(),
    result: { status: "failed", durationSeconds: 0, handoffData: null },
    ttsLanguage: spec.ttsLanguage,
    transcriptionLanguage: spec.transcriptionLanguage,
    pending: [],
    pendingChars: 0,
    pendingOptions: {},
    queue: [],
    playing: null,
    received: 0,
    invalid: 0,
    talking: false,
    quiet: null,
    checks: new Set<() => void>(),
    conversation: null,
    owed: null,
    callerSince: null,
  };
}

export const relayVirtual = (r: RelayState) => r.host.clockMode() === "virtual";

export const sendToRelayApp = (r: RelayState, message: object) => r.socket?.send(message);

/** The app sent something (any message): an answer it owed is answered. */
export function relayAppSpoke(r: RelayState): void {
  const { owed } = r;
  r.conversation?.answered();
  if (!owed || owed.answered) return;
  owed.answered = true;
  r.host.scheduler.cancel(owed.timer);
  r.conversation?.answered();
  if (relayVirtual(r)) r.host.agentWaited(owed.n, realMs(realNow() - owed.realSince));
}

/** Runs the virtual clock's waiting checks (see awaitReply in relay-turns.ts). */
export function runRelayChecks(r: RelayState): void {
  for (const check of [...r.checks]) check();
}

/** Closes the socket; on the virtual clock time waits until the app has read what was sent and the close is done. */
export function closeRelaySocket(r: RelayState): void {
  r.socket?.close(1000);
  const closing = r.socket;
  if (relayVirtual(r) && closing) {
    r.host.scheduler.after(0, eventClass.control, `relay close ${r.sessionId}`, () => closing.caughtUp());
  }
}

/** The session is over: a turn still owed an answer is recorded as not answered, and the last turn is written. */
function endRelayConversation(r: RelayState, reason: "closed" | "ended"): void {
  const { owed, conversation, host } = r;
  if (owed && !owed.answered) {
    conversation?.unanswered(reason, host.agentTurnTimeoutMs());
    host.agentWaited(owed.n, null);
  }
  if (owed) host.scheduler.cancel(owed.timer);
  r.owed = null;
  conversation?.close(host.now());
  r.conversation = null;
}

/** `notify`: the verb waiting on the session hears of it (not when the verb itself stopped it). */
export function finishRelay(
  r: RelayState,
  status: RelayResult["status"],
  extra: Partial<RelayResult> = {},
  notify = true,
): void {
  if (r.state === "ended") return;
  const { host } = r;
  const { scheduler } = host;
  const opened = r.state === "open";
  r.state = "ended";
  scheduler.cancel(r.playing?.handle);
  scheduler.cancel(r.quiet);
  r.playing = null;
  r.queue.length = 0;
  // The verb stopping the session is the call ending or moving on; else the app closed it (or it broke).
  endRelayConversation(r, notify ? "closed" : "ended");
  r.result = {
    status,
    durationSeconds: Math.round((host.now() - r.startedAt) / 1000),
    handoffData: null,
    ...extra,
  };
  host.timeline("relay.ended", {
    sessionId: r.sessionId,
    url: r.spec.url,
    status,
    durationSeconds: opened ? r.result.durationSeconds : 0,
    handoffData: r.result.handoffData,
    received: r.received,
    invalid: r.invalid,
  });
  runRelayChecks(r);
  if (notify) host.ended();
}

/** The session could not open: an alert, the socket dropped, and the end. */
export function failRelay(r: RelayState, code: number, message: string): void {
  if (r.state === "ended") return;
  r.host.alert(code, `${message} (${r.spec.url})`);
  r.socket?.terminate();
  finishRelay(r, "failed", { errorCode: code, errorMessage: message });
}

/** The app sent something Twilio would not take: an `error` back, alert 64107 once, the rest counted. */
export function refuseRelayMessage(r: RelayState, description: string): void {
  r.invalid++;
  sendToRelayApp(r, relayMessages.error(description));
  if (r.invalid === 1) r.host.alert(64107, `ConversationRelay: Invalid Message Received: ${description}`);
}
