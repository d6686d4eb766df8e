// Snapshots taken while journal batches are on their way to the disk: each is of a state no snapshot holds yet,
// and a flush returns only once the last one is written, with nothing more to do.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createSandboxCore } from "../../src/sandbox.js";
import { openDataDir } from "../../src/server/persistence/data-dir.js";
import { type DataDirFiles, nodeFiles } from "../../src/server/persistence/files.js";
import { createAccount } from "../support/data-dir.js";

/** node:fs, with journal syncs held while `held` is set, and the journal sequence of each snapshot written. */
function gatedDisk() {
  const gate = { held: false, waiting: false, release: (): void => undefined, snapshotSeqs: [] as number[] };
  let opened = Promise.resolve();
  const files: DataDirFiles = {
    ...nodeFiles,
    async openWrite(path) {
      const file = await nodeFiles.openWrite(path);
      if (!path.endsWith(".tmp")) return file;
      let first = true;
      return {
        ...file,
        async write(data) {
          if (first)
            gate.snapshotSeqs.push((JSON.parse(data.toString().split("\n")[0]!) as { seq: number }).seq);
          first = false;
          return file.write(data);
        },
      };
    },
    async openAppend(path) {
      const file = await nodeFiles.openAppend(path);
      return {
        ...file,
        async datasync() {
          if (gate.held) {
            gate.waiting = true;
            await opened;
          }
          return file.datasync();
        },
      };
    },
  };
  const hold = () => {
    gate.held = true;
    opened = new Promise<void>((resolve) => {
      gate.release = () => {
        gate.held = false;
        resolve();
      };
    });
  };
  return { files, gate, hold };
}

describe("snapshots taken while journal batches are written", () => {
  it("are each of a newer state, and a flush leaves none to start", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-capture-"));
    const disk = gatedDisk();
    const sandbox = createSandboxCore({ clock: "virtual" });
    const persistence = await openDataDir(sandbox, dir, {
      files: disk.files,
      snapshotEvery: 1,
      fsync: "always",
    });
    const handle = persistence.wrap(sandbox.handle);
    await createAccount(handle, "Before");

    // One batch held at its sync; more changes queue behind it meanwhile, and more still once it is through.
    disk.hold();
    const held = createAccount(handle, "Held");
    while (!disk.gate.waiting) await new Promise((resolve) => setImmediate(resolve));
    const queued = [createAccount(handle, "Queued 1"), createAccount(handle, "Queued 2")];
    disk.gate.release();
    const after = [createAccount(handle, "After 1"), createAccount(handle, "After 2")];
    await Promise.all([held, ...queued, ...after]);
    await persistence.flush();

    // No snapshot was of a state one before it held already.
    const seqs = disk.gate.snapshotSeqs;
    expect(seqs.length).toBeGreaterThan(1);
    expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b));
    // The flush waited for the last: nothing starts after it.
    const written = seqs.length;
    await sleep(50);
    expect(seqs.length).toBe(written);
    await persistence.close();

    const reopened = createSandboxCore({ clock: "virtual" });
    const again = await openDataDir(reopened, dir);
    expect(reopened.store.accounts.size).toBe(sandbox.store.accounts.size);
    await again.close();
  });
});
