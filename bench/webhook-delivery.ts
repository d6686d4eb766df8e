// Benchmark 3: signed webhook deliveries per second to a local receiver, against plain unsigned POSTs at the same concurrency.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { createSandbox as CreateSandbox } from "../src/index.js";
import { accountSid, authToken, type BenchResult, distUrl, envNumber, fmt, median, verdict } from "./lib.js";

const target = 0.5;

interface Receiver {
  url: string;
  received: () => number;
  close: () => Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`,
    received: () => received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const params = (n: number) => ({
  CallSid: `CA${String(n % 500).padStart(32, "0")}`,
  AccountSid: accountSid,
  CallStatus: "completed",
  From: "+14155550100",
  To: "+14155550199",
  Direction: "outbound-api",
  ApiVersion: "2010-04-01",
  CallDuration: "12",
  SequenceNumber: String(Math.floor(n / 500)),
});

/** The dispatcher: enqueue `count` status callbacks (500 calls, in order per call), then wait for all of them. */
async function runSandbox(
  createSandbox: typeof CreateSandbox,
  url: string,
  count: number,
  concurrency: number,
) {
  // One receiving host here, so it may have every slot: the same concurrency as the plain POSTs.
  const sandbox = createSandbox({
    webhooks: { concurrency, perHostConcurrency: concurrency, logLimit: count },
  });
  const started = performance.now();
  for (let n = 0; n < count; n++) {
    const p = params(n);
    sandbox.webhooks.enqueue({
      kind: "call-status",
      url,
      method: "POST",
      params: p,
      accountSid,
      authToken,
      callSid: p.CallSid,
    });
  }
  await sandbox.settle();
  const seconds = (performance.now() - started) / 1000;
  const stats = sandbox.webhooks.stats();
  return { rps: count / seconds, bad: count - stats.delivered + stats.failed };
}

/** The baseline: the same bodies POSTed with fetch by `concurrency` workers, no signing, no ordering, no log. */
async function runPlain(url: string, count: number, concurrency: number) {
  let next = 0;
  let bad = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(params(n)).toString(),
      });
      await response.arrayBuffer();
      if (response.status !== 204) bad++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { rps: count / ((performance.now() - started) / 1000), bad };
}

export async function benchWebhooks(): Promise<BenchResult> {
  const count = Math.round(envNumber("BENCH_WEBHOOK_COUNT", 10_000));
  const rounds = Math.round(envNumber("BENCH_WEBHOOK_ROUNDS", 3));
  const concurrency = Math.round(envNumber("BENCH_WEBHOOK_CONCURRENCY", 64));
  const { createSandbox } = (await import(distUrl("index.js"))) as { createSandbox: typeof CreateSandbox };
  const receiver = await startReceiver();
  console.log("Benchmark 3: signed webhook deliveries vs plain fetch POSTs (local node:http receiver)");
  console.log(
    `  ${fmt(count)} deliveries per run, concurrency ${concurrency}, ${rounds} rounds, alternating`,
  );
  const ours: number[] = [];
  const plain: number[] = [];
  let bad = 0;
  try {
    await runPlain(receiver.url, Math.min(count, 1000), concurrency); // warm-up
    for (let round = 0; round < rounds; round++) {
      const a = await runSandbox(createSandbox, receiver.url, count, concurrency);
      const b = await runPlain(receiver.url, count, concurrency);
      ours.push(a.rps);
      plain.push(b.rps);
      bad += a.bad + b.bad;
      console.log(
        `    round ${round + 1} signed ${fmt(a.rps).padStart(8)} deliveries/s   plain ${fmt(b.rps).padStart(8)} req/s${a.bad + b.bad ? `  BAD ${a.bad + b.bad}` : ""}`,
      );
    }
  } finally {
    await receiver.close();
  }
  const result = {
    name: "signed webhook deliveries",
    ours: median(ours),
    baseline: median(plain),
    ratio: median(ours) / median(plain),
    target,
    failed: bad > 0,
  };
  console.log(
    `  median: ${fmt(result.ours)} signed deliveries/s, plain ${fmt(result.baseline)} req/s, ratio ${result.ratio.toFixed(2)} (>= ${target}) ${verdict(result.ratio, target)}\n`,
  );
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchWebhooks();
  process.exitCode = result.failed ? 1 : 0;
}
