// One size of the scale benchmark, in a process of its own: N calls and N messages with their events, then lookups, filtered pages, memory, export, import and restart.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { accountSid, authorization, distUrl } from "./lib.js";
import { fill, hexOf, request } from "./scale-fill.js";

const size = Number(process.argv[2] ?? 1000);
const carrier = { authorization: "Bearer carrier_sandbox_key_0000000000000000" };
const account = { authorization };

const { createSandboxCore } = (await import(distUrl("sandbox.js"))) as typeof import("../src/sandbox.js");
const { openDataDir } = (await import(
  distUrl("server/persistence/data-dir.js")
)) as typeof import("../src/server/persistence/data-dir.js");

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const settleMemory = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().rss;
};
const settleHeap = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
};

/** Mean milliseconds per call of `run` over `times` calls. */
async function timed(times: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < times; i++) await run(i);
  return (performance.now() - started) / times;
}

/**
 * Reads a streamed answer as a client would, keeping its pieces as they come (joining them into one buffer
 * would itself hold the event loop for seconds at 1M and be counted as the server's stall).
 */
async function drain(response: { body: string | Uint8Array; stream?: AsyncIterable<string | Uint8Array> }) {
  const chunks: Buffer[] = [];
  if (response.stream) for await (const piece of response.stream) chunks.push(Buffer.from(piece));
  else chunks.push(Buffer.from(response.body));
  return chunks;
}

async function* replay(chunks: Buffer[]) {
  yield* chunks;
}

/** Runs `work`, measuring the longest the event loop was held meanwhile: how long another request would wait. */
async function longestStall<T>(work: () => Promise<T>): Promise<[T, number]> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const result = await work();
  delay.disable();
  return [result, delay.max / 1e6];
}

const sandbox = createSandboxCore({ clock: "virtual" });
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

let started = performance.now();
const [exported, exportBlockMs] = await longestStall(async () =>
  drain(await sandbox.handle(request("GET", "/__sandbox/state", { accept: "application/x-ndjson" }))),
);
const exportMs = performance.now() - started;
started = performance.now();
const [imported, importBlockMs] = await longestStall(() =>
  sandbox.handle({
    ...request("PUT", "/__sandbox/state", { "content-type": "application/x-ndjson" }),
    bodyStream: replay(exported),
  }),
);
const importMs = performance.now() - started;
if (imported.status !== 200) throw new Error(`import answered ${imported.status}: ${String(imported.body)}`);
const exportBytes = exported.reduce((sum, chunk) => sum + chunk.length, 0);
exported.length = 0;

const dir = mkdtempSync(join(tmpdir(), "voice-sandbox-scale-"));
try {
  const writer = await openDataDir(sandbox, dir);
  await writer.close();
  const fresh = createSandboxCore({ clock: "virtual" });
  started = performance.now();
  const reader = await openDataDir(fresh, dir);
  const restartMs = performance.now() - started;
  await reader.close();
  if (fresh.store.calls.size !== sandbox.store.calls.size) throw new Error("the restart lost calls");
  // The restarted state's own heap: rows read back from the file, once the filled state is dropped.
  sandbox.store.clear();
  const restartHeapPerRecord = (settleHeap() - heapBefore) / (2 * size);
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
  };
  if (process.send) process.send(result);
  else console.log(JSON.stringify(result));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
