// The two fsync policies: `always` holds a response until its journal batch is fdatasync'd; `periodic` sends it
// once the batch is written and syncs in the background, reporting (and refusing changes after) a sync that fails.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandboxCore } from "../../src/sandbox.js";
import { type FsyncPolicy, openDataDir } from "../../src/server/persistence/data-dir.js";
import { type DataDirFiles, nodeFiles } from "../../src/server/persistence/files.js";
import { createAccount } from "../support/data-dir.js";

/** node:fs whose journal syncs are counted, held while `held`, and failed while `failing`. */
function syncDisk() {
  const disk = {
    held: false,
    failing: false,
    syncs: 0,
    release: (): void => undefined,
    waitForSync: (): Promise<void> => Promise.resolve(),
  };
  let gate = Promise.resolve();
  let synced: () => void = () => undefined;
  let nextSync = new Promise<void>((resolve) => {
    synced = resolve;
  });
  disk.waitForSync = () => nextSync;
  const files: DataDirFiles = {
    ...nodeFiles,
    async openAppend(path) {
      const file = await nodeFiles.openAppend(path);
      return {
        ...file,
        async datasync() {
          disk.syncs += 1;
          const tell = synced;
          nextSync = new Promise<void>((resolve) => {
            synced = resolve;
          });
          tell();
          if (disk.held) await gate;
          if (disk.failing) throw Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" });
          return file.datasync();
        },
      };
    },
  };
  const hold = () => {
    disk.held = true;
    gate = new Promise<void>((resolve) => {
      disk.release = () => {
        disk.held = false;
        resolve();
      };
    });
  };
  return { files, disk, hold };
}

/** Resolves once `ready` holds (the test's timeout fails it otherwise). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Lets every callback that is ready run, a few rounds over. */
async function settleRounds(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function open(fsync: FsyncPolicy, files: DataDirFiles, syncEveryMs = 20) {
  const dir = mkdtempSync(join(tmpdir(), "vs-fsync-"));
  const sandbox = createSandboxCore({ clock: "virtual" });
  const persistence = await openDataDir(sandbox, dir, { files, fsync, syncEveryMs, retryMs: 20 });
  return { dir, sandbox, persistence, handle: persistence.wrap(sandbox.handle) };
}

describe("fsync: always", () => {
  it("sends a change's response only once its journal batch is synced", async () => {
    const { files, disk, hold } = syncDisk();
    const { persistence, handle } = await open("always", files);
    hold();
    let answered = false;
    const created = createAccount(handle, "Held").then(() => {
      answered = true;
    });
    await disk.waitForSync();
    await settleRounds();
    expect(answered).toBe(false);
    disk.release();
    await created;
    expect(answered).toBe(true);
    await persistence.close();
  });
});

describe("fsync: periodic", () => {
  it("sends a change's response once it is written, syncs it soon after, and keeps it across a reopen", async () => {
    const { files, disk, hold } = syncDisk();
    const { dir, sandbox, persistence, handle } = await open("periodic", files);
    hold();
    const before = disk.syncs;
    const synced = disk.waitForSync();
    // Answered while no sync has even begun, nor could finish.
    await createAccount(handle, "Written");
    expect(disk.syncs).toBe(before);
    // The background sync comes within syncEveryMs, for the batch already answered.
    await synced;
    expect(disk.syncs).toBe(before + 1);
    disk.release();
    await persistence.close();

    const reopened = createSandboxCore({ clock: "virtual" });
    const again = await openDataDir(reopened, dir);
    expect(reopened.store.accounts.size).toBe(sandbox.store.accounts.size);
    await again.close();
  });

  it("syncs on flush and on close", async () => {
    const { files, disk } = syncDisk();
    // No timed sync within the test: only the flush's and the close's.
    const { persistence, handle } = await open("periodic", files, 60_000);
    await createAccount(handle, "One");
    const before = disk.syncs;
    await persistence.flush();
    expect(disk.syncs).toBe(before + 1);
    await createAccount(handle, "Two");
    const atClose = disk.syncs;
    await persistence.close();
    expect(disk.syncs).toBe(atClose + 1);
  });

  it("reports a sync that fails, refuses changes until a sync succeeds, then accepts them again", async () => {
    const { files, disk } = syncDisk();
    const { sandbox, persistence, handle } = await open("periodic", files);
    disk.failing = true;
    await createAccount(handle, "Before the failure");
    await until(() => sandbox.health.problems().length > 0);
    expect(sandbox.health.problems().map((p) => p.component)).toEqual(["data-dir"]);
    expect(sandbox.health.problems()[0]!.message).toMatch(/EIO/);
    const refused = await handle({
      method: "POST",
      path: "/carrier/v1/accounts",
      query: "",
      headers: { authorization: "Bearer x", "content-type": "application/vnd.api+json" },
      body: "{}",
    });
    expect(refused.status).toBe(503);
    // The retry finds the disk well again.
    disk.failing = false;
    await until(() => sandbox.health.problems().length === 0);
    await createAccount(handle, "After recovery");
    await persistence.close();
  });

  it("syncs the journal a compaction leaves behind before closing it", async () => {
    const { files, disk } = syncDisk();
    const dir = mkdtempSync(join(tmpdir(), "vs-fsync-"));
    const sandbox = createSandboxCore({ clock: "virtual" });
    const persistence = await openDataDir(sandbox, dir, { files, snapshotEvery: 2, syncEveryMs: 60_000 });
    const handle = persistence.wrap(sandbox.handle);
    const before = disk.syncs;
    const synced = disk.waitForSync();
    // Three changes: the journal rotates for a snapshot after the second, with no timed sync due for a minute.
    for (const name of ["A", "B", "C"]) await createAccount(handle, name);
    await synced;
    expect(disk.syncs).toBeGreaterThan(before);
    await persistence.close();
  });
});
