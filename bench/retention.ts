// Memory past the bound on records (`npm run bench -- retention` runs it alone): the built server with a data directory takes form POSTs of messages until every bound is reached (records and events), then as many again four times over; its heap and RSS at the bound against after.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { envNumber, messageForm, messagesPath, startScriptNodeFlags } from "./lib.js";
import { call, closeConnections, type Probe, richFixtures, startProbedServer } from "./steady-load.js";

/** Heap after the extra records within this fraction of the heap at the bound passes; RSS gets twice the room. */
const heapTolerance = 0.1;
/** Carrier events a message leaves (created, sending, sent, its charge, delivered): the event log fills as the records do. */
const eventsPerMessage = 5;

export interface RetentionResult {
  name: string;
  bound: number;
  /** Records posted past the bound. */
  beyond: number;
  heapAtBoundMb: number;
  heapAfterMb: number;
  rssAtBoundMb: number;
  rssAfterMb: number;
  heapRatio: number;
  rssRatio: number;
  /** Heap the state took per message on the way to the bound (its events, charge and indexes included), bytes. */
  bytesPerMessage: number;
  /** Messages the store holds at the end: the bound, and those still under way. */
  messagesKept: number;
  ok: boolean;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/** Posts `count` messages, `concurrency` at a time, moving the virtual clock on so each is delivered. */
async function postMessages(url: string, count: number, concurrency = 32): Promise<void> {
  let next = 0;
  let failed: string | undefined;
  const worker = async () => {
    while (next < count && !failed) {
      next++;
      const answer = await call(url, "POST", messagesPath, messageForm);
      if (answer.status !== 201) failed = `POST Messages.json answered ${answer.status}: ${answer.body}`;
      // Every thousand, 3 s of sandbox time: the messages made meanwhile go through to delivered (finished).
      if (next % 1000 === 0) await call(url, "POST", "/__sandbox/clock/advance", '{"by":"3s"}', "json");
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (failed) throw new Error(failed);
  await call(url, "POST", "/__sandbox/clock/advance", '{"by":"3s"}', "json");
}

const spaces = (probe: Probe) =>
  probe.spaces
    .filter((space) => space.size > 4 * 1024 * 1024)
    .map((space) => `${space.name} ${mb(space.used).toFixed(0)}/${mb(space.size).toFixed(0)}`)
    .join(", ");

const line = (label: string, probe: Probe) =>
  `  ${label.padEnd(34)} heap ${mb(probe.memory.heapUsed).toFixed(1).padStart(6)} MB (of ${mb(probe.memory.heapTotal).toFixed(0)})  RSS ${mb(probe.memory.rss).toFixed(1).padStart(6)} MB  external ${mb(probe.memory.external).toFixed(1)} MB  (${spaces(probe)})`;

export async function benchRetention(): Promise<RetentionResult> {
  const bound = Math.round(envNumber("BENCH_RETAIN_BOUND", 10_000));
  const rounds = Math.round(envNumber("BENCH_RETAIN_ROUNDS", 4));
  const dir = mkdtempSync(join(tmpdir(), "voice-sandbox-retention-"));
  console.log(
    `Retention: form POSTs of messages to a server with --retain ${bound}, --event-limit ${eventsPerMessage * bound} and a data directory: 2 x ${bound} to be past every bound, then ${rounds} x ${bound} more; heap after a full collection`,
  );
  const server = await startProbedServer(
    [
      // BENCH_RETAIN_MEMORY_ONLY=1: no data directory, to tell what persistence adds.
      ...(process.env.BENCH_RETAIN_MEMORY_ONLY === "1" ? [] : ["--data-dir", join(dir, "data")]),
      "--fixtures",
      richFixtures(dir),
      "--clock",
      "virtual",
      "--retain",
      String(bound),
      "--event-limit",
      String(eventsPerMessage * bound),
    ],
    [...startScriptNodeFlags(), "--expose-gc"],
  );
  try {
    const start = await server.probe(true);
    console.log(line("started", start));
    await postMessages(server.url, bound);
    const filled = await server.probe(true);
    console.log(line(`${bound} messages posted`, filled));
    await postMessages(server.url, bound);
    const atBound = await server.probe(true);
    console.log(line(`${2 * bound} messages: past every bound`, atBound));
    let after = atBound;
    for (let round = 1; round <= rounds; round++) {
      await postMessages(server.url, bound);
      after = await server.probe(true);
      console.log(line(`${(round + 2) * bound} messages posted`, after));
    }
    const list = await call(server.url, "GET", "/carrier/v1/messages?per_page=1", undefined, "carrier");
    const messagesKept = (JSON.parse(list.body) as { meta: { total: number } }).meta.total;
    const heapRatio = after.memory.heapUsed / atBound.memory.heapUsed;
    const rssRatio = after.memory.rss / atBound.memory.rss;
    const result: RetentionResult = {
      name: "retention (memory past the bound)",
      bound,
      beyond: rounds * bound,
      heapAtBoundMb: mb(atBound.memory.heapUsed),
      heapAfterMb: mb(after.memory.heapUsed),
      rssAtBoundMb: mb(atBound.memory.rss),
      rssAfterMb: mb(after.memory.rss),
      heapRatio,
      rssRatio,
      bytesPerMessage: (filled.memory.heapUsed - start.memory.heapUsed) / bound,
      messagesKept,
      ok: heapRatio <= 1 + heapTolerance && rssRatio <= 1 + 2 * heapTolerance,
    };
    console.log(
      `  ${messagesKept} messages kept; heap ${result.heapAfterMb.toFixed(1)} MB after ${result.beyond} more against ${result.heapAtBoundMb.toFixed(1)} MB at the bound: ratio ${heapRatio.toFixed(2)} (<= ${1 + heapTolerance}); RSS ratio ${rssRatio.toFixed(2)} (<= ${1 + 2 * heapTolerance}); ${result.bytesPerMessage.toFixed(0)} B of heap per message on the way ${result.ok ? "PASS" : "GROWS"}\n`,
    );
    return result;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchRetention();
  closeConnections();
  process.exitCode = result.ok ? 0 : 1;
}
