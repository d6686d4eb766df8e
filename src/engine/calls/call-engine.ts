// The call engine: drives every call through its lifecycle on the clock, runs its markup, plays the other party.
// The parts live beside it (call-lifecycle, call-party, call-legs, call-program, call-verb-env, call-recordings,
// call-recording-control, call-control) and share one registry (call-registry.ts) and one scheduler; this file wires them and is the
// engine's public face: what the routes, the admin operations, scenarios and library users call.
import type { Call } from "../../domain/call.js";
import { errors } from "../../domain/errors.js";
import type { Message } from "../../domain/message.js";
import type { HeardEntry, StreamSpec } from "../../markup/effects.js";
import { applicationVoiceHandlers, numberVoiceHandlers } from "../accounts/applications.js";
import { assertMayCall, holdFirstMinute } from "../billing/call-admission.js";
import type { EngineContext } from "../context/context.js";
import type { EngineServices } from "../context/engine-services.js";
import { createMessageLifecycle, type MessageLifecycle } from "../messaging/message-lifecycle.js";
import { completeTranscription, type ProviderResult } from "../recordings/transcriptions.js";
import { type ConferenceControl, createConferences } from "../rooms/conferences.js";
import { createQueues, type QueueControl } from "../rooms/queues.js";
import { createScheduler, eventClass, type Scheduler } from "../time/scheduler.js";
import { type CallControl, createCallControl } from "./call-control.js";
import { createLegs } from "./call-legs.js";
import { createLifecycle } from "./call-lifecycle.js";
import { createParty } from "./call-party.js";
import { createProgram } from "./call-program.js";
import { type CallRecordingControl, createCallRecordingControl } from "./call-recording-control.js";
import { createCallRecordings } from "./call-recordings.js";
import { type Alert, createCallRegistry } from "./call-registry.js";
import { createRuntime, type TimelineEntry } from "./call-runtime.js";
import { createStreams } from "./call-streams.js";
import type { CallEvent } from "./call-transitions.js";
import { createVerbEnv } from "./call-verb-env.js";
import { createCallRecord, saveCall } from "./calls.js";
import { createOwnNumberCalls } from "./own-number-calls.js";
import {
  defaultBehaviour,
  type PartyBehaviour,
  type PartyBehaviourInput,
  parseBehaviour,
  speechLengthMs,
} from "./party-behaviour.js";
import type { StreamRecord } from "./stream-records.js";

export type { Alert } from "./call-registry.js";

export interface InboundRing {
  from: string;
  /** The incoming number rung; for a client's call through an application, the To it asked for (may be ""). */
  to: string;
  /** A Voice SDK client's outgoing call: the application (TwiML App) whose voice handlers answer it. */
  applicationSid?: string | undefined;
  /** What the caller does (timed from the moment the call starts). Default: listens, never hangs up. */
  caller?: PartyBehaviourInput | undefined;
  callerName?: string | undefined;
  forwardedFrom?: string | undefined;
}

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
  heard(callSid: string): HeardEntry[];
  alerts(callSid?: string): Alert[];
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
}

export function createCallEngine(ctx: EngineContext, options: CallEngineOptions = {}): CallEngine {
  const webhooks = () => {
    if (!ctx.webhooks) throw new Error("the call engine needs a webhook sender (ctx.webhooks)");
    return ctx.webhooks;
  };
  const scheduler = createScheduler(ctx.clock, {
    // On the virtual clock each event's callbacks are delivered before the next event runs, so logs come
    // out in one order run after run. On the real clock nothing waits: one slow receiver must not hold up
    // every other call (each call's callbacks keep their order in the dispatcher's lane anyway).
    afterEach: () => (ctx.webhooks && ctx.clock.mode === "virtual" ? ctx.webhooks.idle() : undefined),
    onError: (error, label) => {
      registry.addAlert({
        at: ctx.clock.now(),
        callSid: "",
        code: 12500,
        level: "error",
        message: `internal error in ${label}: ${error instanceof Error ? error.message : String(error)}`,
      });
    },
  });
  const services: EngineServices = {
    ctx,
    scheduler,
    webhooks,
    publicBaseUrl: options.publicBaseUrl ?? (() => "https://api.voice-sandbox.test"),
  };
  const registry = createCallRegistry(services, options.finishedCallsKept);
  const { parts, note, now } = registry;
  const messageLifecycle = createMessageLifecycle(services);

  /** Wakes a call's program so it re-reads its conference or queue state. */
  const signalCall = (name: "conference" | "queue") => (sid: string) => {
    const rt = registry.runtime(sid);
    if (!rt || rt.finishing) return;
    scheduler.after(0, eventClass.continuation, `${name} ${sid}`, () =>
      parts.program.deliver(rt, { kind: "signal", name, detail: {} }),
    );
  };
  parts.lifecycle = createLifecycle(registry);
  parts.party = createParty(registry);
  parts.legs = createLegs(registry);
  parts.program = createProgram(registry);
  parts.recordings = createCallRecordings(registry);
  parts.streams = createStreams(registry);
  parts.envFor = createVerbEnv(registry, (message) => messageLifecycle.start(message));
  parts.conferences = createConferences({
    services,
    signal: signalCall("conference"),
    speechOf: (sid) => registry.runtime(sid)?.speech ?? [],
    heard: (sid, entry) => {
      const rt = registry.runtime(sid);
      if (!rt) return;
      rt.heard.push({ at: now(), ...entry });
      note(rt, `heard.${entry.kind}`, { ...entry });
    },
    note: registry.noteOn,
    finishRecording: (sid, endAt, speech) => parts.recordings.finishConference(sid, endAt, speech),
  });
  parts.queues = createQueues({
    ctx,
    signal: signalCall("queue"),
    bridge: (agentSid, callerSid) => {
      const agent = registry.runtime(agentSid);
      const caller = registry.runtime(callerSid);
      if (!agent || !caller) return;
      agent.bridgedWith = callerSid;
      caller.bridgedWith = agentSid;
      note(agent, "queue.bridged", { sid: callerSid });
      note(caller, "queue.bridged", { sid: agentSid });
      parts.party.talk(agent, caller, caller);
    },
    redirect: (sid, url, method) => control.redirectLive(sid, { kind: "url", url, method }),
    note: registry.noteOn,
  });
  parts.ownNumbers = createOwnNumberCalls(ctx, {
    ring: (input) => engine.ring(input),
    applyEvent: (sid, event) => parts.lifecycle.applyEvent(sid, event),
    note: registry.noteOn,
    soon: (label, task) => void scheduler.after(0, eventClass.control, label, task),
  });
  const control = createCallControl(registry);
  /** A call's runtime while the call runs; a finished call's (kept or dropped) is no longer live. */
  const liveRuntime = (callSid: string) => {
    const rt = registry.runtime(callSid);
    if (!rt || rt.finishing) throw errors.notPending("call", callSid);
    return rt;
  };

  const engine: CallEngine = {
    scheduler,
    drives: (callSid) => registry.runtimes.has(callSid),
    start(call) {
      if (registry.runtimes.has(call.sid) || call.status !== "queued") return call;
      const found = parts.party.behaviourFor(call.to);
      const rt = createRuntime(call.sid, found.behaviour, found.scripted);
      registry.runtimes.set(call.sid, rt);
      note(rt, "call.created", { direction: call.direction });
      scheduler.after(0, eventClass.control, `initiate ${call.sid}`, () => {
        parts.lifecycle.applyEvent(call.sid, "initiate");
      });
      return call;
    },
    ring(input) {
      // A client's call goes to its application's handlers; any other call to the number rung.
      const application = input.applicationSid ? ctx.store.applications.get(input.applicationSid) : undefined;
      if (input.applicationSid && !application?.voice_url)
        throw errors.applicationNotRunnable(input.applicationSid);
      const number = application ? undefined : ctx.store.phoneNumbers.findOne("number", input.to);
      if (!application && (!number || number.account_sid === null)) throw errors.numberNotRouted(input.to);
      const accountSid = application ? application.account_sid : number!.account_sid!;
      assertMayCall(ctx, accountSid, input.to);
      const fault =
        ctx.faults?.take("number", input.from, now()) ?? ctx.faults?.take("number", input.to, now());
      const caller = input.caller
        ? parseBehaviour(input.caller)
        : (registry.parties.get(input.from) ?? defaultBehaviour);
      const scripted = caller.steps.length > 0 || caller.hangupAfter !== undefined;
      const created = createCallRecord(ctx, {
        accountSid,
        direction: "inbound",
        from: input.from,
        to: input.to,
        phoneNumberSid: number?.sid ?? null,
        // A number with a VoiceApplicationSid runs the application's handlers, as Twilio's do.
        ...(application ? applicationVoiceHandlers(application) : numberVoiceHandlers(ctx, number!)),
        callerName: input.callerName ?? null,
      });
      holdFirstMinute(ctx, created.account_sid, created.sid, created.to);
      const call = input.forwardedFrom
        ? saveCall(ctx, created, { forwarded_from: input.forwardedFrom })
        : created;
      const rt = createRuntime(call.sid, caller, scripted);
      registry.runtimes.set(call.sid, rt);
      note(rt, "call.created", { direction: "inbound" });
      saveCall(ctx, registry.getCall(call.sid), { start_time: now() });
      const ringing = parts.lifecycle.applyEvent(call.sid, "ring") ?? registry.getCall(call.sid);
      if (fault) {
        // A faulted number: the call never reaches the markup.
        const event: CallEvent = fault.outcome === "fail" ? "fail" : fault.outcome;
        scheduler.after(0, eventClass.input, `fault ${call.sid}`, () => {
          parts.lifecycle.applyEvent(call.sid, event);
        });
        return ringing;
      }
      parts.party.connect(rt);
      parts.program.start(rt);
      return ringing;
    },
    hangup: (callSid) => control.hangup(registry.getCall(callSid)),
    cancel: (callSid) => control.cancel(registry.getCall(callSid)),
    redirect: control.redirect,
    update: control.update,
    remove: control.remove,
    setParty(number, behaviour) {
      const parsed = parseBehaviour(behaviour);
      registry.parties.set(number, parsed);
      return parsed;
    },
    clearParty(number) {
      registry.parties.delete(number);
    },
    party: (number) => parts.party.behaviourFor(number).behaviour,
    press(callSid, digits) {
      const rt = liveRuntime(callSid);
      scheduler.after(0, eventClass.input, `press ${callSid}`, () =>
        parts.party.runStep(rt, parseBehaviour({ steps: [{ press: digits, at: 0 }] }).steps[0]!),
      );
    },
    speak(callSid, text, durationMs) {
      const rt = liveRuntime(callSid);
      scheduler.after(0, eventClass.input, `speak ${callSid}`, () =>
        parts.party.speakNow(rt, text, durationMs ?? speechLengthMs(text), 0.92),
      );
    },
    timeline: (callSid) => [...(registry.runtime(callSid)?.timeline ?? [])],
    heard: (callSid) => [...(registry.runtime(callSid)?.heard ?? [])],
    alerts: (callSid) => registry.alerts(callSid),
    transcriptions: {
      failAll(fail) {
        registry.transcriptions.forced = fail ? "fail" : null;
      },
      complete: (sid, outcome, result) =>
        completeTranscription(services, registry.transcriptions, sid, outcome, result),
      script(callSid, result) {
        if (result) registry.transcriptions.scripted?.set(callSid, result);
        else registry.transcriptions.scripted?.delete(callSid);
      },
    },
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
    },
    recordings: createCallRecordingControl(registry),
    reset() {
      messageLifecycle.reset();
      parts.conferences.reset();
      parts.queues.reset();
      parts.ownNumbers.reset();
      parts.streams.reset();
      ctx.holds?.clear();
      scheduler.clear();
      registry.clear();
    },
  };
  return engine;
}
