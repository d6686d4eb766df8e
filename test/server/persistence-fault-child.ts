// The full-disk story in a process of its own, so it can die by SIGKILL: the data directory is argv[2]; with
// STOP_AT=n set, the process sends itself SIGKILL at the n-th file operation that changes the disk. Each
// account acknowledged and each step reached is sent to the parent as it happens; once the story is told, the
// process waits for the parent's word before it closes the directory and exits.
import { join } from "node:path";
import { createSandboxCore } from "../../src/sandbox.js";
import { openDataDir } from "../../src/server/persistence/data-dir.js";
import { snapshotFileName } from "../../src/server/persistence/layout.js";
import { faultDisk, fullDiskStory, snapshotEveryInStory } from "./persistence-fault-disk.js";

const dir = process.argv[2]!;
const stopAt = process.env.STOP_AT ? Number(process.env.STOP_AT) : undefined;
const tell = (message: unknown) => process.send!(message);

const disk = faultDisk({ stopAt, onStop: () => process.kill(process.pid, "SIGKILL") });
const sandbox = createSandboxCore({ clock: "virtual" });
const failedPaths: string[] = [];
const persistence = await openDataDir(sandbox, dir, {
  files: disk.files,
  retryMs: 5,
  snapshotEvery: snapshotEveryInStory,
  log: { error: (details) => failedPaths.push(details.path), info: () => undefined },
});
const snapshotPath = join(dir, snapshotFileName);
await fullDiskStory(
  disk,
  persistence,
  persistence.wrap(sandbox.handle),
  () => failedPaths.includes(snapshotPath),
  {
    acknowledged: (sid, name) => tell({ acknowledged: [sid, name] }),
    step: (name) => tell({ step: name, operations: disk.operations }),
  },
);
// The parent kills the process here, or says it may stop.
await new Promise((resolve) => process.once("message", resolve));
await persistence.close();
process.disconnect();
