// Soak benchmark (`npm run bench -- soak`): mixed load on the standalone server for 15 minutes, RSS sampled every 30 s.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { accountSid, authorization, envNumber, repoRoot } from "./lib.js";

const run = promisify(execFile);

/** RSS may grow to this multiple of its value after warm-up, and no more. */
const allowedGrowth = 2;

export interface SoakResult {
  minutes: number;
  warmUpMinutes: number;
  /** [minutes since start, RSS in MB] every sample. */
  samples: [number, number][];
  baselineMb: number;
  peakMb: number;
  ratio: number;
  ok: boolean;
  counts: Record<string, number>;
}

/**
 * The customer's side, on four hosts (ports), as four receivers would be: markup and fast callbacks, slow
 * callbacks (2 s), hung ones (never answered) and 10 MB answers. Fair delivery per host is what keeps the
 * first host's callbacks flowing while the others stall.
 */
async function startCustomer() {
  const counts: Record<string, number> = {};
  const hung = new Set<ServerResponse>();
  const bigAnswer = Buffer.alloc(10 * 1024 * 1024, "y");
  const urls: Record<"voice" | "done" | "fast" | "slow" | "hang" | "big", string> = {
    voice: "",
    done: "",
    fast: "",
    slow: "",
    hang: "",
    big: "",
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      counts[path] = (counts[path] ?? 0) + 1;
      if (path === "/voice") {
        res.writeHead(200, { "content-type": "text/xml" });
        res.end(
          `<Response><Say>Soak test call</Say><Record maxLength="3" playBeep="false" action="${urls.done}" recordingStatusCallback="${urls.slow}"/></Response>`,
        );
      } else if (path === "/done") {
        res.writeHead(200, { "content-type": "text/xml" }).end("<Response><Hangup/></Response>");
      } else if (path === "/slow") {
        setTimeout(() => res.writeHead(204).end(), 2_000);
      } else if (path === "/hang") {
        hung.add(res);
        res.on("close", () => hung.delete(res));
      } else if (path === "/big") {
        res.writeHead(200, { "content-type": "text/plain" }).end(bigAnswer);
      } else {
        res.writeHead(204).end();
      }
    });
  };
  const servers = await Promise.all(
    [0, 1, 2, 3].map(async () => {
      const server = createServer(handler);
      server.keepAliveTimeout = 60_000;
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    }),
  );
  const [app, slow, hang, big] = servers.map((s) => s.base) as [string, string, string, string];
  Object.assign(urls, {
    voice: `${app}/voice`,
    done: `${app}/done`,
    fast: `${app}/fast`,
    slow: `${slow}/slow`,
    hang: `${hang}/hang`,
    big: `${big}/big`,
  });
  return {
    urls,
    counts,
    close: async () => {
      for (const res of hung) res.destroy();
      await Promise.all(
        servers.map(
          ({ server }) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  // A balance that lasts the whole run, so admission never starts refusing calls half way.
  const dir = mkdtempSync(join(tmpdir(), "voice-sandbox-soak-"));
  const fixtures = join(dir, "fixtures.yaml");
  writeFileSync(
    fixtures,
    readFileSync(join(repoRoot, "fixtures/default.yaml"), "utf8").replace(
      /balance_cents: \d+/g,
      "balance_cents: 100000000",
    ),
  );
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("VOICE_SANDBOX_")),
  );
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, "dist/server/cli.cjs"),
      "serve",
      "--port",
      String(port),
      "--fixtures",
      fixtures,
      "--log-level",
      "warn",
    ],
    { cwd: repoRoot, env, stdio: ["ignore", "inherit", "inherit"] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/__sandbox/health`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  child.kill();
  throw new Error("the sandbox server did not start");
}

/** Resident set size of a process in MB, as `ps` reports it. */
async function rssMb(pid: number): Promise<number> {
  const { stdout } = await run("ps", ["-o", "rss=", "-p", String(pid)]);
  return Number(stdout.trim()) / 1024;
}

export async function benchSoak(): Promise<SoakResult> {
  const minutes = envNumber("BENCH_SOAK_MINUTES", 15);
  const warmUpMinutes = envNumber("BENCH_SOAK_WARMUP_MINUTES", Math.min(2, minutes / 5));
  const sampleSeconds = envNumber("BENCH_SOAK_SAMPLE_SECONDS", 30);
  const customer = await startCustomer();
  const { child, url } = await startServer();
  const counts: Record<string, number> = { calls: 0, messages: 0, reads: 0, media: 0, errors: 0 };
  const samples: [number, number][] = [];
  const started = performance.now();
  const elapsedMinutes = () => (performance.now() - started) / 60_000;
  console.log(
    `Soak: ${minutes} min of mixed load, RSS every ${sampleSeconds} s, warm-up ${warmUpMinutes} min`,
  );

  const api = async (method: string, path: string, form?: Record<string, string> | [string, string][]) => {
    const response = await fetch(`${url}/2010-04-01/Accounts/${accountSid}${path}`, {
      method,
      headers: { authorization, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    const body = await response.arrayBuffer();
    if (response.status >= 400) {
      if (counts.errors!++ === 0)
        console.log(
          `  first error: ${method} ${path} ${response.status} ${Buffer.from(body).toString().slice(0, 300)}`,
        );
    }
    return { status: response.status, body };
  };
  const { urls } = customer;
  const callbackUrls = [urls.fast, urls.slow, urls.hang, urls.big];
  let tick = 0;
  let stopping = false;

  /** One second of load: 2 calls, 4 messages, list reads, and a recording's audio every few seconds. */
  const load = async () => {
    while (!stopping) {
      const at = performance.now();
      const statusCallback = callbackUrls[tick % callbackUrls.length]!;
      const work: Promise<unknown>[] = [];
      for (let i = 0; i < 2; i++) {
        counts.calls!++;
        work.push(
          api("POST", "/Calls.json", [
            ["To", `+1415555${String(1000 + ((tick * 2 + i) % 9000)).padStart(4, "0")}`],
            ["From", "+14155550100"],
            ["Url", urls.voice],
            ["StatusCallback", statusCallback],
            ...["initiated", "ringing", "answered", "completed"].map((e): [string, string] => [
              "StatusCallbackEvent",
              e,
            ]),
          ]),
        );
      }
      for (let i = 0; i < 4; i++) {
        counts.messages!++;
        work.push(
          api("POST", "/Messages.json", {
            To: "+14155550199",
            From: "+14155550100",
            Body: `soak ${tick}-${i}`,
            StatusCallback: callbackUrls[(tick + i) % callbackUrls.length]!,
          }),
        );
      }
      counts.reads! += 2;
      work.push(api("GET", "/Calls.json?PageSize=50"), api("GET", "/Messages.json?PageSize=50"));
      if (tick % 5 === 0) {
        work.push(
          api("GET", "/Recordings.json?PageSize=1").then(async ({ body }) => {
            const sid = (JSON.parse(Buffer.from(body).toString()) as { recordings?: { sid: string }[] })
              .recordings?.[0]?.sid;
            if (!sid) return;
            counts.media!++;
            await api("GET", `/Recordings/${sid}.wav`);
          }),
        );
      }
      await Promise.allSettled(work);
      tick++;
      await sleep(Math.max(0, 1000 - (performance.now() - at)));
    }
  };

  const loader = load();
  try {
    for (let n = 0; n <= Math.floor((minutes * 60) / sampleSeconds); n++) {
      if (n > 0) await sleep(Math.max(0, started + n * sampleSeconds * 1000 - performance.now()));
      const mb = await rssMb(child.pid!);
      const deliveries = (await (await fetch(`${url}/__sandbox/webhooks?limit=1`)).json()) as Record<
        string,
        number
      >;
      samples.push([elapsedMinutes(), mb]);
      console.log(
        `  ${elapsedMinutes().toFixed(1).padStart(5)} min  RSS ${mb.toFixed(0).padStart(5)} MB  calls ${counts.calls} messages ${counts.messages} errors ${counts.errors}  callbacks queued ${deliveries.queued} in flight ${deliveries.in_flight} waiting retry ${deliveries.waiting_retry}`,
      );
    }
  } finally {
    stopping = true;
    await loader;
    child.kill("SIGTERM");
    await customer.close();
  }
  const afterWarmUp = samples.filter(([m]) => m >= warmUpMinutes - 1e-6);
  const baselineMb = afterWarmUp[0]?.[1] ?? samples.at(-1)![1];
  const peakMb = Math.max(...afterWarmUp.map(([, mb]) => mb));
  const ratio = peakMb / baselineMb;
  const result: SoakResult = {
    minutes,
    warmUpMinutes,
    samples,
    baselineMb,
    peakMb,
    ratio,
    ok: ratio <= allowedGrowth && counts.errors === 0,
    counts: {
      ...counts,
      ...Object.fromEntries(Object.entries(customer.counts).map(([k, v]) => [`received ${k}`, v])),
    },
  };
  console.log(
    `  RSS after warm-up ${baselineMb.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB, ratio ${ratio.toFixed(2)} (<= ${allowedGrowth}) ${result.ok ? "OK" : "FAILED"}`,
  );
  console.log(`  ${JSON.stringify(result.counts)}\n`);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchSoak();
  process.exitCode = result.ok ? 0 : 1;
}
