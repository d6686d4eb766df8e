// One size of the scale benchmark, in a process of its own: N calls and N messages with their events, then lookups, filtered pages, memory, export, import and restart.
import { createReadStream, mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { accountSid, authorization, distUrl, runInChild } from "./lib.js";
import { fill, hexOf, request } from "./scale-fill.js";
import { settleHeap, settleMemory } from "./scale-memory.js";

const size = Number(process.argv[2] ?? 1000);
const carrier = { authorization: "Bearer carrier_sandbox_key_0000000000000000" };
const account = { authorization };

const { createSandboxCore } = (await import(distUrl("sandbox.js"))) as typeof import("../src/sandbox.js");
const { openDataDir } = (await import(
  distUrl("server/persistence/data-dir.js")
)) as typeof import("../src/server/persistence/data-dir.js");

/** Mean milliseconds per call of `run` over `times` calls. */
async function timed(times: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < times; i++) await run(i);
  return (performance.now() - started) / times;
}

/**
 * Saves a streamed answer to a file as a client would, so the benchmark does not hold the export in its
 * own heap (gigabytes of buffers at 1M, whose collection would be counted as the server's stall).
 */
async function save(
  response: { body: string | Uint8Array; stream?: AsyncIterable<string | Uint8Array> },
  path: string,
) {
  const out = await open(path, "w");
  let bytes = 0;
  try {
    for await (const piece of response.stream ?? [response.body]) {
      const chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
      bytes += chunk.length;
      await out.write(chunk);
    }
  } finally {
    await out.close();
  }
  return bytes;
}

/** Runs `work`, measuring the longest the event loop was held meanwhile: how long another request would wait. */
async function longestStall<T>(work: () => Promise<T>): Promise<[T, number]> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const result = await work();
  delay.disable();
  return [result, delay.max / 1e6];
}

// Every record kept: the benchmark weighs a state of this size, which the default bound on records would cut.
const sandbox = createSandboxCore({ clock: "virtual", retain: false });
const heapBefore = settleHeap();
const before = settleMemory();
const filling = performance.now();
await fill(sandbox, size);
const fillMs = performance.now() - filling;
const rssPerRecord = (settleMemory() - before) / (2 * size);
const heapPerRecord = (settleHeap() - heapBefore) / (2 * size);

const lookupMs = await timed(2000, (i) =>
  sandbox.handle(
    request("GET", `/2010-04-01/Accounts/${accountSid}/Calls/CA${hexOf((i * 7919) % size)}.json`, account),
  ),
);
const carrierPageMs = await timed(50, () =>
  sandbox.handle(request("GET", "/carrier/v1/phone_calls?filter[status]=busy", carrier)),
);
const accountPageMs = await timed(50, () =>
  sandbox.handle(request("GET", `/2010-04-01/Accounts/${accountSid}/Calls.json?Status=busy`, account)),
);

const work = mkdtempSync(join(tmpdir(), "voice-sandbox-scale-export-"));
const exportPath = join(work, "state.ndjson");
let started = performance.now();
const [exportBytes, exportBlockMs] = await longestStall(async () =>
  save(
    await sandbox.handle(request("GET", "/__sandbox/state", { accept: "application/x-ndjson" })),
    exportPath,
  ),
);
const exportMs = performance.now() - started;
started = performance.now();
const [imported, importBlockMs] = await longestStall(() =>
  sandbox.handle({
    ...request("PUT", "/__sandbox/state", { "content-type": "application/x-ndjson" }),
    // In 64 KB pieces, as a server reads an upload from its socket.
    bodyStream: createReadStream(exportPath, { highWaterMark: 64 * 1024 }),
  }),
);
const importMs = performance.now() - started;
rmSync(work, { recursive: true, force: true });
if (imported.status !== 200) throw new Error(`import answered ${imported.status}: ${String(imported.body)}`);

const dir = mkdtempSync(join(tmpdir(), "voice-sandbox-scale-"));
try {
  const writer = await openDataDir(sandbox, dir);
  await writer.close();
  // A restart is a new process: the filled state above is not in its heap.
  const restart = await runInChild<{
    restartMs: number;
    indexesMs: number;
    indexesBlockMs: number;
    restartHeapPerRecord: number;
    calls: number;
  }>("bench/scale-restart.ts", [dir, String(2 * size)], ["--expose-gc", "--max-old-space-size=16384"]);
  if (restart.calls !== sandbox.store.calls.size) throw new Error("the restart lost calls");
  const { restartMs, indexesMs, indexesBlockMs, restartHeapPerRecord } = restart;
  const result = {
    size,
    fillMs,
    rssPerRecord,
    heapPerRecord,
    lookupMs,
    carrierPageMs,
    accountPageMs,
    exportMs,
    importMs,
    exportBytes,
    exportBlockMs,
    importBlockMs,
    restartHeapPerRecord,
    restartMs,
    indexesMs,
    indexesBlockMs,
  };
  if (process.send) process.send(result);
  else console.log(JSON.stringify(result));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
