// The inspector's call views: a bounded, filtered list, and one call with everything that happened on it.
import type { Call } from "../../domain/call.js";
import type { Transcription } from "../../domain/transcription.js";
import { renderAttempt } from "../../http/admin-api/webhooks.js";
import { chooseIndex, walkPage, walkTable } from "../../http/list-walk.js";
import type { SandboxCore } from "../../sandbox.js";
import { type ClearMark, markOf, searched, shownAfter, sinceTime } from "./search.js";

export interface CallListFilter {
  account?: string | undefined;
  status?: string | undefined;
  /** A call sid, or a number the calls are from or to (as stored: E.164, `client:name`, a SIP address). */
  q?: string | undefined;
  /** Hides the calls a "clear" saw. */
  mark?: ClearMark | undefined;
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

/** The call list's indexes, most selective first (as the account API's call list declares its own). */
const callIndexes = {
  accountStatus: ["account", "status"],
  account: ["account"],
  status: ["status"],
} as const;

const callSid = /^CA[0-9a-f]{32}$/;

export function listCalls(sandbox: SandboxCore, filter: CallListFilter) {
  const { calls } = sandbox.store;
  const mark = filter.mark;
  const found = searched(calls, filter.q, callSid);
  // Walked newest first and left once the page is full: the list costs the same however many calls exist.
  const choice = found
    ? { covered: new Set<string>() }
    : chooseIndex(callIndexes, (name) => filter[name as "account" | "status"]);
  const covers = (name: string) => choice.covered.has(name);
  const tests = [
    filter.account && !covers("account") ? (c: Call) => c.account_sid === filter.account : undefined,
    filter.status && !covers("status") ? (c: Call) => c.status === filter.status : undefined,
    mark ? shownAfter(mark) : undefined,
  ].filter((test) => test !== undefined);
  const rows = sinceTime(found ?? walkTable(calls, choice, true), mark?.at);
  const matches = tests.length === 0 ? undefined : (c: Call) => tests.every((test) => test(c));
  // A plain list counts its calls by index; a searched or cleared one counts what it walked.
  const counted = found !== undefined || mark !== undefined;
  const page = walkPage(rows, { skip: 0, take: filter.limit, matches, total: counted });
  const total = counted
    ? page.total!
    : choice.index === undefined
      ? calls.size
      : calls.count(choice.index, choice.key!);
  return { calls: page.rows.map(summary), total, mark: markOf(calls) };
}

/** Everything about one call the inspector draws: its record, legs, timeline, recordings, webhooks, charges. */
export function describeCall(sandbox: SandboxCore, sid: string) {
  const { store } = sandbox;
  const call = store.calls.get(sid);
  if (!call) return undefined;
  const engine = sandbox.calls;
  const recordings = store.recordings.where("call", sid).map((recording) => ({
    ...recording,
    media_url: `/__sandbox/media/${recording.sid}.wav`,
    transcriptions: store.transcriptions.where("recording", recording.sid),
  }));
  return {
    call,
    parent: call.parent_call_sid ? summaryOf(store.calls.get(call.parent_call_sid)) : null,
    children: store.calls.where("parent", sid).map(summary),
    timeline: engine.timeline(sid),
    heard: engine.heard(sid),
    alerts: engine.alerts(sid),
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
