// The running call engine's shared state: live calls' runtimes, scripted parties, alerts, and the parts that drive them.
import { createHash } from "node:crypto";
import type { Call, CallStatusEvent } from "../../domain/call.js";
import { NewestRing } from "../../domain/newest-ring.js";
import type { Recording, SpeechSpan } from "../../domain/recording.js";
import type {
  DialTarget,
  Navigation,
  RecordingHandle,
  RecordingStart,
  VerbEnv,
  Wake,
} from "../../markup/effects.js";
import type { EngineServices } from "../context/engine-services.js";
import { recordEvent } from "../context/events.js";
import type { TranscriptionControl } from "../recordings/transcriptions.js";
import type { Conferences } from "../rooms/conferences.js";
import type { Queues } from "../rooms/queues.js";
import type { EventClass } from "../time/scheduler.js";
import type { CallRuntime } from "./call-runtime.js";
import type { CallEvent } from "./call-transitions.js";
import type { OwnNumberCalls } from "./own-number-calls.js";
import type { PartyBehaviour, PartyStep } from "./party-behaviour.js";
import type { StreamsPart } from "./stream-records.js";

export interface Alert {
  at: number;
  callSid: string;
  code: number;
  level: "error" | "warning";
  message: string;
}

/** An alert as the account API's Notifications show it: with its `NO` sid and the call's account. */
export interface Notice extends Alert {
  sid: string;
  /** The account of the call that raised it (null: not a call's, such as an engine error). */
  accountSid: string | null;
}

/** A notification's sid: `NO` and 32 hex digits, derived from the alert's place in the engine's count. */
const noticeSid = (n: number) =>
  `NO${createHash("sha256").update(`notification ${n}`).digest("hex").slice(0, 32)}`;

/** Lifecycle and transitions (call-lifecycle.ts): every status change of a call goes through `applyEvent`. */
export interface LifecyclePart {
  /** Applies one lifecycle event through the transition table; null when it does not apply. */
  applyEvent(sid: string, event: CallEvent): Call | null;
  /** Sends a status callback for `event` if the call subscribed to it. */
  sendStatus(rt: CallRuntime, call: Call, event: CallStatusEvent): void;
  /** Tells a Dial leg's parent program that the leg moved on. */
  signalParent(call: Call): void;
}

/** The simulated party on the far end of each leg (call-party.ts). */
export interface PartyPart {
  /** Who answers `number`: an injected fault, a script set for it, a test number, or the default. */
  behaviourFor(number: string): { behaviour: PartyBehaviour; scripted: boolean };
  runStep(rt: CallRuntime, step: PartyStep): void;
  speakNow(rt: CallRuntime, text: string, length: number, confidence: number): void;
  /** Arms the party's steps timed from connect (answer of a callee, start of an inbound caller). */
  connect(rt: CallRuntime): void;
  /** Arms the ringing of an outbound leg: ring, answer (or not), ring timeout. */
  consultCallee(rt: CallRuntime, call: Call): void;
  /** Unscripted parties on a bridge talk; `leaver` hangs up after a while. */
  talk(agent: CallRuntime, customer: CallRuntime, leaver: CallRuntime): void;
  /** sendDigits: DTMF tones to the answered party. */
  sendDigits(rt: CallRuntime, digits: string): void;
  /** The party a Dial target stands for when it is an agent extension with a status. */
  agentBehaviour(target: DialTarget): PartyBehaviour | null;
}

/** Dial legs and bridging (call-legs.ts). */
export interface LegsPart {
  startLeg(
    parent: CallRuntime,
    target: DialTarget,
    options: { callerId: string | null; timeout: number; timeLimit: number },
  ): string;
  bridge(parent: CallRuntime, childSid: string): void;
  agentTarget(accountSid: string, extension: string): DialTarget | null;
  ringGroup(accountSid: string, name: string): ReturnType<VerbEnv["ringGroup"]>;
}

/** Program stepping (call-program.ts): the markup of a call as a generator the loop resumes. */
export interface ProgramPart {
  start(rt: CallRuntime, from?: Navigation): void;
  /** Resumes a waiting program with an input, if it listens for that kind; otherwise the input is ignored. */
  deliver(rt: CallRuntime, wake: Wake, quiet?: boolean): void | Promise<void>;
  /** Stops the running verb with `error` (a redirect or the end of the call) and lets the program go on. */
  interrupt(rt: CallRuntime, error: Error): Promise<void>;
  /** The running verb cleans up at the end of the call; the program is dropped. */
  end(rt: CallRuntime): Promise<void>;
}

/** Recordings of calls (call-recordings.ts). */
export interface RecordingsPart {
  /** Starts the recording a call asked for with Record=true. */
  startCallRecording(rt: CallRuntime, call: Call): void;
  /** Starts a recording a verb asked for (Record, Dial record=...). */
  start(rt: CallRuntime, start: RecordingStart): RecordingHandle;
  /** Starts a recording the account API asked for on a live call (Calls/{Sid}/Recordings). */
  startFromApi(rt: CallRuntime, start: ApiRecordingStart): Recording;
  /** Drops a recording that captured nothing (an empty Record, an unanswered Dial); one already stopped stays. */
  discard(rt: CallRuntime, handle: RecordingHandle): void;
  /** Pauses a running recording now (`skip`: the pause is left out of the audio instead of silent). */
  pause(rt: CallRuntime, sid: string, skip: boolean): Recording;
  /** Resumes a paused recording now. */
  resume(rt: CallRuntime, sid: string): Recording;
  /**
   * Ends a running recording with the speech heard in its window, and starts its transcription. A recording
   * already ended (stopped through the API while its verb ran) is returned as it is.
   */
  end(rt: CallRuntime, sid: string, endAt: number): Recording;
  /** Completes a conference's recording with its speech. */
  finishConference(sid: string, endAt: number, speech: SpeechSpan[]): Recording;
}

/** What the account API's recording start takes (Twilio's CreateCallRecording parameters). */
export interface ApiRecordingStart {
  channels: 1 | 2;
  track: "inbound" | "outbound" | "both";
  trim: boolean;
  statusCallback: string | null;
  statusCallbackMethod: "GET" | "POST";
  statusCallbackEvents: string[];
}

/** The parts of the engine, each in its own module, reaching each other through the registry. */
export interface CallParts {
  lifecycle: LifecyclePart;
  party: PartyPart;
  legs: LegsPart;
  program: ProgramPart;
  recordings: RecordingsPart;
  envFor(rt: CallRuntime, documentUrl: string | null): VerbEnv;
  conferences: Conferences;
  queues: Queues;
  ownNumbers: OwnNumberCalls;
  streams: StreamsPart;
}

/** Whoever holds a phone outside the engine (held-phones.ts): hears a call ringing it. */
export interface PhoneHolder {
  ring(call: Call): void;
}

/** What every part of the running engine shares: state kept outside the store, and the one scheduler. */
export interface CallRegistry {
  readonly services: EngineServices;
  /** The runtime of every call the engine drives, by sid. */
  readonly runtimes: Map<string, CallRuntime>;
  /** Scripts set for numbers (`setParty`). */
  readonly parties: Map<string, PartyBehaviour>;
  /** Numbers and clients held by a phone outside the engine (the inspector's browser phone), and the calls ringing them. */
  readonly heldPhones: Map<string, PhoneHolder>;
  readonly ringingPhones: Set<string>;
  /** The kept alerts, oldest first: every call's, or one call's (found by its sid, not by reading them all). */
  alerts(callSid?: string): Alert[];
  /** The same alerts as notifications (with sid and account), oldest first. */
  notices(callSid?: string): Notice[];
  readonly transcriptions: TranscriptionControl;
  /** Filled in once every part exists (they call each other only while events run). */
  readonly parts: CallParts;
  now(): number;
  /** The stored call; throws when it is gone. */
  getCall(sid: string): Call;
  runtime(sid: string): CallRuntime | undefined;
  /** An entry in the call's timeline. */
  note(rt: CallRuntime, kind: string, detail?: Record<string, unknown>): void;
  noteOn(sid: string, kind: string, detail?: Record<string, unknown>): void;
  /** Who hears of each timeline entry as it is written (the call's sid and the entry's kind). */
  readonly timelineListeners: Set<(callSid: string, kind: string) => void>;
  /** An alert (Twilio's debugger): kept for `alerts()`, in the timeline, and as an event. */
  alert(rt: CallRuntime, code: number, message: string, level?: "error" | "warning"): void;
  /** A new token for a markup request out on the real clock (a later answer with another token is ignored). */
  nextFetchToken(): number;
  /** Schedules `task` for the call; dropped when ringing ends or the call ends. */
  timer(rt: CallRuntime, at: number, cls: EventClass, label: string, task: () => void | Promise<void>): void;
  /** Adds an alert, dropping the oldest beyond `alertsKept`; `accountSid`: the call's account, when it has one. */
  addAlert(alert: Alert, accountSid?: string): void;
  /**
   * A finished call's runtime stays readable (its timeline, what its party heard and said) for the newest
   * `finishedCallsKept` finished calls; older ones are dropped, oldest first.
   */
  retire(rt: CallRuntime): void;
  /** Drops every runtime, script, alert and transcription setting (sandbox reset). */
  clear(): void;
}

/**
 * Finished calls whose runtime is kept by default, and alerts kept. Both used to be kept for good: every call
 * ever placed left its runtime (~1.9 KB: timeline, what was heard, the party's script) in memory.
 */
export const defaultFinishedCallsKept = 1_000;
export const alertsKept = 10_000;

export function createCallRegistry(
  services: EngineServices,
  finishedCallsKept = defaultFinishedCallsKept,
): CallRegistry {
  const { ctx, scheduler } = services;
  const now = () => ctx.clock.now();
  const runtimes = new Map<string, CallRuntime>();
  const alerts = new NewestRing<Notice>(alertsKept);
  /** The kept alerts by call, oldest first: a call's page reads its own without a pass over all 10,000. */
  const alertsByCall = new Map<string, Notice[]>();
  /** Alerts ever added since the last clear: each one's notification sid. */
  let added = 0;
  const notices = (callSid?: string) =>
    callSid === undefined ? alerts.toArray() : [...(alertsByCall.get(callSid) ?? [])];
  const plain = ({ at, callSid, code, level, message }: Notice): Alert => ({
    at,
    callSid,
    code,
    level,
    message,
  });
  /** The finished calls whose runtime is kept; the ring checks the bound, as the request journal's checks its own. */
  const finished = new NewestRing<string>(finishedCallsKept, "finishedCallsKept");
  /** Markup requests sent on the real clock, ever: each one's token. */
  let fetches = 0;
  const timelineListeners = new Set<(callSid: string, kind: string) => void>();
  const note: CallRegistry["note"] = (rt, kind, detail = {}) => {
    rt.timeline.push({ at: now(), kind, detail });
    for (const listener of timelineListeners) listener(rt.sid, kind);
  };
  const registry: CallRegistry = {
    timelineListeners,
    services,
    runtimes,
    parties: new Map(),
    heldPhones: new Map(),
    ringingPhones: new Set(),
    alerts: (callSid) => notices(callSid).map(plain),
    notices,
    transcriptions: { forced: null, pending: new Map(), scripted: new Map() },
    parts: {} as CallParts,
    now,
    getCall(sid) {
      const call = ctx.store.calls.get(sid);
      if (!call) throw new Error(`no call ${sid}`);
      return call;
    },
    runtime: (sid) => runtimes.get(sid),
    note,
    noteOn(sid, kind, detail = {}) {
      const rt = runtimes.get(sid);
      if (rt) note(rt, kind, detail);
    },
    addAlert(given, accountSid) {
      const alert: Notice = { ...given, sid: noticeSid(added++), accountSid: accountSid ?? null };
      const ofCall = alertsByCall.get(alert.callSid);
      if (ofCall) ofCall.push(alert);
      else alertsByCall.set(alert.callSid, [alert]);
      // The ring drops the oldest alert of all, which is the oldest of its call's too.
      const dropped = alerts.push(alert);
      if (dropped === undefined) return;
      const left = alertsByCall.get(dropped.callSid)!;
      left.shift();
      if (left.length === 0) alertsByCall.delete(dropped.callSid);
    },
    retire(rt) {
      const dropped = finished.push(rt.sid);
      if (dropped !== undefined) runtimes.delete(dropped);
    },
    alert(rt, code, message, level = "error") {
      const call = ctx.store.calls.get(rt.sid);
      registry.addAlert({ at: now(), callSid: rt.sid, code, level, message }, call?.account_sid);
      note(rt, "alert", { code, level, message });
      if (call) {
        const detail = { sid: call.sid, call_sid: call.sid, error_code: code, level, message };
        recordEvent(
          ctx,
          `call.${level === "error" ? "error" : "warning"}`,
          call.account_sid,
          "alert",
          detail,
        );
      }
    },
    nextFetchToken: () => ++fetches,
    timer(rt, at, cls, label, task) {
      rt.timers.push(scheduler.at(at, cls, `${label} ${rt.sid}`, task));
    },
    clear() {
      runtimes.clear();
      finished.clear();
      registry.parties.clear();
      alerts.clear();
      alertsByCall.clear();
      added = 0;
      registry.transcriptions.forced = null;
      registry.transcriptions.pending.clear();
      registry.transcriptions.scripted?.clear();
    },
  };
  return registry;
}
