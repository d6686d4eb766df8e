// A disk for the data directory that fills up mid-snapshot, frees up again, and can stop dead at any file operation
// (as a SIGKILL leaves it), and the full-disk story the persistence-full-disk tests tell with it, in-process or in a child.
import type { Handle } from "../../src/http/handle.js";
import type { SandboxRequest } from "../../src/http/types.js";
import type { Persistence } from "../../src/server/persistence/data-dir.js";
import { type DataDirFiles, nodeFiles, type WritableFile } from "../../src/server/persistence/files.js";
import { fixtures } from "../support/fixtures.js";

const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });

export interface FaultDisk {
  files: DataDirFiles;
  /** While set, a write puts down half its bytes and then fails as a full disk does. */
  full: boolean;
  /**
   * Arms the next snapshot write: it puts down the bytes before `marker` (the tables before it), the disk is
   * full from then on, and the write fails with ENOSPC once `hold` resolves. Resolves when the cut is made.
   */
  fillDuringSnapshot(marker: string, hold: Promise<void>): Promise<void>;
  /** File operations that change the disk, counted from the start. */
  readonly operations: number;
  /** Resolves when the disk stops (see `stopAt`). */
  readonly stopped: Promise<void>;
}

/**
 * node:fs with faults. With `stopAt` = n, the n-th operation that changes the disk is where the process dies:
 * a write puts down half its bytes first, and from then on no operation does anything or ever finishes.
 * `onStop` runs at that moment (a child process sends itself SIGKILL there).
 */
export function faultDisk(options: { stopAt?: number; onStop?: () => void } = {}): FaultDisk {
  let operations = 0;
  let dead = false;
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });
  let armed: { marker: string; hold: Promise<void>; cut: () => void } | undefined;
  const never = new Promise<never>(() => undefined);
  /** Counts an operation; true when the process dies at it. */
  const dies = () => {
    if (dead) return true;
    operations += 1;
    if (operations !== options.stopAt) return false;
    dead = true;
    markStopped();
    return true;
  };
  /** The files open now: a process that dies has them closed (closing changes nothing on disk). */
  const open = new Set<WritableFile>();
  const halt = () => {
    options.onStop?.();
    for (const file of open) file.close().catch(() => undefined);
    open.clear();
    return never;
  };
  const step = <T>(run: () => Promise<T>): Promise<T> => (dies() ? halt() : run());
  const read = <T>(run: () => Promise<T>): Promise<T> => (dead ? never : run());

  const guard = (path: string, file: WritableFile): WritableFile => {
    open.add(file);
    return guarded(path, file);
  };
  const guarded = (path: string, file: WritableFile): WritableFile => ({
    async write(data) {
      if (dead) return never;
      const half = data.subarray(0, data.length >> 1);
      if (dies()) {
        await file.write(half);
        return halt();
      }
      if (armed && path.endsWith(".tmp")) {
        const { marker, hold, cut } = armed;
        armed = undefined;
        const at = data.indexOf(marker);
        await file.write(data.subarray(0, at < 0 ? data.length >> 1 : at));
        disk.full = true;
        cut();
        await hold;
        throw enospc();
      }
      if (!disk.full) return file.write(data);
      await file.write(half);
      throw enospc();
    },
    truncate: (length) => step(() => file.truncate(length)),
    datasync: () => step(() => file.datasync()),
    sync: () => step(() => file.sync()),
    size: () => read(() => file.size()),
    close: () =>
      step(() => {
        open.delete(file);
        return file.close();
      }),
  });

  const files: DataDirFiles = {
    mkdir: (dir) => step(() => nodeFiles.mkdir(dir)),
    list: (dir) => read(() => nodeFiles.list(dir)),
    openAppend: (path) => step(async () => guard(path, await nodeFiles.openAppend(path))),
    openWrite: (path) => step(async () => guard(path, await nodeFiles.openWrite(path))),
    exists: (path) => read(() => nodeFiles.exists(path)),
    readStream: (path) => nodeFiles.readStream(path),
    readAll: (path) => read(() => nodeFiles.readAll(path)),
    rename: (from, to) => step(() => nodeFiles.rename(from, to)),
    remove: (path) => step(() => nodeFiles.remove(path)),
    truncate: (path, length) => step(() => nodeFiles.truncate(path, length)),
  };

  const disk: FaultDisk = {
    files,
    full: false,
    fillDuringSnapshot(marker, hold) {
      return new Promise<void>((cut) => {
        armed = { marker, hold, cut };
      });
    },
    get operations() {
      return operations;
    },
    stopped,
  };
  return disk;
}

const createAccount = (name: string): SandboxRequest => ({
  method: "POST",
  path: "/carrier/v1/accounts",
  query: "",
  headers: { authorization: `Bearer ${fixtures.carrierKey}`, "content-type": "application/vnd.api+json" },
  body: JSON.stringify({ data: { type: "account", attributes: { name } } }),
});

const health: SandboxRequest = { method: "GET", path: "/__sandbox/health", query: "", headers: {}, body: "" };

/** Records every change the sandbox acknowledged (a 2xx), and where the story has got to. */
export interface StoryListener {
  acknowledged(sid: string, name: string): void;
  step?(name: string): void;
}

export const snapshotEveryInStory = 5;

/**
 * The full-disk story (the data directory opened with `snapshotEvery` 5 on `disk`): four accounts; a fifth,
 * whose record starts a compaction, during which the disk fills after the tables before `rates` are written;
 * an account created meanwhile (its journal write is cut short: a 503); the snapshot write fails; space comes
 * back; the sandbox recovers; three more accounts. Every account that got a 201 is told to `listener`.
 * Resolves when the story is told, or when the disk stops (the process died), whichever comes first.
 */
export async function fullDiskStory(
  disk: FaultDisk,
  persistence: Persistence,
  handle: Handle,
  snapshotFailed: () => boolean,
  listener: StoryListener,
): Promise<"told" | "stopped"> {
  const stop = disk.stopped.then(() => "stopped" as const);
  const until = <T>(work: Promise<T>) => Promise.race([work, stop]);
  const create = async (name: string) => {
    const response = await until(handle(createAccount(name)));
    if (response === "stopped") return false;
    if (response.status === 201) listener.acknowledged(JSON.parse(String(response.body)).data.id, name);
    return true;
  };
  const waitUntil = async (done: () => Promise<boolean> | boolean) => {
    for (let tries = 0; !(await done()); tries++) {
      if (tries > 5000) throw new Error("the sandbox never got there");
      if ((await until(new Promise((resolve) => setTimeout(resolve, 2)))) === "stopped") return false;
    }
    return true;
  };
  const told = async () => {
    listener.step?.("before");
    for (let n = 1; n <= 4; n++) if (!(await create(`before ${n}`))) return false;
    listener.step?.("compaction starts");
    let release: () => void = () => undefined;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const cut = disk.fillDuringSnapshot('{"table":"rates"}', hold);
    if (!(await create("starts the compaction"))) return false;
    if ((await until(cut)) === "stopped") return false;
    listener.step?.("disk full");
    if (!(await create("while full"))) return false;
    release();
    if (!(await waitUntil(snapshotFailed))) return false;
    listener.step?.("space back");
    disk.full = false;
    const healthy = async () => {
      const response = await until(handle(health));
      return response === "stopped" || JSON.parse(String(response.body)).status === "ok";
    };
    if (!(await waitUntil(healthy))) return false;
    if ((await until(persistence.flush())) === "stopped") return false;
    listener.step?.("after");
    for (let n = 1; n <= 3; n++) if (!(await create(`after ${n}`))) return false;
    if ((await until(persistence.flush())) === "stopped") return false;
    listener.step?.("told");
    return true;
  };
  return (await told()) ? "told" : "stopped";
}
