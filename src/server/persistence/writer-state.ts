// What an open data directory keeps between writes, and how responses waiting on it learn their changes are on disk (or cannot be yet).
import { errors } from "../../domain/errors.js";
import type { SandboxCore } from "../../sandbox.js";
import type { DataDirFiles, WritableFile } from "./files.js";
import { reasonOf } from "./layout.js";

/** Where failed writes (error level) and recovery are told, with the file and the reason. */
export interface DataDirLog {
  error(details: { path: string; reason: string }, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

/**
 * When a change counts as saved: `always` once its journal batch is written and fdatasync'd (a power loss
 * keeps every acknowledged change); `periodic` once it is written to the file (a crash of the process keeps
 * it; a power loss or a kernel crash can lose the last `syncEveryMs`).
 */
export type FsyncPolicy = "always" | "periodic";

/** Each table's row count, by table name. */
export type RowCounts = Record<string, number>;

/** A point-in-time capture waiting to be written as the snapshot, with the last journal record it holds. */
export interface SnapshotDue {
  seq: number;
  /** Read once: its rows are iterators over the tables as they were. */
  state: ReturnType<SandboxCore["captureState"]>;
  /** Each table's size at the capture, counted apart from its rows: a capture that gives fewer is not written. */
  rows: RowCounts;
}

/** The writer's state: one per open data directory, read and changed by the journal, compaction and the write loop. */
export interface DataDirState {
  readonly sandbox: SandboxCore;
  readonly dir: string;
  readonly files: DataDirFiles;
  readonly snapshotEvery: number;
  readonly log: DataDirLog | undefined;
  readonly retryMs: number;
  /** `always`: each batch is fdatasync'd before its responses go; `periodic`: written, then synced within `syncEveryMs`. */
  readonly fsync: FsyncPolicy;
  readonly syncEveryMs: number;
  /** `periodic`: the journal has bytes written since its last fdatasync, and the timer that will sync them. */
  unsynced: boolean;
  syncTimer: ReturnType<typeof setTimeout> | undefined;
  /** A background fdatasync under way (of the journal, or of one a rotation left behind). */
  syncing: Promise<void> | undefined;
  /** The last background sync failed: changes are refused until one succeeds. */
  syncFailed: boolean;
  readonly snapshotPath: string;
  appendedSeq: number;
  /** The newest change on disk, in a journal or a snapshot. */
  writtenSeq: number;
  /** The newest change a response may acknowledge: none past a reset whose snapshot is not on disk yet. */
  durableSeq: number;
  retryAt: boolean;
  journalPath: string;
  journal: WritableFile;
  journalBytes: number;
  /** Records journaled after the newest capture (`capturedSeq`): what the next snapshot would take in. */
  journalRecords: number;
  /**
   * The journal sequence the newest capture reflects. Records up to it that are written after it (a batch
   * queued before the capture) do not count toward the next snapshot: they are in this one.
   */
  capturedSeq: number;
  snapshotBytes: number;
  /**
   * The snapshot to write next: a capture, or `"retry"` after a write that failed. The failed attempt read
   * its capture, so the retry captures the state afresh, with the journal sequence it then reflects.
   */
  snapshotDue: SnapshotDue | "retry" | undefined;
  /** A reset or restore not yet on disk: nothing after it counts as durable until its snapshot is. */
  barrier: number | undefined;
  pending: { seq: number; frame: Buffer }[];
  failure: { path: string; reason: string } | undefined;
  closed: boolean;
  running: Promise<void> | undefined;
  compacting: Promise<void> | undefined;
  readonly waiters: { seq: number; resolve: () => void; reject: (error: Error) => void }[];
}

export const failureError = (s: DataDirState) =>
  errors.unavailable(
    `The sandbox could not save changes to ${s.failure!.path} (${s.failure!.reason}). Changes already made are kept and written as soon as the disk accepts them; until then changes are refused. Free space or fix the data directory: it recovers by itself.`,
  );

export const durableAfterBarrier = (s: DataDirState) =>
  s.barrier === undefined ? s.writtenSeq : Math.min(s.writtenSeq, s.barrier - 1);

/** Answers the waiters whose change is now durable, and refuses them all while a write is failing. */
export function settle(s: DataDirState): void {
  const { waiters } = s;
  for (let i = waiters.length - 1; i >= 0; i--) {
    const waiter = waiters[i]!;
    if (waiter.seq <= s.durableSeq) waiter.resolve();
    else if (s.failure) waiter.reject(failureError(s));
    else continue;
    waiters.splice(i, 1);
  }
}

/** A write failed: health and the log say so, and the waiters are refused until the disk accepts writes. */
export function fail(s: DataDirState, path: string, error: unknown): void {
  const reason = reasonOf(error);
  const first = s.failure === undefined;
  s.failure = { path, reason };
  s.sandbox.health.report("data-dir", `cannot write ${path} (${reason}); retrying every ${s.retryMs} ms`);
  s.log?.error({ path, reason }, `could not write to the data directory: ${path}: ${reason}`);
  if (first) settle(s);
}

/** A write went through after failing: health is clear again. */
export function recovered(s: DataDirState): void {
  if (!s.failure) return;
  s.log?.info({ path: s.failure.path }, "the data directory accepts writes again; pending changes are saved");
  s.failure = undefined;
  s.sandbox.health.report("data-dir", null);
}
