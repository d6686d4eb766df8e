// The inspector's call views: a bounded, filtered list, and one call with everything that happened on it.
import type { Call } from "../../domain/call.js";
import type { Transcription } from "../../domain/transcription.js";
import { callEngineOf } from "../../engine/engine-registry.js";
import { renderAttempt } from "../../http/admin-api/webhooks.js";
import type { SandboxCore } from "../../sandbox.js";
import { newestFirst } from "./newest-first.js";

export interface CallListFilter {
  account?: string | undefined;
  status?: string | undefined;
  limit: number;
}

/** What the list shows of a call. */
const summary = (call: Call) => ({
  sid: call.sid,
  account_sid: call.account_sid,
  parent_call_sid: call.parent_call_sid,
  direction: call.direction,
  from: call.from,
  to: call.to,
  status: call.status,
  duration: call.duration,
  price: call.price,
  price_unit: call.price_unit,
  created_at: call.created_at,
});

export function listCalls(sandbox: SandboxCore, filter: CallListFilter) {
  const { calls } = sandbox.store;
  // Narrow by an index first, so a filtered list reads only the rows it may show.
  const candidates = filter.status
    ? calls.where("status", filter.status)
    : filter.account
      ? calls.where("account", filter.account)
      : calls.all();
  const matching =
    filter.account && filter.status ? candidates.filter((c) => c.account_sid === filter.account) : candidates;
  return { calls: newestFirst(matching, filter.limit).map(summary), total: matching.length };
}

/** Everything about one call the inspector draws: its record, legs, timeline, recordings, webhooks, charges. */
export function describeCall(sandbox: SandboxCore, sid: string) {
  const { store } = sandbox;
  const call = store.calls.get(sid);
  if (!call) return undefined;
  const engine = callEngineOf(sandbox.engine);
  const recordings = store.recordings.where("call", sid).map((recording) => ({
    ...recording,
    media_url: `/__sandbox/media/${recording.sid}.wav`,
    transcriptions: store.transcriptions.where("recording", recording.sid),
  }));
  return {
    call,
    parent: call.parent_call_sid ? summaryOf(store.calls.get(call.parent_call_sid)) : null,
    children: store.calls.where("parent", sid).map(summary),
    timeline: engine?.timeline(sid) ?? [],
    heard: engine?.heard(sid) ?? [],
    alerts: engine?.alerts(sid) ?? [],
    recordings,
    conferences: store.participants.where("call", sid).map((p) => ({
      ...p,
      conference: store.conferences.get(p.conference_sid)?.friendly_name ?? null,
    })),
    webhooks: sandbox.webhooks.list({ callSid: sid, limit: 500 }).map(renderAttempt),
    charges: chargesOf(sandbox, call, recordings),
  };
}

const summaryOf = (call: Call | undefined) => (call ? summary(call) : null);

/** What the call cost, item by item, from the priced records it made (read by index, not from the ledger). */
function chargesOf(
  sandbox: SandboxCore,
  call: Call,
  recordings: { sid: string; price: string | null; price_unit: string; transcriptions: Transcription[] }[],
) {
  const items: { item: string; sid: string; price: string | null; price_unit: string }[] = [
    { item: "call", sid: call.sid, price: call.price, price_unit: call.price_unit },
  ];
  for (const tts of sandbox.store.ttsEvents.where("call", call.sid)) {
    items.push({
      item: `speech (${tts.characters} characters)`,
      sid: tts.sid,
      price: tts.price,
      price_unit: tts.price_unit,
    });
  }
  for (const r of recordings) {
    items.push({ item: "recording", sid: r.sid, price: r.price, price_unit: r.price_unit });
    for (const t of r.transcriptions) {
      items.push({ item: "transcription", sid: t.sid, price: t.price, price_unit: t.price_unit });
    }
  }
  return items;
}
