// What happened in a scenario's sandbox, as plain records for expectations: calls, recordings, webhooks, ledger...

import { turnsOf } from "../engine/media-streams/agent-metrics.js";
import type { TurnRecord } from "../engine/media-streams/conversation.js";
import type { HandlerHost } from "./handler-host.js";
import { createSidNames } from "./names.js";
import { relayRecords, streamRecords, type Timed } from "./observe-streams.js";
import type { PlayedSandbox } from "./played-sandbox.js";
import { formatOffset } from "./result.js";
import { ringbacksOf } from "./ringback.js";

export interface Observer {
  readonly accountSid: string;
  /** Call sids by scenario id. */
  readonly ids: Map<string, string>;
  idOf(sid: string): string | undefined;
  /** The sid a name stands for now: a call id, a named party's or agent's first leg, `conferences.x`, `queues.x`. */
  sidOf(name: string): string | undefined;
  call(sid: string): Record<string, unknown> | undefined;
  children(sid: string): Record<string, unknown>[];
  /** Every call of the account, oldest first. */
  calls(): Record<string, unknown>[];
  recordings(): Record<string, unknown>[];
  transcriptions(): Record<string, unknown>[];
  messages(): Record<string, unknown>[];
  /** First attempts of callbacks, markup requests, or both ("all"), oldest first. */
  requests(which: "callbacks" | "markup" | "all"): Record<string, unknown>[];
  heard(sid: string): Record<string, unknown>[];
  /** What the call heard with the ringback of each of its Dials in its place (`kind: ringback`, its tone). */
  heardWithRingback(sid: string): Record<string, unknown>[];
  ledger(): Record<string, unknown>[];
  balanceCents(): number;
  events(): Record<string, unknown>[];
  alerts(): Record<string, unknown>[];
  /** Media streams of the account's calls, oldest first. */
  streams(): Record<string, unknown>[];
  /** ConversationRelay sessions of the account's calls, oldest first. */
  relays(): Record<string, unknown>[];
  /** The turns of the call's `<Connect>` agents (media streams and relays), in order; those still going are left out. */
  agentTurns(sid: string): TurnRecord[];
  /** Calls of the account whose agents had turns, oldest first. */
  agentCalls(): string[];
  /** The call's timeline, one line per entry, times from the scenario's start. */
  timeline(sid: string): string[];
  offset(ms: number): string;
}

const markupKinds = new Set(["voice-markup", "sms-markup"]);

/** Times as ISO 8601 so reports read well; a record's other fields as the store keeps them. */
function present(row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const isTime = /(_at|_time)$/.test(key) || key.startsWith("date_") || key === "send_at";
    out[key] = isTime && typeof value === "number" ? new Date(value).toISOString() : value;
  }
  return out;
}

export function createObserver(
  core: PlayedSandbox,
  host: HandlerHost,
  accountSid: string,
  origin: number,
  legTargets: ReadonlyMap<string, string> = new Map(),
): Observer {
  const ids = new Map<string, string>();
  const names = createSidNames(core, accountSid, ids, legTargets);
  const offset = (ms: number) => formatOffset(ms - origin);
  const idOf = (sid: string) => [...ids.entries()].find(([, s]) => s === sid)?.[0];
  const callSids = () => core.store.calls.where("account", accountSid).map((c) => c.sid);
  const inOrder = (all: Timed[]) => all.sort((a, b) => a.startedAt - b.startedAt).map((t) => t.record);
  return {
    accountSid,
    ids,
    idOf,
    sidOf: (name) => names.sidOf(name),
    offset,
    call(sid) {
      const row = core.store.calls.get(sid);
      return row ? present(row) : undefined;
    },
    children: (sid) => core.store.calls.where("parent", sid).map(present),
    calls: () => core.store.calls.where("account", accountSid).map(present),
    recordings: () =>
      core.store.recordings.where("account", accountSid).map((r) => {
        const { speech: _speech, ...rest } = r;
        return present(rest);
      }),
    transcriptions: () => core.store.transcriptions.where("account", accountSid).map(present),
    messages: () => core.store.messages.where("account", accountSid).map(present),
    requests(which) {
      return core.webhooks.deliveries
        .filter(
          (d) => d.attempt === 1 && (which === "all" || markupKinds.has(d.kind) === (which === "markup")),
        )
        .map((d) => ({
          at: offset(d.at),
          kind: d.kind,
          method: d.method,
          url: host.relative(d.url),
          call_sid: d.callSid,
          params: { ...d.params },
          status: d.status,
          outcome: d.outcome,
        }));
    },
    heard: (sid) => core.calls.heard(sid).map((h) => ({ ...h, at: offset(h.at) })),
    heardWithRingback(sid) {
      const rings = ringbacksOf(core, sid).map((r) => ({ ...r, kind: "ringback" }));
      // Stable: at the same instant, the ringback comes before what else was heard then.
      return [...rings, ...core.calls.heard(sid)]
        .map((h, i) => ({ h, i: h.kind === "ringback" ? i - rings.length : i }))
        .sort((a, b) => a.h.at - b.h.at || a.i - b.i)
        .map(({ h }) => ({ ...h, at: offset(h.at) }));
    },
    ledger: () => core.store.ledger.where("account", accountSid).map(present),
    balanceCents() {
      const entries = core.store.ledger.where("account", accountSid);
      return entries.length === 0 ? 0 : entries[entries.length - 1]!.balance_cents;
    },
    events: () => core.store.events.where("account", accountSid).map(present),
    alerts: () =>
      core.calls.alerts().map((a) => ({
        at: offset(a.at),
        call_sid: a.callSid,
        code: a.code,
        level: a.level,
        message: a.message,
      })),
    streams() {
      const callbacks = core.webhooks.deliveries
        .filter((d) => d.attempt === 1 && d.kind === "stream-status")
        .map((d) => ({ streamSid: String(d.params.StreamSid), event: String(d.params.StreamEvent) }));
      return inOrder(
        callSids().flatMap((sid) => streamRecords(sid, core.calls.timeline(sid), callbacks, offset)),
      );
    },
    relays: () => inOrder(callSids().flatMap((sid) => relayRecords(sid, core.calls.timeline(sid), offset))),
    agentTurns: (sid) => turnsOf(core.calls.timeline(sid)),
    agentCalls: () => callSids().filter((sid) => turnsOf(core.calls.timeline(sid)).length > 0),
    timeline(sid) {
      return core.calls.timeline(sid).map((entry) => {
        const detail = Object.keys(entry.detail).length > 0 ? ` ${JSON.stringify(entry.detail)}` : "";
        return `${offset(entry.at)}  ${entry.kind}${detail}`;
      });
    },
  };
}
