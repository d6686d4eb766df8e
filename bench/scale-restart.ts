// The restart of the scale benchmark, in a process of its own as a real one would be: open a data directory, time it (until a server would answer, and until its indexes are filed), weigh the heap it holds.
import { performance } from "node:perf_hooks";
import { distUrl } from "./lib.js";
import { settleHeap } from "./scale-memory.js";

const [dir, records] = process.argv.slice(2) as [string, string];
const { createSandboxCore } = (await import(distUrl("sandbox.js"))) as typeof import("../src/sandbox.js");
const { openDataDir } = (await import(
  distUrl("server/persistence/data-dir.js")
)) as typeof import("../src/server/persistence/data-dir.js");

const sandbox = createSandboxCore({ clock: "virtual" });
const heapBefore = settleHeap();
const started = performance.now();
const reader = await openDataDir(sandbox, dir);
const restartMs = performance.now() - started;
// Secondary indexes are filed after that, between requests (a request needing one finishes it first).
await reader.indexesBuilt;
const indexesMs = performance.now() - started;
await reader.close();
const result = {
  restartMs,
  indexesMs,
  restartHeapPerRecord: (settleHeap() - heapBefore) / Number(records),
  calls: sandbox.store.calls.size,
};
if (process.send) process.send(result);
else console.log(JSON.stringify(result));
