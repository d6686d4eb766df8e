// A disk that fills while a snapshot is being written: the retried snapshot holds the whole state, a torn journal tail is never taken for records, and no restart (after a clean stop or after dying at any file operation) loses an acknowledged change.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandboxCore } from "../../src/sandbox.js";
import { openDataDir } from "../../src/server/persistence/data-dir.js";
import { snapshotFileName } from "../../src/server/persistence/layout.js";
import { fixtures } from "../support/fixtures.js";
import { type FaultDisk, faultDisk, fullDiskStory, snapshotEveryInStory } from "./persistence-fault-disk.js";

const freshDir = () => mkdtempSync(join(tmpdir(), "vs-full-"));

/** Opens `dir` on `disk` as the story wants it, noting whether a snapshot write failed. */
async function openOn(dir: string, disk: FaultDisk) {
  const sandbox = createSandboxCore({ clock: "virtual" });
  const failedPaths: string[] = [];
  const persistence = await openDataDir(sandbox, dir, {
    files: disk.files,
    retryMs: 5,
    snapshotEvery: snapshotEveryInStory,
    log: { error: (details) => failedPaths.push(details.path), info: () => undefined },
  });
  const snapshotFailed = () => failedPaths.some((path) => path === join(dir, snapshotFileName));
  return { sandbox, persistence, handle: persistence.wrap(sandbox.handle), snapshotFailed };
}

/** Opens `dir` as a restart does (plain node:fs), collecting warnings. */
async function restart(dir: string) {
  const warnings: string[] = [];
  const sandbox = createSandboxCore({ clock: "virtual" });
  const persistence = await openDataDir(sandbox, dir, { warn: (message) => warnings.push(message) });
  return { sandbox, persistence, warnings };
}

const accountNames = (sandbox: ReturnType<typeof createSandboxCore>) =>
  new Map(sandbox.store.accounts.all().map((account) => [account.sid, account.name]));

describe("a disk that fills during a compaction", () => {
  it("writes the whole state when the snapshot is retried, and a restart has every change", async () => {
    const dir = freshDir();
    const disk = faultDisk();
    const first = await openOn(dir, disk);
    const acknowledged = new Map<string, string>();
    const told = await fullDiskStory(disk, first.persistence, first.handle, first.snapshotFailed, {
      acknowledged: (sid, name) => acknowledged.set(sid, name),
    });
    expect(told).toBe("told");
    expect(first.snapshotFailed()).toBe(true);
    expect(acknowledged.size).toBe(8);
    // The change the full disk refused stayed in memory, whole, and was written once space came back.
    expect([...accountNames(first.sandbox).values()]).toContain("while full");
    await first.persistence.close();

    const again = await restart(dir);
    // No torn bytes were left between records: nothing to drop, nothing refused.
    expect(again.warnings).toEqual([]);
    expect(JSON.stringify(again.sandbox.snapshot().store)).toBe(
      JSON.stringify(first.sandbox.snapshot().store),
    );
    for (const [sid, name] of acknowledged) expect(accountNames(again.sandbox).get(sid)).toBe(name);
    await again.persistence.close();
  });

  it("keeps every acknowledged change when the process dies at any file operation of the story", {
    timeout: 120_000,
  }, async () => {
    const dry = faultDisk();
    const dryDir = freshDir();
    const opened = await openOn(dryDir, dry);
    await fullDiskStory(dry, opened.persistence, opened.handle, opened.snapshotFailed, {
      acknowledged: () => undefined,
    });
    const operations = dry.operations;
    await opened.persistence.close();
    expect(operations).toBeGreaterThan(30);

    let stoppedRuns = 0;
    for (let stopAt = 1; stopAt <= operations; stopAt++) {
      const dir = freshDir();
      const disk = faultDisk({ stopAt });
      const acknowledged = new Map<string, string>();
      // Dying inside the first open (a fresh directory's first snapshot) is a stop too.
      const first = await Promise.race([openOn(dir, disk), disk.stopped.then(() => undefined)]);
      const told = first
        ? await fullDiskStory(disk, first.persistence, first.handle, first.snapshotFailed, {
            acknowledged: (sid, name) => acknowledged.set(sid, name),
          })
        : "stopped";
      if (told === "told") await Promise.race([first!.persistence.close(), disk.stopped]);
      else stoppedRuns += 1;

      const again = await restart(dir);
      const names = accountNames(again.sandbox);
      for (const [sid, name] of acknowledged)
        expect(names.get(sid), `stopped at ${stopAt}: ${name}`).toBe(name);
      // Writing on and restarting once more keeps them too.
      const more = await again.persistence.wrap(again.sandbox.handle)({
        method: "POST",
        path: "/carrier/v1/accounts",
        query: "",
        headers: {
          authorization: `Bearer ${fixtures.carrierKey}`,
          "content-type": "application/vnd.api+json",
        },
        body: JSON.stringify({ data: { type: "account", attributes: { name: "after the restart" } } }),
      });
      await again.persistence.close();
      const third = await restart(dir);
      expect(third.warnings, `stopped at ${stopAt}`).toEqual([]);
      const later = accountNames(third.sandbox);
      for (const [sid, name] of acknowledged)
        expect(later.get(sid), `stopped at ${stopAt}: ${name}`).toBe(name);
      if (more.status === 201)
        expect(later.get(JSON.parse(String(more.body)).data.id)).toBe("after the restart");
      await third.persistence.close();
    }
    expect(stoppedRuns).toBeGreaterThan(operations / 2);
  });
});
