// The one writer of a data directory: journal batches, rotations and background snapshots in order, each retried until the disk accepts it.
import { waitRealTime } from "../../engine/time/clock.js";
import { captureSnapshot, compactIfDue, writeSnapshot } from "./compaction.js";
import { rotate, writeBatch } from "./journal-append.js";
import {
  type DataDirState,
  durableAfterBarrier,
  failureError,
  recovered,
  type SnapshotDue,
  settle,
} from "./writer-state.js";

/** Writes a captured snapshot in the background while the journal goes on; retried until it lands. */
function compact(s: DataDirState, due: SnapshotDue): void {
  s.compacting = writeSnapshot(s, due).then((ok) => {
    s.compacting = undefined;
    if (ok) {
      // A retry's capture may reach past a reset: then the reset is on disk too.
      if (s.barrier !== undefined && s.barrier <= due.seq) s.barrier = undefined;
      s.writtenSeq = Math.max(s.writtenSeq, due.seq);
      s.durableSeq = durableAfterBarrier(s);
      recovered(s);
      settle(s);
    } else {
      // The failed attempt read its capture: the retry takes a fresh one (a reset's meanwhile wins).
      s.snapshotDue ??= "retry";
      s.retryAt = true;
    }
    kick(s);
  });
}

/** Runs until nothing is left to write: a due snapshot first, then the pending records, waiting out failures. */
async function runWrites(s: DataDirState): Promise<void> {
  // Never finish synchronously: `running` must be set before the `finally` below clears it.
  await Promise.resolve();
  try {
    while (!s.closed) {
      if (s.retryAt) {
        s.retryAt = false;
        await waitRealTime(s.retryMs, { unref: true });
        continue;
      }
      if (s.snapshotDue && !s.compacting) {
        const due = s.snapshotDue;
        s.snapshotDue = undefined;
        if (due === "retry") {
          // The journal was started afresh for the failed attempt; it keeps everything since until this lands.
          compact(s, captureSnapshot(s));
          continue;
        }
        // Records from before a reset are superseded by its snapshot; later ones go to the new journal.
        if (s.barrier !== undefined) s.pending = s.pending.filter((p) => p.seq > due.seq);
        if (!(await rotate(s, due.seq))) {
          s.snapshotDue ??= due;
          s.retryAt = true;
          continue;
        }
        compact(s, due);
        continue;
      }
      if (s.pending.length === 0) {
        // Changes journaled while the last snapshot was written may already call for the next.
        compactIfDue(s);
        if (!s.snapshotDue || s.compacting) break;
        continue;
      }
      if (!(await writeBatch(s))) {
        s.retryAt = true;
        continue;
      }
      if (!s.compacting) recovered(s);
      settle(s);
      compactIfDue(s);
    }
  } finally {
    s.running = undefined;
  }
}

/** Starts the writer unless it is already running (or the directory is closed). */
export function kick(s: DataDirState): void {
  if (!s.running && !s.closed) s.running = runWrites(s);
}

/** Resolves once every change up to `target` is durable; refused while the disk refuses writes. */
export function waitFor(s: DataDirState, target: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (target <= s.durableSeq) resolve();
    else if (s.failure) reject(failureError(s));
    else {
      s.waiters.push({ seq: target, resolve, reject });
      kick(s);
    }
  });
}
