// The call engine: drives every call through its lifecycle on the clock, runs its markup, plays the other party.
import type { Call, CallStatusEvent } from "../domain/call.js";
import { isTerminalCallStatus } from "../domain/call.js";
import { errors } from "../domain/errors.js";
import type { Message } from "../domain/message.js";
import type { SpeechSpan } from "../domain/recording.js";
import {
  CallEnded,
  type DialTarget,
  type Effect,
  type Navigation,
  type Outcome,
  Redirected,
  type VerbEnv,
  type Wake,
} from "../markup/effects.js";
import { type ProgramHost, runCallProgram } from "../markup/interpreter.js";
import type { MarkupNode } from "../markup/parse.js";
import type { OutboundResult } from "../webhooks/contract.js";
import { billCall } from "./billing.js";
import { assertMayCall } from "./call-admission.js";
import { type CallRuntime, createRuntime, type TimelineEntry } from "./call-runtime.js";
import { type CallEffect, type CallEvent, transition } from "./call-transitions.js";
import { createCallRecord, saveCall } from "./calls.js";
import { type ConferenceControl, createConferences } from "./conferences.js";
import type { EngineContext } from "./context.js";
import { attachCallEngine } from "./engine-registry.js";
import { type EngineServices, sendCallback } from "./engine-services.js";
import { recordEvent } from "./events.js";
import { createMessageLifecycle, type MessageLifecycle } from "./message-lifecycle.js";
import { createOwnNumberCalls } from "./own-number-calls.js";
import {
  defaultAnswerAfterMs,
  defaultBehaviour,
  defaultBridgeTalkMs,
  defaultConversation,
  defaultRingAfterMs,
  defaultVoicemail,
  type PartyBehaviour,
  type PartyBehaviourInput,
  type PartyStep,
  parseBehaviour,
  speechLengthMs,
  testNumbers,
} from "./party-behaviour.js";
import { createQueues, type QueueControl } from "./queues.js";
import { discardRecording, finishRecording, recordingUrl, startRecording } from "./recordings.js";
import { createScheduler, type EventClass, eventClass, type Scheduler } from "./scheduler.js";
import { digitSchedule } from "./send-digits.js";
import {
  completeTranscription,
  defaultSttProvider,
  type ProviderResult,
  recordVerbProvider,
  startTranscription,
  type TranscriptionControl,
} from "./transcriptions.js";
import { recordTtsEvent } from "./tts-events.js";
import { statusCallbackParams, voiceParams } from "./voice-params.js";

export interface InboundRing {
  from: string;
  to: string;
  /** What the caller does (timed from the moment the call starts). Default: listens, never hangs up. */
  caller?: PartyBehaviourInput | undefined;
  callerName?: string | undefined;
  forwardedFrom?: string | undefined;
}

export interface Alert {
  at: number;
  callSid: string;
  code: number;
  level: "error" | "warning";
  message: string;
}

export interface CallEngine {
  readonly scheduler: Scheduler;
  /** True when the engine runs this call's lifecycle. */
  drives(callSid: string): boolean;
  /** Starts the lifecycle of a queued outbound-api call (called for every one the account API creates). */
  dispatchCall(callSid: string): void;
  /** Rings one of the sandbox's incoming numbers from outside (an inbound call). */
  ring(input: InboundRing): Call;
  /** Status=completed: hang up (an unanswered call is canceled). */
  hangup(callSid: string): Call;
  /** Status=canceled: only a queued or ringing call changes. */
  cancel(callSid: string): Call;
  /** Url or Twiml on a live call: the running verb stops, the new markup runs. */
  redirect(callSid: string, to: Navigation): void;
  /** Sets how a number behaves when the sandbox calls it (or calls from it, for `ring`). */
  setParty(number: string, behaviour: PartyBehaviourInput): PartyBehaviour;
  clearParty(number: string): void;
  party(number: string): PartyBehaviour;
  /** Makes the simulated party on a live call press digits or speak now. */
  press(callSid: string, digits: string): void;
  speak(callSid: string, text: string, durationMs?: number): void;
  timeline(callSid: string): TimelineEntry[];
  heard(callSid: string): import("../markup/effects.js").HeardEntry[];
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
  /** Messages: inbound SMS to the sandbox's numbers (outbound delivery starts by itself). */
  messages: Pick<MessageLifecycle, "receive">;
  /** Conferences in progress: end, mute/hold, kick (account API Conferences and Participants). */
  conferences: ConferenceControl;
  /** Queue members: dequeue to a URL (account API Members). */
  queues: QueueControl;
  /** Drops every live call's runtime and every queued event (sandbox reset). */
  reset(): void;
}

export interface CallEngineOptions {
  publicBaseUrl?: () => string;
}

export function createCallEngine(ctx: EngineContext, options: CallEngineOptions = {}): CallEngine {
  const runtimes = new Map<string, CallRuntime>();
  const parties = new Map<string, PartyBehaviour>();
  let alertLog: Alert[] = [];
  const transcriptionControl: TranscriptionControl = {
    forced: null,
    pending: new Map(),
    scripted: new Map(),
  };

  const webhooks = () => {
    if (!ctx.webhooks) throw new Error("the call engine needs a webhook sender (ctx.webhooks)");
    return ctx.webhooks;
  };
  const scheduler = createScheduler(ctx.clock, {
    // On the virtual clock each event's callbacks are delivered before the next event runs, so logs come
    // out in one order run after run. On the real clock nothing waits: one slow receiver must not hold up
    // every other call (each call's callbacks keep their order in the dispatcher's lane anyway).
    afterEach: async () => {
      if (ctx.webhooks && ctx.clock.mode === "virtual") await ctx.webhooks.idle();
    },
    onError: (error, label) => {
      alertLog.push({
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

  const messageLifecycle = createMessageLifecycle(services);
  const now = () => ctx.clock.now();
  const getCall = (sid: string) => {
    const call = ctx.store.calls.get(sid);
    if (!call) throw new Error(`no call ${sid}`);
    return call;
  };
  const runtimeOf = (sid: string) => runtimes.get(sid);
  /** Wakes a call's program so it re-reads its conference or queue state. */
  const signalCall = (name: "conference" | "queue") => (sid: string) => {
    const rt = runtimeOf(sid);
    if (!rt || rt.finishing) return;
    const wake: Wake = { kind: "signal", name, detail: {} };
    scheduler.after(0, eventClass.continuation, `${name} ${sid}`, () => deliver(rt, wake));
  };
  const noteOn = (sid: string, kind: string, detail: Record<string, unknown> = {}) => {
    const rt = runtimeOf(sid);
    if (rt) note(rt, kind, detail);
  };
  const conferences = createConferences({
    services,
    signal: signalCall("conference"),
    speechOf: (sid) => runtimeOf(sid)?.speech ?? [],
    heard: (sid, entry) => {
      const rt = runtimeOf(sid);
      if (!rt) return;
      rt.heard.push({ at: now(), ...entry });
      note(rt, `heard.${entry.kind}`, { ...entry });
    },
    note: noteOn,
    finishRecording: (sid, endAt, speech) => {
      const recording = finishRecording(services, sid, endAt, speech);
      const provider = defaultSttProvider(services, recording.account_sid);
      if (provider)
        startTranscription(services, transcriptionControl, recording, {
          provider,
          callback: null,
          limited: false,
        });
      return recording;
    },
  });
  const queues = createQueues({
    ctx,
    signal: signalCall("queue"),
    bridge: (agentSid, callerSid) => {
      const agent = runtimeOf(agentSid);
      const caller = runtimeOf(callerSid);
      if (!agent || !caller) return;
      agent.bridgedWith = callerSid;
      caller.bridgedWith = agentSid;
      note(agent, "queue.bridged", { sid: callerSid });
      note(caller, "queue.bridged", { sid: agentSid });
      talk(agent, caller, caller);
    },
    redirect: (sid, url, method) => engine.redirect(sid, { kind: "url", url, method }),
    note: noteOn,
  });
  const ownNumbers = createOwnNumberCalls(ctx, {
    ring: (input) => engine.ring(input),
    applyEvent: (sid, event) => applyEvent(sid, event),
    note: noteOn,
    soon: (label, task) => void scheduler.after(0, eventClass.control, label, task),
  });

  // ---- observations -------------------------------------------------------------------------------

  const note = (rt: CallRuntime, kind: string, detail: Record<string, unknown> = {}) => {
    rt.timeline.push({ at: now(), kind, detail });
  };
  const alert = (rt: CallRuntime, code: number, message: string, level: "error" | "warning" = "error") => {
    const call = ctx.store.calls.get(rt.sid);
    alertLog.push({ at: now(), callSid: rt.sid, code, level, message });
    note(rt, "alert", { code, level, message });
    if (call) {
      const detail = { sid: call.sid, call_sid: call.sid, error_code: code, level, message };
      recordEvent(ctx, `call.${level === "error" ? "error" : "warning"}`, call.account_sid, "alert", detail);
    }
  };

  // ---- party behaviour ----------------------------------------------------------------------------

  const behaviourFor = (number: string): { behaviour: PartyBehaviour; scripted: boolean } => {
    // An injected number fault (POST /__sandbox/faults, kind number) wins over any script.
    const fault = ctx.faults?.take("number", number, now());
    if (fault) {
      const outcome = fault.outcome === "fail" ? "failed" : fault.outcome;
      return {
        behaviour: parseBehaviour({ outcome, answerAfter: outcome === "failed" ? 0 : 2000 }),
        scripted: false,
      };
    }
    const set = parties.get(number);
    if (set) return { behaviour: set, scripted: set.steps.length > 0 || set.hangupAfter !== undefined };
    const test = testNumbers[number];
    if (test) return { behaviour: parseBehaviour(test), scripted: test.hangupAfter !== undefined };
    return { behaviour: defaultBehaviour, scripted: false };
  };

  const timer = (
    rt: CallRuntime,
    at: number,
    cls: EventClass,
    label: string,
    task: () => void | Promise<void>,
  ) => {
    rt.timers.push(scheduler.at(at, cls, `${label} ${rt.sid}`, task));
  };

  const runStep = (rt: CallRuntime, step: PartyStep) => {
    const start = now();
    if (step.press !== undefined) {
      let t = 0;
      for (const ch of step.press) {
        if (ch === "w") {
          t += 500;
          continue;
        }
        timer(rt, start + t, eventClass.input, "dtmf", () => deliver(rt, { kind: "dtmf", digit: ch }));
        t += step.gap ?? 300;
      }
      note(rt, "party.press", { digits: step.press });
    } else if (step.say !== undefined) {
      speakNow(rt, step.say, step.for ?? speechLengthMs(step.say), step.confidence ?? 0.92);
    } else if (step.hangup) {
      note(rt, "party.hangup");
      applyEvent(rt.sid, "hangup");
    }
  };

  const speakNow = (rt: CallRuntime, text: string, length: number, confidence: number) => {
    const start = now();
    rt.speech.push({ start, end: start + length, text });
    note(rt, "party.say", { text, ms: length });
    void deliver(rt, { kind: "speech-start" }, true);
    timer(rt, start + length, eventClass.input, "speech", () =>
      deliver(rt, { kind: "speech", text, confidence, startedAt: start }),
    );
  };

  /** Arms the party's steps timed from connect (answer of a callee, start of an inbound caller). */
  const connectParty = (rt: CallRuntime) => {
    const base = now();
    for (const step of rt.behaviour.steps) {
      if (step.at !== undefined)
        timer(rt, base + step.at, eventClass.input, "party step", () => runStep(rt, step));
    }
    if (rt.behaviour.hangupAfter !== undefined) {
      timer(rt, base + rt.behaviour.hangupAfter, eventClass.control, "party hangup", () => {
        note(rt, "party.hangup");
        applyEvent(rt.sid, "hangup");
      });
    }
  };

  // ---- program driving ----------------------------------------------------------------------------

  /** Resumes a waiting program with an input, if it listens for that kind; otherwise the input is ignored. */
  function deliver(rt: CallRuntime, wake: Wake, quiet = false): void | Promise<void> {
    if (rt.waiting?.wake.includes(wake.kind as never)) {
      scheduler.cancel(rt.waiting.timer);
      rt.waiting = null;
      if (wake.kind === "dtmf") note(rt, "input.dtmf", { digit: wake.digit });
      return step(rt, { value: wake });
    }
    if (wake.kind === "signal") {
      rt.pendingSignals.push(wake);
      return;
    }
    if (!quiet && wake.kind !== "speech-start") note(rt, "input.ignored", { ...wake });
  }

  async function step(rt: CallRuntime, input: { value?: unknown; error?: unknown }): Promise<void> {
    const program = rt.program;
    if (!program) return;
    let next = input;
    for (;;) {
      let result: IteratorResult<unknown, unknown>;
      try {
        result = next.error !== undefined ? program.throw(next.error) : program.next(next.value);
      } catch (error) {
        rt.program = null;
        if (!(error instanceof CallEnded)) {
          alert(
            rt,
            12500,
            `internal error running markup: ${error instanceof Error ? error.message : String(error)}`,
          );
          applyEvent(rt.sid, "hangup");
        }
        return;
      }
      if (result.done) {
        rt.program = null;
        finishProgram(rt, result.value as Outcome);
        return;
      }
      const effect = result.value as Effect;
      if (effect.type === "fetch") {
        next = { value: await fetchMarkup(rt, effect) };
        continue;
      }
      if (
        rt.finishing &&
        getCall(rt.sid).status !== "in-progress" &&
        isTerminalCallStatus(getCall(rt.sid).status)
      ) {
        // The call is over: a verb cleaning up may not wait any more.
        next = { error: new CallEnded("call over") };
        continue;
      }
      if (effect.wake.includes("signal") && rt.pendingSignals.length > 0) {
        next = { value: rt.pendingSignals.shift() };
        continue;
      }
      const timerHandle =
        effect.ms === null
          ? null
          : scheduler.after(effect.ms, eventClass.timer, `wait ${rt.sid}`, () => {
              if (!rt.waiting) return;
              rt.waiting = null;
              return step(rt, { value: { kind: "timeout" } });
            });
      rt.waiting = { wake: effect.wake, timer: timerHandle };
      return;
    }
  }

  async function fetchMarkup(
    rt: CallRuntime,
    effect: Extract<Effect, { type: "fetch" }>,
  ): Promise<OutboundResult> {
    const call = getCall(rt.sid);
    const account = ctx.store.accounts.get(call.account_sid);
    if (effect.url === "") return { ok: false, error: "no URL is configured", url: "" };
    // Callbacks queued so far go out first, so the delivery log has one order run after run (virtual clock).
    if (ctx.clock.mode === "virtual") await webhooks().idle();
    note(rt, "markup.request", { url: effect.url, method: effect.method });
    const result = await webhooks().request({
      kind: "voice-markup",
      url: effect.url,
      method: effect.method,
      params: effect.params,
      accountSid: call.account_sid,
      authToken: account?.auth_token ?? "",
      callSid: call.sid,
      orderingKey: call.parent_call_sid ?? call.sid,
    });
    note(rt, "markup.response", result.ok ? { status: result.status } : { error: result.error });
    return result;
  }

  function finishProgram(rt: CallRuntime, outcome: Outcome) {
    if (rt.whisper) {
      rt.whisper = null;
      // Twilio bridges when the whisper document ends; a <Hangup> (or a failed document) turns the call away.
      if (outcome.type === "hangup" && outcome.endOfDocument) {
        note(rt, "whisper.end");
        signalParent(getCall(rt.sid));
        return;
      }
      note(rt, "whisper.rejected");
    }
    const call = getCall(rt.sid);
    if (outcome.type === "hangup" && call.direction === "inbound" && call.answered_at === null) {
      // Left ringing by answerOnBridge and never answered: the caller gets no answer (never billed).
      applyEvent(rt.sid, "no-answer");
      return;
    }
    if (outcome.type === "reject") {
      note(rt, "call.rejected", { reason: outcome.reason });
      applyEvent(rt.sid, outcome.reason === "busy" ? "busy" : "no-answer");
      return;
    }
    applyEvent(rt.sid, "hangup");
  }

  const startProgram = (rt: CallRuntime, from?: Navigation) => {
    if (rt.program) return;
    const call = getCall(rt.sid);
    const start: Navigation =
      from ??
      (call.twiml
        ? { kind: "twiml", twiml: call.twiml }
        : { kind: "url", url: call.url ?? "", method: call.method });
    const host: ProgramHost = {
      envFor: (url) => envFor(rt, url),
      fallback: () => (call.fallback_url ? { url: call.fallback_url, method: call.fallback_method } : null),
    };
    rt.program = runCallProgram(host, start);
    scheduler.after(0, eventClass.continuation, `start ${rt.sid}`, () => step(rt, {}));
  };

  // ---- lifecycle ----------------------------------------------------------------------------------

  const sendStatus = (rt: CallRuntime, call: Call, event: CallStatusEvent) => {
    if (!call.status_callback) return;
    const events = call.status_callback_events.length > 0 ? call.status_callback_events : ["completed"];
    if (!events.includes(event)) return;
    const status =
      event === "initiated"
        ? "initiated"
        : event === "ringing"
          ? "ringing"
          : event === "answered"
            ? "in-progress"
            : call.status;
    sendCallback(services, {
      kind: "call-status",
      url: call.status_callback,
      method: call.status_callback_method,
      params: statusCallbackParams(call, status, rt.sequence++, now()),
      accountSid: call.account_sid,
      callSid: call.sid,
      orderingKey: call.parent_call_sid ?? call.sid,
    });
    note(rt, "status-callback", { event, status });
  };

  /** Applies one lifecycle event through the transition table; null when it does not apply. */
  function applyEvent(sid: string, event: CallEvent): Call | null {
    const rt = runtimeOf(sid);
    const current = ctx.store.calls.get(sid);
    if (!rt || !current) return null;
    const next = transition(current.status, event);
    if (!next) return null;
    const at = now();
    const changes: Partial<Call> = { status: next.status };
    if (event === "dispatch") changes.start_time = at;
    if (next.status === "in-progress") changes.answered_at = at;
    if (isTerminalCallStatus(next.status)) {
      changes.end_time = at;
      changes.duration = current.answered_at === null ? 0 : Math.ceil((at - current.answered_at) / 1000);
    }
    const call = ctx.store.transact(() => {
      const saved = saveCall(ctx, current, changes);
      recordEvent(
        ctx,
        `phone_call.${event === "dispatch" ? "initiated" : next.status}`,
        saved.account_sid,
        "phone_call",
        saved,
      );
      return saved;
    });
    note(rt, "status", { event, status: next.status });
    for (const effect of next.effects) runEffect(rt, call, effect);
    return call;
  }

  function runEffect(rt: CallRuntime, call: Call, effect: CallEffect) {
    switch (effect.type) {
      case "status-callback":
        sendStatus(rt, call, effect.event);
        return;
      case "consult-callee":
        consultCallee(rt, call);
        return;
      case "start-markup":
        onAnswered(rt, call);
        return;
      case "terminal":
        onTerminal(rt);
        return;
    }
  }

  function consultCallee(rt: CallRuntime, call: Call) {
    const b = rt.behaviour;
    const start = now();
    if (ownNumbers.dial(call)) {
      // One of the sandbox's own numbers: its inbound call answers (or not) through its own markup.
      timer(rt, start + call.timeout * 1000, eventClass.timer, "ring timeout", () => {
        note(rt, "ring.timeout");
        applyEvent(rt.sid, "no-answer");
      });
      return;
    }
    const ringAt = start + (b.ringAfter ?? defaultRingAfterMs);
    const decideAt = start + (b.answerAfter ?? defaultAnswerAfterMs);
    if (b.outcome === "failed") {
      timer(rt, decideAt, eventClass.input, "fail", () => void applyEvent(rt.sid, "fail"));
      return;
    }
    if (ringAt <= decideAt || b.outcome === "no-answer") {
      timer(rt, ringAt, eventClass.input, "ring", () => void applyEvent(rt.sid, "ring"));
    }
    const outcomeEvent: Record<string, CallEvent | null> = {
      answer: "answer",
      busy: "busy",
      decline: "no-answer",
      "no-answer": null,
    };
    const event = outcomeEvent[b.outcome];
    if (event) timer(rt, decideAt, eventClass.input, b.outcome, () => void applyEvent(rt.sid, event));
    timer(rt, start + call.timeout * 1000, eventClass.timer, "ring timeout", () => {
      note(rt, "ring.timeout");
      applyEvent(rt.sid, "no-answer");
    });
  }

  function onAnswered(rt: CallRuntime, call: Call) {
    // Ringing is over: drop the ring timers (a callee's steps and the time limit start now). An inbound
    // caller's steps have run since the call started and keep going.
    if (call.direction !== "inbound") {
      for (const handle of rt.timers) scheduler.cancel(handle);
      rt.timers = [];
    }
    timer(rt, now() + call.time_limit * 1000, eventClass.control, "time limit", () => {
      alert(
        rt,
        13610,
        `The call reached its time limit of ${call.time_limit} seconds and was hung up`,
        "warning",
      );
      applyEvent(rt.sid, "hangup");
    });
    if (call.direction !== "inbound") connectParty(rt);
    if (call.record) {
      const recording = startRecording(services, {
        call,
        source: "OutboundAPI",
        channels: call.recording_channels === "dual" ? 2 : 1,
        statusCallback: call.recording_status_callback,
        statusCallbackMethod: call.recording_status_callback_method,
        statusCallbackEvents: call.recording_status_callback_events,
      });
      rt.recordings.set(recording.sid, {
        sid: recording.sid,
        startedAt: recording.start_time,
        channels: recording.channels as 1 | 2,
        otherLegSid: null,
        transcribe: null,
      });
    }
    if (call.send_digits && call.direction !== "inbound") sendDigits(rt, call.send_digits);
    if (call.direction === "outbound-api") startProgram(rt);
    if (call.direction === "outbound-dial" && call.parent_call_sid) {
      // A whisper runs on the answered leg first; the parent hears ringback until it ends.
      if (rt.whisper) {
        note(rt, "whisper.start", { url: rt.whisper.url });
        startProgram(rt, { kind: "url", url: rt.whisper.url, method: rt.whisper.method });
      } else signalParent(call);
    }
    if (call.direction === "inbound") ownNumbers.answered(call.sid);
  }

  /** sendDigits: the tones reach the answered party (what it heard; the linked inbound call's markup as DTMF). */
  function sendDigits(rt: CallRuntime, digits: string) {
    const start = now();
    note(rt, "send-digits", { digits });
    const partner = ownNumbers.partnerOf(rt.sid);
    for (const tone of digitSchedule(digits)) {
      timer(rt, start + tone.offset, eventClass.input, "send digit", () => {
        rt.heard.push({ at: now(), kind: "digits", text: tone.digit });
        note(rt, "heard.digits", { text: tone.digit });
        const other = partner ? runtimeOf(partner) : undefined;
        if (other) return deliver(other, { kind: "dtmf", digit: tone.digit });
      });
    }
  }

  function signalParent(call: Call) {
    const parent = call.parent_call_sid ? runtimeOf(call.parent_call_sid) : undefined;
    if (!parent) return;
    const wake: Wake = { kind: "signal", name: "leg", detail: { sid: call.sid, status: call.status } };
    scheduler.after(0, eventClass.continuation, `leg ${call.sid}`, () => deliver(parent, wake));
  }

  function onTerminal(rt: CallRuntime) {
    if (rt.finishing) return;
    rt.finishing = true;
    ownNumbers.ended(rt.sid);
    for (const handle of rt.timers) scheduler.cancel(handle);
    rt.timers = [];
    scheduler.after(0, eventClass.control, `end ${rt.sid}`, () => finishCall(rt));
  }

  /** Terminal effects at one instant, in order (engine design §1). */
  async function finishCall(rt: CallRuntime) {
    // 1. The running verb cleans up (Record posts Digits=hangup, Dial posts its action).
    if (rt.program) {
      if (rt.waiting) {
        scheduler.cancel(rt.waiting.timer);
        rt.waiting = null;
      }
      await step(rt, { error: new CallEnded("hangup") });
      if (rt.program) {
        (rt.program as Generator).return(undefined);
        rt.program = null;
      }
    }
    // Out of any conference or queue it was still in (others there move on).
    conferences.callEnded(rt.sid);
    queues.callEnded(rt.sid);
    // 2. Child legs end: canceled while ringing, completed once answered.
    for (const child of rt.children) {
      const childCall = ctx.store.calls.get(child);
      if (childCall && !isTerminalCallStatus(childCall.status)) {
        applyEvent(child, childCall.status === "in-progress" ? "hangup" : "cancel");
      }
    }
    // 3. Recordings still running end with the call.
    for (const active of [...rt.recordings.values()]) endRecording(rt, active.sid, now());
    // 4. Billing, 5. the final status callback.
    const call = getCall(rt.sid);
    const billed = ctx.store.transact(() => {
      const price = billCall(ctx, call);
      const saved = price === null ? call : saveCall(ctx, call, { price, price_unit: "USD" });
      if (price !== null) recordEvent(ctx, "phone_call.priced", saved.account_sid, "phone_call", saved);
      return saved;
    });
    sendStatus(rt, billed, "completed");
    if (billed.direction === "outbound-dial") signalParent(billed);
    if (rt.bridgedWith) {
      const other = ctx.store.calls.get(rt.bridgedWith);
      // The far end of a bridge that hung up: its parent's Dial hears about it through the signal.
      if (other && other.sid === billed.parent_call_sid) rt.bridgedWith = null;
    }
  }

  // ---- recordings ---------------------------------------------------------------------------------

  const spansFor = (
    rt: CallRuntime,
    startedAt: number,
    endAt: number,
    otherLegSid: string | null,
  ): SpeechSpan[] => {
    const spans: SpeechSpan[] = [];
    const add = (channel: number, utterances: CallRuntime["speech"]) => {
      for (const u of utterances) {
        if (u.end <= startedAt || u.start >= endAt) continue;
        spans.push({
          channel,
          text: u.text,
          start_ms: Math.max(0, u.start - startedAt),
          end_ms: Math.min(endAt, u.end) - startedAt,
        });
      }
    };
    add(1, rt.speech);
    const other = otherLegSid ? runtimeOf(otherLegSid) : undefined;
    if (other) add(2, other.speech);
    return spans.sort((a, b) => a.start_ms - b.start_ms || a.channel - b.channel);
  };

  function endRecording(rt: CallRuntime, sid: string, endAt: number) {
    const active = rt.recordings.get(sid);
    if (!active) throw new Error(`recording ${sid} is not running`);
    rt.recordings.delete(sid);
    const recording = finishRecording(
      services,
      sid,
      endAt,
      spansFor(rt, active.startedAt, endAt, active.otherLegSid),
    );
    const provider = defaultSttProvider(services, recording.account_sid);
    if (active.transcribe || provider) {
      startTranscription(services, transcriptionControl, recording, {
        provider: active.transcribe ? recordVerbProvider : provider!,
        callback: active.transcribe?.callback ?? null,
        limited: active.transcribe !== null,
      });
    }
    return recording;
  }

  // ---- the environment verbs run in ---------------------------------------------------------------

  function envFor(rt: CallRuntime, documentUrl: string | null): VerbEnv {
    return {
      callSid: rt.sid,
      call: () => getCall(rt.sid),
      now,
      documentUrl,
      resolve: (url) => {
        try {
          return new URL(url, documentUrl ?? getCall(rt.sid).url ?? undefined).toString();
        } catch {
          return url;
        }
      },
      actionParams: (extra) => ({ ...voiceParams(getCall(rt.sid)), ...extra }),
      timeline: (kind, detail = {}) => note(rt, kind, detail),
      heard: (entry) => {
        rt.heard.push({ at: now(), ...entry });
        note(rt, `heard.${entry.kind}`, { ...entry });
      },
      tts: (text, voice, _language) => {
        const call = getCall(rt.sid);
        const account = ctx.store.accounts.get(call.account_sid);
        recordTtsEvent(ctx, {
          accountSid: call.account_sid,
          callSid: call.sid,
          voice: voice || account?.default_tts_voice || "Basic.Kal",
          characters: [...text].length,
          ratedNumber: call.direction === "inbound" ? call.to : call.from,
        });
      },
      verbStarted: (node: MarkupNode) => {
        const count = (rt.verbCounts.get(node.name) ?? 0) + 1;
        rt.verbCounts.set(node.name, count);
        for (const s of rt.behaviour.steps) {
          if (s.on?.verb === node.name && s.on.nth === count) {
            timer(rt, now() + (s.after ?? 0), eventClass.input, "party step", () => runStep(rt, s));
          }
        }
      },
      listening: (verb) => {
        const next = rt.untimed.shift();
        if (next) {
          timer(rt, now() + (next.after ?? 1000), eventClass.input, "party step", () => runStep(rt, next));
        } else if (!rt.scripted && verb === "Record") {
          // An unscripted caller leaves a short message, so recordings and transcripts have content.
          timer(rt, now() + 1000, eventClass.input, "default voicemail", () =>
            speakNow(rt, defaultVoicemail, speechLengthMs(defaultVoicemail), 0.92),
          );
        }
      },
      answer: () => {
        const call = getCall(rt.sid);
        if (call.direction === "inbound" && call.answered_at === null && !isTerminalCallStatus(call.status)) {
          applyEvent(rt.sid, "answer");
        }
      },
      alert: (code, message, level = "error") => alert(rt, code, message, level),
      startRecording: (start) => {
        const call = getCall(rt.sid);
        const recording = startRecording(services, {
          call,
          source: start.source,
          channels: start.channels,
          statusCallback: start.statusCallback,
          statusCallbackMethod: start.statusCallbackMethod,
          statusCallbackEvents: start.statusCallbackEvents,
        });
        rt.recordings.set(recording.sid, {
          sid: recording.sid,
          startedAt: recording.start_time,
          channels: start.channels,
          otherLegSid: start.otherLegSid ?? null,
          transcribe: start.transcribe ?? null,
        });
        note(rt, "recording.start", { sid: recording.sid, source: start.source });
        return { sid: recording.sid, startedAt: recording.start_time };
      },
      finishRecording: (handle, endAt) => {
        const recording = endRecording(rt, handle.sid, endAt);
        note(rt, "recording.end", { sid: recording.sid, duration: recording.duration });
        return {
          sid: recording.sid,
          duration: recording.duration ?? 0,
          url: recordingUrl(services, recording),
        };
      },
      discardRecording: (handle) => {
        rt.recordings.delete(handle.sid);
        discardRecording(services, handle.sid);
      },
      startLegs: (targets, legOptions) => targets.map((target) => startLeg(rt, target, legOptions)),
      endLeg: (sid) => {
        const child = ctx.store.calls.get(sid);
        if (!child || isTerminalCallStatus(child.status)) return;
        applyEvent(sid, child.status === "in-progress" ? "hangup" : "cancel");
      },
      bridge: (childSid) => bridge(rt, childSid),
      conference: conferences.hostFor(rt.sid),
      queue: queues.hostFor(rt.sid),
      accountExtension: (extension) => agentTarget(getCall(rt.sid).account_sid, extension),
      ringGroup: (name) => {
        const accountSid = getCall(rt.sid).account_sid;
        const group = ctx.store.ringGroups
          .where("account", accountSid)
          .find((g) => g.name === name || g.sid === name);
        if (!group) return null;
        const targets = group.agent_extension_sids
          .map((sid) => ctx.store.agentExtensions.get(sid))
          .filter((e) => e !== undefined)
          .map((e) => agentTarget(accountSid, e.extension)!)
          .filter((t) => t !== null);
        return { strategy: group.strategy, ringTimeout: group.ring_timeout, targets };
      },
    };
  }

  function agentTarget(accountSid: string, extension: string): DialTarget | null {
    const agent = ctx.store.agentExtensions
      .where("account", accountSid)
      .find((e) => e.extension === extension || e.agent_name === extension);
    if (!agent) return null;
    return {
      kind: "extension",
      to: agent.extension,
      agentStatus: agent.status,
      statusCallback: null,
      statusCallbackMethod: "POST",
      statusCallbackEvents: [],
    };
  }

  /** What an agent's status does to a call (SIP codes Somleng maps): busy 486, dnd 603, offline 480, away rings out. */
  function agentBehaviour(target: DialTarget): PartyBehaviour | null {
    switch (target.agentStatus) {
      case "busy":
        return parseBehaviour({ outcome: "busy", answerAfter: 0 });
      case "dnd":
        return parseBehaviour({ outcome: "decline", answerAfter: 0 });
      case "offline":
        return parseBehaviour({ outcome: "decline", ringAfter: 0, answerAfter: 0 });
      case "away":
        return parseBehaviour({ outcome: "no-answer" });
      default:
        return null;
    }
  }

  function startLeg(
    parent: CallRuntime,
    target: DialTarget,
    legOptions: { callerId: string | null; timeout: number; timeLimit: number },
  ): string {
    const parentCall = getCall(parent.sid);
    const child = createCallRecord(ctx, {
      accountSid: parentCall.account_sid,
      direction: "outbound-dial",
      from: legOptions.callerId ?? parentCall.from,
      to: target.to,
      parentCallSid: parentCall.sid,
      statusCallback: target.statusCallback,
      statusCallbackMethod: target.statusCallbackMethod,
      statusCallbackEvents: target.statusCallbackEvents.filter((e): e is CallStatusEvent =>
        ["initiated", "ringing", "answered", "completed"].includes(e),
      ),
      timeout: legOptions.timeout,
      timeLimit: legOptions.timeLimit,
      sendDigits: target.sendDigits ?? null,
    });
    const scripted = parties.has(target.to);
    const found = target.failed
      ? { behaviour: parseBehaviour({ outcome: "failed", answerAfter: 0 }), scripted: false }
      : target.kind === "extension" && !scripted
        ? { behaviour: agentBehaviour(target) ?? defaultBehaviour, scripted: false }
        : behaviourFor(target.to);
    const rt = createRuntime(child.sid, found.behaviour, found.scripted);
    rt.whisper = target.whisper ?? null;
    runtimes.set(child.sid, rt);
    parent.children.push(child.sid);
    note(parent, "dial.leg", { sid: child.sid, to: target.to });
    applyEvent(child.sid, "dispatch");
    return child.sid;
  }

  function bridge(parent: CallRuntime, childSid: string) {
    const child = runtimeOf(childSid);
    if (!child) return;
    parent.bridgedWith = childSid;
    child.bridgedWith = parent.sid;
    for (const active of parent.recordings.values())
      if (active.otherLegSid === null) active.otherLegSid = childSid;
    note(parent, "dial.bridged", { sid: childSid });
    talk(child, parent, child);
  }

  /** Unscripted parties on a bridge: the agent greets, the customer answers; `leaver` hangs up 60 s in. */
  function talk(agent: CallRuntime, customer: CallRuntime, leaver: CallRuntime) {
    const at = now();
    // A leg linked to one of the sandbox's own numbers has that call's markup as its party, not a simulation.
    if (ownNumbers.partnerOf(agent.sid) || ownNumbers.partnerOf(customer.sid)) return;
    if (!agent.scripted && !customer.scripted) {
      const agentMs = speechLengthMs(defaultConversation.agent);
      timer(agent, at + 1000, eventClass.input, "default conversation", () =>
        speakNow(agent, defaultConversation.agent, agentMs, 0.92),
      );
      timer(customer, at + 1500 + agentMs, eventClass.input, "default conversation", () =>
        speakNow(customer, defaultConversation.customer, speechLengthMs(defaultConversation.customer), 0.92),
      );
    }
    if (leaver.behaviour.hangupAfter === undefined && !leaver.behaviour.steps.some((s) => s.hangup)) {
      timer(leaver, at + defaultBridgeTalkMs, eventClass.control, "default hangup", () => {
        note(leaver, "party.hangup");
        applyEvent(leaver.sid, "hangup");
      });
    }
  }

  // ---- public operations --------------------------------------------------------------------------

  const engine: CallEngine = {
    scheduler,
    drives: (callSid) => runtimes.has(callSid),
    dispatchCall(callSid) {
      if (runtimes.has(callSid)) return;
      const call = getCall(callSid);
      const found = behaviourFor(call.to);
      const rt = createRuntime(callSid, found.behaviour, found.scripted);
      runtimes.set(callSid, rt);
      note(rt, "call.created", { direction: call.direction });
      scheduler.after(
        0,
        eventClass.control,
        `dispatch ${callSid}`,
        () => void applyEvent(callSid, "dispatch"),
      );
    },
    ring(input) {
      const number = ctx.store.phoneNumbers.findOne("number", input.to);
      if (!number || number.account_sid === null) throw errors.numberNotRouted(input.to);
      assertMayCall(ctx, number.account_sid);
      const fault =
        ctx.faults?.take("number", input.from, now()) ?? ctx.faults?.take("number", input.to, now());
      const caller = input.caller
        ? parseBehaviour(input.caller)
        : (parties.get(input.from) ?? defaultBehaviour);
      const scripted = caller.steps.length > 0 || caller.hangupAfter !== undefined;
      const created = createCallRecord(ctx, {
        accountSid: number.account_sid,
        direction: "inbound",
        from: input.from,
        to: input.to,
        phoneNumberSid: number.sid,
        url: number.voice_url,
        method: number.voice_method,
        fallbackUrl: number.voice_fallback_url,
        fallbackMethod: number.voice_fallback_method,
        statusCallback: number.status_callback,
        statusCallbackMethod: number.status_callback_method,
        callerName: input.callerName ?? null,
      });
      const call = input.forwardedFrom
        ? saveCall(ctx, created, { forwarded_from: input.forwardedFrom })
        : created;
      const rt = createRuntime(call.sid, caller, scripted);
      runtimes.set(call.sid, rt);
      note(rt, "call.created", { direction: "inbound" });
      saveCall(ctx, getCall(call.sid), { start_time: now() });
      const ringing = applyEvent(call.sid, "ring") ?? getCall(call.sid);
      if (fault) {
        // A faulted number: the call never reaches the markup.
        const event: CallEvent = fault.outcome === "fail" ? "fail" : fault.outcome;
        scheduler.after(0, eventClass.input, `fault ${call.sid}`, () => void applyEvent(call.sid, event));
        return ringing;
      }
      connectParty(rt);
      startProgram(rt);
      return ringing;
    },
    hangup(callSid) {
      const call = getCall(callSid);
      if (!runtimes.has(callSid)) return call;
      return applyEvent(callSid, "hangup") ?? getCall(callSid);
    },
    cancel(callSid) {
      const call = getCall(callSid);
      if (!runtimes.has(callSid)) return call;
      return applyEvent(callSid, "cancel") ?? getCall(callSid);
    },
    redirect(callSid, to) {
      const rt = runtimeOf(callSid);
      if (!rt) return;
      note(rt, "call.redirect", to.kind === "url" ? { url: to.url } : { twiml: true });
      scheduler.after(0, eventClass.control, `redirect ${callSid}`, () => {
        if (rt.finishing) return;
        if (rt.program && rt.waiting) {
          scheduler.cancel(rt.waiting.timer);
          rt.waiting = null;
          return step(rt, { error: new Redirected(to) });
        }
        // Not running markup yet (queued or ringing): the new Url or Twiml is used when it answers.
      });
    },
    setParty(number, behaviour) {
      const parsed = parseBehaviour(behaviour);
      parties.set(number, parsed);
      return parsed;
    },
    clearParty(number) {
      parties.delete(number);
    },
    party: (number) => behaviourFor(number).behaviour,
    press(callSid, digits) {
      const rt = runtimeOf(callSid);
      if (!rt) throw errors.notPending("call", callSid);
      scheduler.after(0, eventClass.input, `press ${callSid}`, () =>
        runStep(rt, parseBehaviour({ steps: [{ press: digits, at: 0 }] }).steps[0]!),
      );
    },
    speak(callSid, text, durationMs) {
      const rt = runtimeOf(callSid);
      if (!rt) throw errors.notPending("call", callSid);
      scheduler.after(0, eventClass.input, `speak ${callSid}`, () =>
        speakNow(rt, text, durationMs ?? speechLengthMs(text), 0.92),
      );
    },
    timeline: (callSid) => [...(runtimeOf(callSid)?.timeline ?? [])],
    heard: (callSid) => [...(runtimeOf(callSid)?.heard ?? [])],
    alerts: (callSid) => alertLog.filter((a) => callSid === undefined || a.callSid === callSid),
    transcriptions: {
      failAll(fail) {
        transcriptionControl.forced = fail ? "fail" : null;
      },
      complete: (sid, outcome, result) =>
        completeTranscription(services, transcriptionControl, sid, outcome, result),
      script(callSid, result) {
        if (result) transcriptionControl.scripted?.set(callSid, result);
        else transcriptionControl.scripted?.delete(callSid);
      },
    },
    messages: { receive: (input) => messageLifecycle.receive(input) },
    conferences,
    queues,
    reset() {
      messageLifecycle.reset();
      conferences.reset();
      queues.reset();
      ownNumbers.reset();
      scheduler.clear();
      runtimes.clear();
      parties.clear();
      alertLog = [];
      transcriptionControl.forced = null;
      transcriptionControl.pending.clear();
      transcriptionControl.scripted?.clear();
    },
  };

  attachCallEngine(ctx, engine);
  // Every outbound-api call the account API creates starts its lifecycle; the route need not know.
  ctx.store.subscribe((batch) => {
    for (const change of batch) {
      if (change.table === "messages" && change.op === "put") {
        const message = change.row as Message;
        // Outbound messages start delivery as soon as they exist (queued, accepted, or at SendAt).
        if (message.direction !== "inbound" && ["queued", "accepted", "scheduled"].includes(message.status)) {
          messageLifecycle.start(message);
        }
        continue;
      }
      if (change.table !== "calls" || change.op !== "put") continue;
      const call = change.row as Call;
      if (call.direction === "outbound-api" && call.status === "queued" && !runtimes.has(call.sid)) {
        engine.dispatchCall(call.sid);
      }
    }
  });

  return engine;
}
