// The bound on what the store keeps: the oldest finished calls, messages, conferences, recordings, transcriptions and ledger entries go first, each with what hangs on it.
import type { LedgerEntry } from "../../domain/carrier-records.js";
import type { Store } from "../../domain/store.js";
import { finishedKey } from "../../domain/store.js";
import { parseDuration } from "../time/duration.js";
import type { EngineContext, RecordRetention } from "./context.js";

/**
 * What a server keeps unless told otherwise, and the library too: 100,000 finished records of each kind
 * (docs/limits.md has what that holds in memory). A test suite's sandboxes never come near it.
 */
export const defaultRecordRetention = { maxCount: 10_000 } as const satisfies RecordRetention;

/** Records dropped per kind by one commit at most: the excess of a bound just lowered goes over many. */
const dropsPerCommit = 64;

/**
 * A count bound of this many records or more is looked at every `maxCount / checkShare` commits rather than after
 * each: a kind holds at most about 0.1% more than its bound for a moment, and a busy sandbox does not walk six
 * kinds' fronts on each of a message's four changes (docs/decisions.md). Smaller bounds, and a bound of age
 * alone, are looked at after every commit, as before.
 */
const checkShare = 1000;

/** Commits between two looks at the bound: 1 below `checkShare` records (and for an age alone). */
export const commitsPerCheck = (retention: RecordRetention) =>
  retention.maxCount === undefined ? 1 : Math.max(1, Math.floor(retention.maxCount / checkShare));

/** Candidates that may not go yet (see `groupOf`) passed over per kind and pass before giving up until the next. */
const passOverLimit = 64;

/** The kinds of record a bound applies to, in the order they are dropped (children before their parents). */
export const retainedKinds = [
  "transcriptions",
  "recordings",
  "messages",
  "calls",
  "conferences",
  "ledger",
] as const;
export type RetainedKind = (typeof retainedKinds)[number];
type Kind = RetainedKind;

interface Row {
  sid: string;
  created_at: number;
}

/** What goes with a record: rows to delete, children first, and the charges to sum up before any of them goes. */
interface Group {
  rows: [(keyof Store & Kind) | "ttsEvents", string][];
  charges: LedgerEntry[];
}

/**
 * Reads a bound as the command line and the config file give it: a count of records (`100000`), an age
 * (`7d`, `24h`), both (`100000,7d`), or `all` (keep every record). Throws a message that shows these forms.
 */
export function parseRetention(input: string | number): RecordRetention | false {
  const forms = "give a count of records (100000), an age (7d, 24h), both (100000,7d), or all";
  if (typeof input === "number") {
    if (!Number.isInteger(input) || input < 0) throw new Error(`${input} is not a bound: ${forms}`);
    return { maxCount: input };
  }
  const text = input.trim();
  if (text === "all") return false;
  const retention: RecordRetention = {};
  for (const part of text.split(",").map((p) => p.trim())) {
    if (/^\d+$/.test(part) && retention.maxCount === undefined) retention.maxCount = Number(part);
    else if (/^\d/.test(part) && /[a-z]$/.test(part) && retention.maxAgeMs === undefined) {
      let age: number;
      try {
        age = parseDuration(part);
      } catch {
        throw new Error(`"${part}" is not an age (7d, 24h, 30m): ${forms}`);
      }
      if (age <= 0) throw new Error(`"${part}": an age must be longer than 0: ${forms}`);
      retention.maxAgeMs = age;
    } else throw new Error(`"${input}" is not a bound: ${forms}`);
  }
  return retention;
}

/**
 * Drops what is beyond the context's bound, at most `limit` records of each kind; true when some is still
 * left over (for the next commit, or the next step of a sweep). Only records that are finished go, oldest
 * made first, and only with everything that hangs on them finished too: a call with its recordings (and
 * their transcriptions) and its text-to-speech events, a conference with its recordings, a recording
 * with its transcriptions. Charges go with what they charged for, summed up first (`usageTotals`), so
 * usage records keep their totals; an account's newest ledger entry stays, since its balance reads it.
 * Run it inside a transaction: what it drops is journaled as any change is.
 */
export function enforceRetention(ctx: EngineContext, state: RetentionState, limit = dropsPerCommit): boolean {
  const retention = ctx.recordRetention;
  if (!retention) return false;
  const maxCount = retention.maxCount ?? Number.POSITIVE_INFINITY;
  const cutoff =
    retention.maxAgeMs === undefined ? Number.NEGATIVE_INFINITY : ctx.clock.now() - retention.maxAgeMs;
  if (++state.passes % lookAgainEvery === 0) state.fronts.clear();
  let left = false;
  for (const kind of retainedKinds) {
    let front = state.fronts.get(kind);
    if (!front) {
      front = { after: undefined, count: 0 };
      state.fronts.set(kind, front);
    }
    if (dropKind(ctx, kind, front, { maxCount, cutoff, limit })) left = true;
  }
  return left;
}

/**
 * The oldest finished rows of a kind that could not go when last looked at (an account's newest charge, a
 * call whose transcription runs), passed over: each pass starts after them, so however many there are
 * (one per idle account), the rows behind them still go. They are looked at again from the oldest whenever
 * the oldest may go or the newest of them is gone, and every `lookAgainEvery` passes.
 */
export interface Front {
  /** The newest row passed over: every finished row up to it is passed over or gone. */
  after: string | undefined;
  count: number;
}

/** What the passes of one sandbox remember between commits. */
export interface RetentionState {
  fronts: Map<RetainedKind, Front>;
  passes: number;
}

const lookAgainEvery = 1024;

export const createRetentionState = (): RetentionState => ({ fronts: new Map(), passes: 0 });

/** How many finished rows a kind holds (every ledger entry counts as finished). */
function finishedCount(store: Store, kind: Kind): number {
  return kind === "ledger" ? store.ledger.size : store[kind].count("finished", finishedKey);
}

/** A kind's finished rows, oldest first, after the row `after` when given. */
function finishedRows(store: Store, kind: Kind, after: string | undefined): Generator<Row> {
  if (kind === "ledger") return store.ledger.scan({ after });
  return store[kind].scan({ index: "finished", key: finishedKey, after }) as Generator<Row>;
}

/** Drops up to `limit` rows of a kind beyond the bound; true when some is still left over. */
function dropKind(
  ctx: EngineContext,
  kind: Kind,
  front: Front,
  bound: { maxCount: number; cutoff: number; limit: number },
): boolean {
  const { store } = ctx;
  const { maxCount, cutoff, limit } = bound;
  // After a restart the indexes are filed a step at a time: this waits for them rather than filing them at once.
  if (store[kind].indexesPending) return false;
  // The last row passed over gone, or the oldest now free to go (a transcription done): start again in front.
  if (front.after !== undefined && (!store[kind].has(front.after) || oldestMayGo(store, kind))) {
    front.after = undefined;
    front.count = 0;
  }
  // The rows passed over are among the oldest, and stay: the excess is what is left to drop behind them.
  let excess = finishedCount(store, kind) - maxCount - front.count;
  if (excess <= 0 && cutoff === Number.NEGATIVE_INFINITY) return false;
  let dropped = 0;
  let passedOver = 0;
  while (dropped < limit) {
    // Read before any row goes: a table must not change while it is walked.
    const candidates: Row[] = [];
    for (const row of finishedRows(store, kind, front.after)) {
      if (candidates.length >= Math.max(excess, 0) && row.created_at >= cutoff) break;
      candidates.push(row);
      if (candidates.length >= limit - dropped) break;
    }
    if (candidates.length === 0) return false;
    // Every group is read before any of it goes, so their charges are summed in one fold. That holds only while
    // groups share no rows and a group's checks read its own rows alone (the one that reads further, an
    // account's newest entry, is never in a group): a check that reads other rows would see them still there.
    const groups: Group[] = [];
    for (const row of candidates) {
      excess -= 1;
      const group = groupOf(store, kind, row);
      if (group) {
        groups.push(group);
        dropped += 1;
        continue;
      }
      front.after = row.sid;
      front.count += 1;
      if (++passedOver >= passOverLimit) break;
    }
    drop(ctx, groups);
    if (passedOver >= passOverLimit) return true;
  }
  return true;
}

function oldestMayGo(store: Store, kind: Kind): boolean {
  const oldest = finishedRows(store, kind, undefined).next();
  return !oldest.done && groupOf(store, kind, oldest.value) !== null;
}

/** The row and what goes with it; null when something of it is still under way, or holds a balance. */
function groupOf(store: Store, kind: Kind, row: Row): Group | null {
  const group: Group = { rows: [], charges: [] };
  const ok = (() => {
    switch (kind) {
      case "ledger":
        return addLedgerEntry(store, group, row as unknown as LedgerEntry);
      case "transcriptions":
        return addTranscription(store, group, row.sid);
      case "recordings":
        return addRecording(store, group, row.sid);
      case "messages":
        return addCharges(store, group, row.sid) && add(group, "messages", row.sid);
      case "conferences":
        return (
          store.recordings.where("conference", row.sid).every((r) => addRecording(store, group, r.sid)) &&
          addCharges(store, group, row.sid) &&
          add(group, "conferences", row.sid)
        );
      case "calls":
        return addCall(store, group, row.sid);
    }
  })();
  return ok ? group : null;
}

const add = (group: Group, table: Group["rows"][number][0], sid: string) => {
  group.rows.push([table, sid]);
  return true;
};

/** The charges for `resourceSid`; false when one of them is its account's newest ledger entry. */
function addCharges(store: Store, group: Group, resourceSid: string): boolean {
  for (const entry of store.ledger.where("resource", resourceSid))
    if (!addLedgerEntry(store, group, entry)) return false;
  return true;
}

function addLedgerEntry(store: Store, group: Group, entry: LedgerEntry): boolean {
  if (store.ledger.latest("account", entry.account_sid)?.sid === entry.sid) return false;
  group.charges.push(entry);
  return add(group, "ledger", entry.sid);
}

function addTranscription(store: Store, group: Group, sid: string): boolean {
  const transcription = store.transcriptions.get(sid);
  if (!transcription || transcription.status === "in-progress") return false;
  return addCharges(store, group, sid) && add(group, "transcriptions", sid);
}

function addRecording(store: Store, group: Group, sid: string): boolean {
  const recording = store.recordings.get(sid);
  if (!recording || !["completed", "absent", "deleted"].includes(recording.status)) return false;
  return (
    store.transcriptions.where("recording", sid).every((t) => addTranscription(store, group, t.sid)) &&
    addCharges(store, group, sid) &&
    add(group, "recordings", sid)
  );
}

/** A call's own recordings (a conference's go with the conference), its TTS events and its charges. */
function addCall(store: Store, group: Group, sid: string): boolean {
  for (const recording of store.recordings.where("call", sid)) {
    if (recording.conference_sid !== null) continue;
    if (!addRecording(store, group, recording.sid)) return false;
  }
  // The call's TTS charge reads its TTS events: they go after the charges are summed up.
  if (!addCharges(store, group, sid)) return false;
  for (const event of store.ttsEvents.where("call", sid)) add(group, "ttsEvents", event.sid);
  return add(group, "calls", sid);
}

function drop(ctx: EngineContext, groups: readonly Group[]): void {
  if (groups.length === 0) return;
  // Every charge is summed up while what it charged for is still there to read.
  ctx.usageTotals?.fold(groups.flatMap((group) => group.charges));
  for (const group of groups) for (const [table, sid] of group.rows) ctx.store[table].delete(sid);
}

/** Starts and stops the bound on a running sandbox, and drops a whole excess a step at a time. */
export interface RetentionControl {
  /** The bound in force; false when every record is kept. */
  readonly bound: RecordRetention | false;
  /** No more drops until `resume` (a data directory's journal is replayed as it was written). */
  pause(): void;
  /** Drops again after changes (`commitsPerCheck`; the excess a look finds, `dropsPerCommit` of a kind at a time). */
  resume(): void;
  /** Drops everything beyond the bound, `perStep` records of each kind a step, yielding between steps. */
  sweep(perStep?: number): Generator<void>;
}

export function createRetentionControl(ctx: EngineContext): RetentionControl {
  const bound = ctx.recordRetention ?? false;
  const state = createRetentionState();
  const every = bound ? commitsPerCheck(bound) : 1;
  let commits = 0;
  const check = () => {
    if (++commits < every) return;
    // Some left over: the next commit looks again rather than waiting `every` more.
    commits = enforceRetention(ctx, state) ? every : 0;
  };
  const control: RetentionControl = {
    bound,
    pause: () => ctx.store.onCommit(null),
    resume: () => {
      commits = 0;
      if (bound) ctx.store.onCommit(check);
    },
    *sweep(perStep = 1000) {
      if (!bound) return;
      while (ctx.store.transact(() => enforceRetention(ctx, state, perStep))) yield;
    },
  };
  control.resume();
  return control;
}
