// The `periodic` fsync policy: journal bytes written before a response goes, and fdatasync'd in the background at most `syncEveryMs` later.
import type { WritableFile } from "./files.js";
import { type DataDirState, fail, recovered, settle } from "./writer-state.js";

/** A batch was written without its sync: the journal is synced within `syncEveryMs`. */
export function syncLater(s: DataDirState): void {
  s.unsynced = true;
  if (s.syncTimer || s.closed) return;
  s.syncTimer = setTimeout(() => {
    s.syncTimer = undefined;
    void syncNow(s);
  }, s.syncEveryMs);
  s.syncTimer.unref();
}

/**
 * Syncs what the journal holds now (waiting out a sync under way first). A failure reports the data
 * directory degraded, as a failed write does, and is retried every `retryMs` until the disk takes it.
 */
export async function syncNow(s: DataDirState): Promise<void> {
  while (s.syncing) await s.syncing;
  if (!s.unsynced) return;
  if (s.syncTimer) clearTimeout(s.syncTimer);
  s.syncTimer = undefined;
  s.unsynced = false;
  const path = s.journalPath;
  s.syncing = s.journal.datasync().then(
    () => {
      s.syncing = undefined;
      if (s.syncFailed) {
        s.syncFailed = false;
        recovered(s);
        settle(s);
      }
    },
    (error: unknown) => {
      s.syncing = undefined;
      s.syncFailed = true;
      fail(s, path, error);
      s.unsynced = true;
      if (!s.closed) {
        s.syncTimer = setTimeout(() => {
          s.syncTimer = undefined;
          void syncNow(s);
        }, s.retryMs);
        s.syncTimer.unref();
      }
    },
  );
  await s.syncing;
}

/**
 * A journal a rotation leaves behind: closed at once under `always` (its records are synced); under
 * `periodic`, synced in the background first, so its last records reach the disk as the new file's do.
 */
export function retireJournal(s: DataDirState, old: WritableFile): void {
  if (s.fsync === "always" || !s.unsynced) {
    void old.close().catch(() => undefined);
    return;
  }
  s.unsynced = false;
  if (s.syncTimer) clearTimeout(s.syncTimer);
  s.syncTimer = undefined;
  // Its records are in the snapshot this rotation is for, which is synced before the journal is deleted.
  const retiring: Promise<void> = (s.syncing ?? Promise.resolve())
    .then(() => old.datasync())
    .catch(() => undefined)
    .then(() => old.close().catch(() => undefined))
    .then(() => {
      if (s.syncing === retiring) s.syncing = undefined;
    });
  s.syncing = retiring;
}
