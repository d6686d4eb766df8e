// The call engine: drives every call through its lifecycle on the clock, runs its markup, plays the other party.
// The parts live beside it (call-lifecycle, call-party, call-legs, call-program, call-verb-env, call-recordings,
// call-recording-control, call-control) and share one registry (call-registry.ts) and one scheduler; this file
// wires them and is the engine's public face: what the routes, the admin operations, scenarios and library users
// call (how a call is taken up: call-starts.ts; the rooms' links to calls: call-engine-rooms.ts).
import type { Call } from "../../domain/call.js";
import type { Message } from "../../domain/message.js";
import type { HeardEntry, StreamSpec } from "../../markup/effects.js";
import type { EngineContext } from "../context/context.js";
import type { EngineServices } from "../context/engine-services.js";
import type { Transcriber } from "../media-streams/agent-utterances.js";
import type { FrameSenders } from "../media-streams/frame-senders.js";
import type { PlaybackGauge } from "../media-streams/stream-budget.js";
import { createMessageLifecycle, type MessageLifecycle } from "../messaging/message-lifecycle.js";
import { completeTranscription, type ProviderResult } from "../recordings/transcriptions.js";
import type { ConferenceControl } from "../rooms/conferences.js";
import type { QueueControl } from "../rooms/queues.js";
import { createScheduler, type Scheduler } from "../time/scheduler.js";
import { type CallAudio, createCallAudio } from "./call-audio.js";
import { type CallControl, createCallControl } from "./call-control.js";
import { pressNow, setParty, speakNow } from "./call-engine-inputs.js";
import { wireConferences, wireOwnNumbers, wireQueues } from "./call-engine-rooms.js";
import { createLegs } from "./call-legs.js";
import { createLifecycle } from "./call-lifecycle.js";
import { createParty } from "./call-party.js";
import { createProgram } from "./call-program.js";
import { type CallRecordingControl, createCallRecordingControl } from "./call-recording-control.js";
import { createCallRecordings } from "./call-recordings.js";
import { type Alert, type CallRegistry, createCallRegistry, type Notice } from "./call-registry.js";
import type { TimelineEntry } from "./call-runtime.js";
import { type InboundRing, ringInbound, startOutbound } from "./call-starts.js";
import { createStreams } from "./call-streams.js";
import { createVerbEnv } from "./call-verb-env.js";
import { createCallerWords } from "./caller-words.js";
import { createHeldPhones, type HeldPhones } from "./held-phones.js";
import type { PartyBehaviour, PartyBehaviourInput } from "./party-behaviour.js";
import type { StreamRecord, StreamsPart } from "./stream-records.js";

export type { CallAudio } from "./call-audio.js";
export type { Alert, Notice } from "./call-registry.js";
export type { HeldPhones, PhoneHolder } from "./held-phones.js";

export interface CallEngine extends Omit<CallControl, "hangup" | "cancel" | "redirectLive"> {
  readonly scheduler: Scheduler;
  /** True when the engine runs this call's lifecycle. */
  drives(callSid: string): boolean;
  /** Starts the lifecycle of a queued outbound-api call the account or carrier API just placed; returns it. */
  start(call: Call): Call;
  /** Rings one of the sandbox's incoming numbers from outside (an inbound call). */
  ring(input: InboundRing): Call;
  /** Status=completed: hang up (an unanswered call is canceled). */
  hangup(callSid: string): Call;
  /** Status=canceled: only a queued or ringing call changes. */
  cancel(callSid: string): Call;
  /** Sets how a number behaves when the sandbox calls it (or calls from it, for `ring`). */
  setParty(number: string, behaviour: PartyBehaviourInput): PartyBehaviour;
  clearParty(number: string): void;
  party(number: string): PartyBehaviour;
  /** Makes the simulated party on a live call press digits or speak now. */
  press(callSid: string, digits: string): void;
  speak(callSid: string, text: string, durationMs?: number): void;
  timeline(callSid: string): TimelineEntry[];
  /** Calls `listener` with the call's sid and the entry's kind as each timeline entry is written; returns its removal. */
  onTimeline(listener: (callSid: string, kind: string) => void): () => void;
  heard(callSid: string): HeardEntry[];
  /** A live call's audio 20 ms at a time, as its party hears and speaks it (the inspector's browser phone). */
  audio: CallAudio;
  /** Numbers and clients a phone outside the engine holds (the inspector's browser phone): calls to them ring it. */
  phones: HeldPhones;
  /**
   * The call's conversation with its `<Connect>` apps (media stream or ConversationRelay) as a two-channel
   * 8 kHz WAV: the caller left, the agent right, on the call's clock. Undefined for a call with no app, or
   * one whose conversation is no longer kept (the newest 100 calls', ten minutes each).
   */
  conversationAudio(callSid: string): Promise<Uint8Array | undefined>;
  alerts(callSid?: string): Alert[];
  /** The alerts as the account API's Notifications: an account's (or one call's), oldest first. */
  notifications(accountSid: string, callSid?: string): Notice[];
  /** Transcriptions: force failures, or finish a pending one now. */
  transcriptions: {
    failAll(fail: boolean): void;
    complete(
      sid: string,
      outcome?: "completed" | "failed",
      result?: ProviderResult,
    ): ReturnType<typeof completeTranscription>;
    /** What the provider returns for a call's recordings ("*": every call) instead of what was said; null forgets it. */
    script(callSid: string, result: ProviderResult | null): void;
  };
  /** Messages: `start` delivers an outbound message just stored; `receive` is an inbound SMS to a sandbox number. */
  messages: Pick<MessageLifecycle, "start" | "receive" | "inFlight">;
  /** Conferences in progress: end, mute/hold, kick (account API Conferences and Participants). */
  conferences: ConferenceControl;
  /** Queue members: dequeue to a URL (account API Members). */
  queues: QueueControl;
  /** Unidirectional media streams of live calls (account API Streams): start one, stop one by sid or name. */
  streams: {
    start(callSid: string, spec: StreamSpec): StreamRecord;
    stop(callSid: string, sidOrName: string): StreamRecord | undefined;
    /**
     * The media budget: what every bidirectional stream's queue of the app's audio and marks holds together
     * (`queuedBytes`, its `peakBytes`), the budget and each open stream's share of it, what was dropped.
     */
    queued(): PlaybackGauge;
    /** Real ms the virtual clock waits for a `<Connect>` app that owes the call an answer (agentTurnTimeout). */
    readonly agentTurnTimeout: StreamsPart["agentTurnTimeout"];
    /** Real ms waited for the answer to each of the call's turns on the virtual clock (null: none waited or none came). */
    agentWaits(callSid: string): (number | null)[];
  };
  /** Recording control on live calls: start, pause, resume, stop (account API Calls/{Sid}/Recordings). */
  recordings: CallRecordingControl;
  /** Drops every live call's runtime and every queued event (sandbox reset). */
  reset(): void;
}

export interface CallEngineOptions {
  publicBaseUrl?: () => string;
  /** Finished calls whose timeline and speech stay readable (default 10,000); older ones are dropped first. */
  finishedCallsKept?: number;
  /** Bytes every bidirectional stream's playback queue may hold together (default 64 MiB). */
  maxQueuedStreamBytes?: number;
  /** Turns each turn of a `<Connect><Stream>` app's audio into the words it said. */
  transcriber?: Transcriber;
  /** Real ms the virtual clock waits for a `<Connect>` app that owes the call an answer (default 10 s). */
  agentTurnTimeoutMs?: number;
  /** Real clock: the threads that hold media streams' sockets and send their frames (none: the main thread does). */
  frameSenders?: FrameSenders | null;
}

export function createCallEngine(ctx: EngineContext, options: CallEngineOptions = {}): CallEngine {
  const webhooks = () => {
    if (!ctx.webhooks) throw new Error("the call engine needs a webhook sender (ctx.webhooks)");
    return ctx.webhooks;
  };
  const scheduler = createEngineScheduler(ctx, (alert) => registry.addAlert(alert));
  const services: EngineServices = {
    ctx,
    scheduler,
    webhooks,
    publicBaseUrl: options.publicBaseUrl ?? (() => "https://api.voice-sandbox.test"),
  };
  const registry = createCallRegistry(services, options.finishedCallsKept);
  const { parts } = registry;
  const messageLifecycle = createMessageLifecycle(services);
  parts.lifecycle = createLifecycle(registry);
  parts.party = createParty(registry);
  parts.legs = createLegs(registry);
  parts.program = createProgram(registry);
  parts.recordings = createCallRecordings(registry);
  // One transcriber, shared by streams' agents and live callers: its bound on transcriptions under way is the sandbox's.
  const transcribers = options.transcriber ? { transcriber: options.transcriber, pending: 0 } : null;
  parts.streams = createStreams(registry, {
    maxQueuedBytes: options.maxQueuedStreamBytes,
    transcribers,
    agentTurnTimeoutMs: options.agentTurnTimeoutMs,
    frameSenders: options.frameSenders ?? null,
  });
  parts.envFor = createVerbEnv(registry, (message) => messageLifecycle.start(message));
  parts.conferences = wireConferences(registry);
  parts.queues = wireQueues(registry, (sid, to) => control.redirectLive(sid, to));
  parts.ownNumbers = wireOwnNumbers(registry, (input) => engine.ring(input));
  const control = createCallControl(registry);

  const engine: CallEngine = {
    scheduler,
    drives: (callSid) => registry.runtimes.has(callSid),
    start: (call) => startOutbound(registry, call),
    ring: (input) => ringInbound(registry, input),
    hangup: (callSid) => control.hangup(registry.getCall(callSid)),
    cancel: (callSid) => control.cancel(registry.getCall(callSid)),
    redirect: control.redirect,
    update: control.update,
    remove: control.remove,
    setParty: (number, behaviour) => setParty(registry, number, behaviour),
    clearParty(number) {
      registry.parties.delete(number);
    },
    party: (number) => parts.party.behaviourFor(number).behaviour,
    press: (callSid, digits) => pressNow(registry, callSid, digits),
    speak: (callSid, text, durationMs) => speakNow(registry, callSid, text, durationMs),
    timeline: (callSid) => [...(registry.runtime(callSid)?.timeline ?? [])],
    onTimeline(listener) {
      // Wrapped: the same function given twice is two listeners, each removed by its own removal.
      const own = (callSid: string, kind: string) => listener(callSid, kind);
      registry.timelineListeners.add(own);
      return () => registry.timelineListeners.delete(own);
    },
    heard: (callSid) => [...(registry.runtime(callSid)?.heard ?? [])],
    audio: createCallAudio(registry, createCallerWords(registry, transcribers)),
    phones: createHeldPhones(registry),
    conversationAudio: (callSid) => parts.streams.conversationAudio(callSid),
    alerts: (callSid) => registry.alerts(callSid),
    notifications: (accountSid, callSid) =>
      registry.notices(callSid).filter((notice) => notice.accountSid === accountSid),
    transcriptions: transcriptionsFace(registry),
    messages: {
      start: (message: Message) => messageLifecycle.start(message),
      receive: (input) => messageLifecycle.receive(input),
      inFlight: () => messageLifecycle.inFlight(),
    },
    conferences: parts.conferences,
    queues: parts.queues,
    streams: {
      start: (callSid, spec) => parts.streams.startFromApi(callSid, spec),
      stop: (callSid, sidOrName) => parts.streams.stop(callSid, sidOrName),
      queued: () => parts.streams.queued(),
      agentTurnTimeout: parts.streams.agentTurnTimeout,
      agentWaits: (callSid) => parts.streams.agentWaits(callSid),
    },
    recordings: createCallRecordingControl(registry),
    reset: () => resetEngine(registry, messageLifecycle),
  };
  return engine;
}

/**
 * The engine's one event loop. On the virtual clock each event's callbacks are delivered before the next
 * event runs, so logs come out in one order run after run. On the real clock nothing waits: one slow
 * receiver must not hold up every other call (each call's callbacks keep their order in the dispatcher's
 * lane anyway). An event that throws becomes an alert (Twilio's 12500).
 */
function createEngineScheduler(ctx: EngineContext, addAlert: (alert: Alert) => void): Scheduler {
  return createScheduler(ctx.clock, {
    afterEach: () => (ctx.webhooks && ctx.clock.mode === "virtual" ? ctx.webhooks.idle() : undefined),
    onError: (error, label) => {
      addAlert({
        at: ctx.clock.now(),
        callSid: "",
        code: 12500,
        level: "error",
        message: `internal error in ${label}: ${error instanceof Error ? error.message : String(error)}`,
      });
    },
  });
}

/** Transcriptions: forced failures, a pending one finished now, a provider's answer scripted for a call. */
function transcriptionsFace(reg: CallRegistry): CallEngine["transcriptions"] {
  return {
    failAll(fail) {
      reg.transcriptions.forced = fail ? "fail" : null;
    },
    complete: (sid, outcome, result) =>
      completeTranscription(reg.services, reg.transcriptions, sid, outcome, result),
    script(callSid, result) {
      if (result) reg.transcriptions.scripted?.set(callSid, result);
      else reg.transcriptions.scripted?.delete(callSid);
    },
  };
}

/** Drops every live call's runtime and every queued event (sandbox reset), rooms and messages first. */
function resetEngine(reg: CallRegistry, messageLifecycle: MessageLifecycle): void {
  const { parts } = reg;
  messageLifecycle.reset();
  parts.conferences.reset();
  parts.queues.reset();
  parts.ownNumbers.reset();
  parts.streams.reset();
  reg.services.ctx.holds?.clear();
  reg.services.scheduler.clear();
  reg.clear();
}
