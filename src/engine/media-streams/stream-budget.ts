// What every bidirectional stream's playback queue holds together: one byte budget, shared out equally between the streams open.

/** The budget's default: 64 MiB for all streams' queued audio and marks together (docs/limits.md, Audio). */
export const defaultMaxQueuedBytes = 64 * 1024 * 1024;
/** What one queued item (a mark, or a run of audio) is counted as besides its bytes: its object. */
export const queueItemBytes = 64;

/** One stream in the budget: what it holds, and how it drops its newest items when its share shrinks. */
export interface BudgetMember {
  /** Bytes this stream's queue is counted as: its audio, its marks' names, `queueItemBytes` per item. */
  cost: number;
  /** Drops the newest queued items until the stream holds at most `bytes`. */
  shedTo(bytes: number): void;
}

/**
 * The budget: each open bidirectional stream may hold at most its share, the budget divided by the streams
 * open. Past it the app's message is dropped; a stream opening shrinks every share, and streams holding more
 * than the new share drop their newest items down to it. So the streams together never hold more than the
 * budget, and a stream's room depends only on how many streams are open, not on what the others send:
 * a flood fills only the flooding stream's share, and each stream plays the same run after run.
 */
export interface PlaybackBudget {
  readonly limitBytes: number;
  /** Bytes all members hold now, and the most they held at once since the last reset. */
  queuedBytes: number;
  peakBytes: number;
  /** App messages dropped because their stream held its share, and bytes dropped when shares shrank. */
  droppedMessages: number;
  shedBytes: number;
  readonly members: Set<BudgetMember>;
}

/** What the budget holds now (`sandbox.calls.streams.queued()`). */
export interface PlaybackGauge {
  limitBytes: number;
  queuedBytes: number;
  peakBytes: number;
  /** Bidirectional streams open, each allowed `shareBytes`. */
  streams: number;
  shareBytes: number;
  droppedMessages: number;
  shedBytes: number;
}

export function createPlaybackBudget(limitBytes = defaultMaxQueuedBytes): PlaybackBudget {
  if (!Number.isSafeInteger(limitBytes) || limitBytes < 0) {
    throw new RangeError(`maxQueuedBytes must be a whole number of bytes, 0 or more (got ${limitBytes})`);
  }
  return { limitBytes, queuedBytes: 0, peakBytes: 0, droppedMessages: 0, shedBytes: 0, members: new Set() };
}

/** Each open stream's share of the budget, in whole bytes. */
export const shareOf = (budget: PlaybackBudget): number =>
  Math.floor(budget.limitBytes / Math.max(1, budget.members.size));

/** A stream opens: it joins, and streams over the smaller share drop their newest items down to it. */
export function joinBudget(budget: PlaybackBudget, member: BudgetMember): void {
  if (budget.members.has(member)) return;
  budget.members.add(member);
  const share = shareOf(budget);
  for (const other of budget.members) {
    if (other.cost <= share) continue;
    const before = other.cost;
    other.shedTo(share);
    budget.shedBytes += before - other.cost;
  }
}

/** A stream ends: what it held goes back. */
export function leaveBudget(budget: PlaybackBudget, member: BudgetMember): void {
  if (!budget.members.delete(member)) return;
  budget.queuedBytes -= member.cost;
  member.cost = 0;
}

/** Counts `bytes` more for the member, unless that takes it past its share (false: drop what asked). */
export function takeFromBudget(budget: PlaybackBudget, member: BudgetMember, bytes: number): boolean {
  if (!budget.members.has(member) || member.cost + bytes > shareOf(budget)) {
    budget.droppedMessages++;
    return false;
  }
  member.cost += bytes;
  budget.queuedBytes += bytes;
  if (budget.queuedBytes > budget.peakBytes) budget.peakBytes = budget.queuedBytes;
  return true;
}

/** The member played or dropped `bytes` of what it held. */
export function giveBack(budget: PlaybackBudget, member: BudgetMember, bytes: number): void {
  if (!budget.members.has(member)) return;
  member.cost -= bytes;
  budget.queuedBytes -= bytes;
}

export function budgetGauge(budget: PlaybackBudget): PlaybackGauge {
  return {
    limitBytes: budget.limitBytes,
    queuedBytes: budget.queuedBytes,
    peakBytes: budget.peakBytes,
    streams: budget.members.size,
    shareBytes: shareOf(budget),
    droppedMessages: budget.droppedMessages,
    shedBytes: budget.shedBytes,
  };
}

/** Sandbox reset: every stream is gone; the counts start again. */
export function resetBudget(budget: PlaybackBudget): void {
  budget.members.clear();
  budget.queuedBytes = 0;
  budget.peakBytes = 0;
  budget.droppedMessages = 0;
  budget.shedBytes = 0;
}
