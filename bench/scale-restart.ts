// The restart of the scale benchmark, in a process of its own as a real one would be: open a data directory, time it (until a server would answer, and until its indexes are filed, with the longest a request would wait meanwhile), weigh the heap it holds.
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { distUrl } from "./lib.js";
import { settleHeap } from "./scale-memory.js";

const [dir, records] = process.argv.slice(2) as [string, string];
const { createSandboxCore } = (await import(distUrl("sandbox.js"))) as typeof import("../src/sandbox.js");
const { openDataDir } = (await import(
  distUrl("server/persistence/data-dir.js")
)) as typeof import("../src/server/persistence/data-dir.js");

// Every record kept: the benchmark weighs a state of this size, which the default bound on records would cut.
const sandbox = createSandboxCore({ clock: "virtual", retain: false });
const heapBefore = settleHeap();
const started = performance.now();
const reader = await openDataDir(sandbox, dir);
const restartMs = performance.now() - started;
// Secondary indexes are filed after that, between requests (a request needing one finishes it first); the
// longest the loop is held meanwhile is how long a request would wait behind a filing step.
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
await reader.indexesBuilt;
delay.disable();
const indexesMs = performance.now() - started;
await reader.close();
const result = {
  restartMs,
  indexesMs,
  indexesBlockMs: delay.max / 1e6,
  restartHeapPerRecord: (settleHeap() - heapBefore) / Number(records),
  calls: sandbox.store.calls.size,
};
if (process.send) process.send(result);
else console.log(JSON.stringify(result));
