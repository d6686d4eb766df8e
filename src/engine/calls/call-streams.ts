// Media streams of live calls: opens each stream's session for its call, keeps its Stream record, ends them with the call.
import { errors } from "../../domain/errors.js";
import type { RelayControl, RelaySpec, StreamControl, StreamSpec } from "../../markup/effects.js";
import { defaultAgentTurnTimeoutMs, maxAgentTurnTimeoutMs } from "../media-streams/agent-turns.js";
import type { TranscriberPool } from "../media-streams/agent-utterances.js";
import type { FrameSenders } from "../media-streams/frame-senders.js";
import { openRelaySession } from "../media-streams/relay-session.js";
import { budgetGauge, createPlaybackBudget, resetBudget } from "../media-streams/stream-budget.js";
import { openStreamSession, type StreamSession } from "../media-streams/stream-session.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { type AgentHosting, relaySessionHost, streamSessionHost } from "./call-stream-hosts.js";
import { createConversationFeeds } from "./conversation-feeds.js";
import { maxStreamsPerCall, type StreamRecord, type StreamsPart } from "./stream-records.js";

/** Stopped streams remembered per call (for fetches by name or sid) before the oldest is forgotten. */
const keptStoppedPerCall = 16;
/** Calls whose waits for their agent's answers are kept (the oldest call's go first), and turns per call. */
const waitsKeptCalls = 10_000;
const waitsKeptTurns = 10_000;

/** `agentTurnTimeout` as an option gives it: a whole number of ms from 0 to a minute (a wait on the app is real time). */
export function checkAgentTurnTimeout(ms: number): number {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > maxAgentTurnTimeoutMs)
    throw new RangeError(
      `agentTurnTimeout must be a whole number of milliseconds from 0 to ${maxAgentTurnTimeoutMs} (got ${ms})`,
    );
  return ms;
}

/** The real time waited for each call's agent, by turn: kept apart from the timeline, which it would make differ run to run. */
function createAgentHosting(
  options: StreamsOptions,
): AgentHosting & { waits: Map<string, (number | null)[]>; setTimeout(ms: number): void } {
  const waits = new Map<string, (number | null)[]>();
  let timeout = checkAgentTurnTimeout(options.agentTurnTimeoutMs ?? defaultAgentTurnTimeoutMs);
  return {
    budget: createPlaybackBudget(options.maxQueuedBytes),
    frameSenders: options.frameSenders ?? null,
    waits,
    agentTurnTimeoutMs: () => timeout,
    setTimeout(ms) {
      timeout = checkAgentTurnTimeout(ms);
    },
    agentWaited(callSid, n, ms) {
      let list = waits.get(callSid);
      if (!list) {
        if (waits.size >= waitsKeptCalls) waits.delete(waits.keys().next().value!);
        list = [];
        waits.set(callSid, list);
      }
      if (n < 1 || n > waitsKeptTurns) return;
      while (list.length < n - 1) list.push(null);
      list[n - 1] = ms;
    },
  };
}

interface Entry {
  session: StreamSession;
  record: StreamRecord;
  bidirectional: boolean;
}

/** A unidirectional stream by sid, else by name (the running one first): what the API's stop names. */
function findUnidirectional(entries: readonly Entry[], sidOrName: string): Entry | undefined {
  const all = entries.filter((e) => !e.bidirectional);
  return (
    all.find((e) => e.record.sid === sidOrName) ??
    all.find((e) => e.record.name === sidOrName && e.record.status === "in-progress") ??
    all.find((e) => e.record.name === sidOrName)
  );
}

export interface StreamsOptions {
  /** What every bidirectional stream's playback queue may hold together (stream-budget.ts). */
  maxQueuedBytes?: number | undefined;
  /** Turns each turn of a `<Connect><Stream>` app's audio into the words it said (shared with live callers' words). */
  transcribers?: TranscriberPool | null;
  /** How long the virtual clock waits for an app's answer (stream-agent.ts, relay-turns.ts). */
  agentTurnTimeoutMs?: number | undefined;
  /** Real clock: the threads that hold streams' sockets and send their frames (none: the main thread does). */
  frameSenders?: FrameSenders | null;
}

export function createStreams(reg: CallRegistry, options: StreamsOptions = {}): StreamsPart {
  const hosting = createAgentHosting(options);
  const { budget } = hosting;
  const { services, parts, now } = reg;
  const { ctx, scheduler } = services;
  const conversations = createConversationFeeds(reg, options.transcribers ?? null);
  /** Streams of each live call by sid, in the order they started (stopped ones too, a few). */
  const byCall = new Map<string, Map<string, Entry>>();
  /** Relay sessions open now, by call (one at most: the call waits in its <Connect>). */
  const relays = new Map<string, RelayControl>();

  const entries = (callSid: string) => [...(byCall.get(callSid)?.values() ?? [])];
  const running = (callSid: string) => entries(callSid).filter((e) => e.record.status === "in-progress");

  const markStopped = (entry: Entry) => {
    if (entry.record.status === "stopped") return;
    entry.record.status = "stopped";
    entry.record.updated_at = now();
    const streams = byCall.get(entry.record.call_sid);
    const stopped = entries(entry.record.call_sid).filter((e) => e.record.status === "stopped");
    if (streams && stopped.length > keptStoppedPerCall) streams.delete(stopped[0]!.record.sid);
  };

  const open = (rt: CallRuntime, spec: StreamSpec): StreamControl | null => {
    const call = reg.getCall(rt.sid);
    if (!spec.bidirectional && running(rt.sid).filter((e) => !e.bidirectional).length >= maxStreamsPerCall) {
      return null;
    }
    const sid = ctx.ids.mint("MZ");
    const env = parts.envFor(rt, null);
    let entry: Entry;
    const ended = (streamSid: string) => {
      markStopped(entry);
      // Only <Connect> waits on its stream; a <Start> stream ends without touching the markup.
      if (!spec.bidirectional) return;
      scheduler.after(0, eventClass.continuation, `stream end ${rt.sid}`, () =>
        parts.program.deliver(rt, { kind: "signal", name: "stream", detail: { sid: streamSid } }, true),
      );
    };
    const host = streamSessionHost(reg, rt, call, env, ended, hosting);
    const fed = spec.bidirectional ? conversations.stream(rt, host, sid) : host;
    const session = openStreamSession(fed, sid, spec);
    entry = {
      session,
      bidirectional: spec.bidirectional,
      record: {
        sid,
        account_sid: call.account_sid,
        call_sid: call.sid,
        name: spec.name,
        status: "in-progress",
        updated_at: now(),
      },
    };
    if (!byCall.has(rt.sid)) byCall.set(rt.sid, new Map());
    byCall.get(rt.sid)!.set(sid, entry);
    return {
      sid,
      ended: session.ended,
      dtmf: session.dtmf,
      stop() {
        markStopped(entry);
        session.stop();
      },
    };
  };

  const stopEntry = (entry: Entry) => {
    markStopped(entry);
    entry.session.stop();
  };

  const openRelay = (rt: CallRuntime, spec: RelaySpec): RelayControl => {
    const call = reg.getCall(rt.sid);
    const env = parts.envFor(rt, null);
    const sessionId = ctx.ids.mint("VX");
    const ended = () => {
      relays.delete(rt.sid);
      scheduler.after(0, eventClass.continuation, `relay end ${rt.sid}`, () =>
        parts.program.deliver(rt, { kind: "signal", name: "relay", detail: { sessionId } }, true),
      );
    };
    const host = conversations.relay(rt, relaySessionHost(reg, rt, call, env, ended, hosting));
    const session = openRelaySession(host, sessionId, spec);
    relays.set(rt.sid, session);
    return {
      ...session,
      speechStarted() {
        conversations.callerSpoke(rt);
        session.speechStarted();
      },
      stop() {
        relays.delete(rt.sid);
        session.stop();
      },
    };
  };

  return {
    open,
    openRelay,
    startFromApi(callSid, spec) {
      const rt = reg.runtime(callSid);
      const call = ctx.store.calls.get(callSid);
      if (!rt || !call || call.status !== "in-progress" || rt.finishing) {
        throw errors.callNotLive(
          callSid,
          call?.status ?? "unknown",
          "a stream can be started only on a live call",
        );
      }
      const control = open(rt, spec);
      if (!control) throw errors.tooManyStreams(callSid, maxStreamsPerCall);
      return byCall.get(callSid)!.get(control.sid)!.record;
    },
    stop(callSid, sidOrName) {
      const entry = findUnidirectional(entries(callSid), sidOrName);
      if (!entry) return undefined;
      stopEntry(entry);
      return entry.record;
    },
    stopAll(callSid) {
      for (const entry of running(callSid)) if (!entry.bidirectional) stopEntry(entry);
    },
    callEnded(callSid) {
      conversations.audio.finish(callSid);
      const streams = byCall.get(callSid);
      if (!streams) return;
      byCall.delete(callSid);
      for (const entry of streams.values()) entry.session.stop();
    },
    queued: () => budgetGauge(budget),
    conversationAudio: conversations.wav,
    agentTurnTimeout: {
      get: hosting.agentTurnTimeoutMs,
      set: (ms) => hosting.setTimeout(ms),
    },
    agentWaits: (callSid) => [...(hosting.waits.get(callSid) ?? [])],
    reset() {
      hosting.waits.clear();
      conversations.audio.clear();
      for (const relay of relays.values()) relay.stop();
      relays.clear();
      for (const streams of byCall.values()) for (const entry of streams.values()) entry.session.terminate();
      byCall.clear();
      resetBudget(budget);
    },
  };
}
