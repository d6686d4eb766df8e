// Benchmark 8: concurrent media streams on the real clock: how many calls stream with frames on time, against bare ws senders.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { WebSocket } from "ws";
import type { createSandbox as CreateSandbox } from "../src/index.js";
import { accountSid, authorization, distUrl, envNumber, fmt } from "./lib.js";

/** Twilio's frame interval; a frame more than this late (or early) against the one before is off time. */
const frameMs = 20;
/** The bar: jitter (a frame's gap minus 20 ms) under 20 ms at the 99th percentile. */
const jitterLimitMs = 20;
const target = 0.5;

export interface StreamsBenchResult {
  name: string;
  /** Most concurrent streams with p99 jitter under the limit: the sandbox, and bare `ws` senders. */
  ours: number;
  baseline: number;
  ratio: number;
  target: number;
  levels: {
    streams: number;
    oursP99: number;
    bareP99: number;
    oursFrames: number;
    /** Milliseconds of this process's CPU per stream per second streamed (the app's, in its own process, not included). */
    oursCpuMs: number;
    bareCpuMs: number;
    /** How long placing the level's calls took (every create answered). */
    placeMs: number;
  }[];
  /** The same sweep with every caller speaking (synthesized words on the inbound track): streams on time. */
  speaking: number;
  speakingLevels: { streams: number; oursP99: number; oursFrames: number; oursCpuMs: number }[];
  failed: boolean;
}

/**
 * The app (bench/stream-receiver.mjs), in a process of its own as a customer's app is: what it measures is
 * when frames reach another program, not when this process found time to read them.
 */
async function startApp() {
  const child = fork(fileURLToPath(new URL("./stream-receiver.mjs", import.meta.url)), { stdio: "inherit" });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once("message", resolve as never));
  return {
    url: `ws://127.0.0.1:${port}/media`,
    /** The jitter of every connection since the last report; the connections are dropped. */
    report: () =>
      new Promise<{ p99: number; frames: number }>((resolve) => {
        child.once("message", (m: { p99: number | null; frames: number }) =>
          resolve({ p99: m.p99 ?? Number.POSITIVE_INFINITY, frames: m.frames }),
        );
        child.send("report");
      }),
    close: () => {
      child.kill();
    },
  };
}
type App = Awaited<ReturnType<typeof startApp>>;

/** Milliseconds of this process's CPU (user and system) since `from`, per stream per second. */
function cpuPerStreamSecond(from: NodeJS.CpuUsage, streams: number, seconds: number): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000 / streams / seconds;
}

/** What a speaking caller says, over and over: one phrase, so after its first synthesis every call reads the cache. */
const callerWords = "I would like to check the balance of my account please";

async function sandboxLevel(
  app: App,
  createSandbox: typeof CreateSandbox,
  streams: number,
  seconds: number,
  speaking = false,
) {
  // BENCH_STREAM_SENDER_THREADS=0 sends from the main thread, as before frame senders, for the comparison.
  const senderThreads = process.env.BENCH_STREAM_SENDER_THREADS;
  const sandbox = createSandbox({
    clock: "real",
    ...(senderThreads === undefined ? {} : { streams: { senderThreads: Number(senderThreads) } }),
  });
  try {
    // A speaking caller talks from the first second to the end: every inbound frame carries speech.
    const steps = speaking
      ? [{ on: { verb: "Connect" as const }, after: "500ms", say: callerWords, for: `${seconds}s` }]
      : [];
    sandbox.calls.setParty("+14155550123", {
      ringAfter: 0,
      answerAfter: 0,
      hangupAfter: `${seconds}s`,
      steps,
    });
    const twiml = `<Response><Connect><Stream url="${app.url}"/></Connect></Response>`;
    const placing = performance.now();
    await Promise.all(
      Array.from({ length: streams }, () =>
        sandbox.fetch(`${sandbox.baseUrl}/2010-04-01/Accounts/${accountSid}/Calls.json`, {
          method: "POST",
          headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ From: "+14155550100", To: "+14155550123", Twiml: twiml }).toString(),
        }),
      ),
    );
    const placeMs = performance.now() - placing;
    const cpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, (seconds + 1.5) * 1000));
    const cpuMs = cpuPerStreamSecond(cpu, streams, seconds + 1.5);
    return { ...(await app.report()), cpuMs, placeMs };
  } finally {
    sandbox.reset();
    sandbox.clock.switchTo("virtual");
    // A level past the ceiling leaves work behind (frames queued, sockets closing): it drains before the next.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** The baseline: bare `ws` clients sending a 160-byte frame every 20 ms on an absolute schedule. */
async function bareLevel(app: App, streams: number, seconds: number) {
  const payload = Buffer.alloc(160, 0xff).toString("base64");
  const sockets: WebSocket[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    await Promise.all(
      Array.from({ length: streams }, async () => {
        const ws = new WebSocket(app.url, { perMessageDeflate: false });
        sockets.push(ws);
        await new Promise((resolve) => ws.on("open", resolve));
        const start = performance.now();
        let n = 0;
        const next = () => {
          n++;
          ws.send(JSON.stringify({ event: "media", media: { chunk: String(n), payload } }));
          timers.push(setTimeout(next, Math.max(0, start + (n + 1) * frameMs - performance.now())));
        };
        timers.push(setTimeout(next, frameMs));
      }),
    );
    const cpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const cpuMs = cpuPerStreamSecond(cpu, streams, seconds);
    for (const timer of timers) clearTimeout(timer);
    return { ...(await app.report()), cpuMs };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const ws of sockets) ws.terminate();
  }
}

export async function benchStreams(): Promise<StreamsBenchResult> {
  const { createSandbox } = (await import(distUrl("index.js"))) as { createSandbox: typeof CreateSandbox };
  const app = await startApp();
  try {
    return await sweep(app, createSandbox);
  } finally {
    app.close();
  }
}

async function sweep(app: App, createSandbox: typeof CreateSandbox): Promise<StreamsBenchResult> {
  const seconds = envNumber("BENCH_STREAM_SECONDS", 5);
  const levels: StreamsBenchResult["levels"] = [];
  let ours = 0;
  let baseline = 0;
  // Up to 5,000, or until neither side holds: where each stops is the ceiling.
  for (const streams of [25, 50, 100, 200, 400, 800, 1000, 1500, 2000, 3000, 5000]) {
    const mine = await sandboxLevel(app, createSandbox, streams, seconds);
    const bare = await bareLevel(app, streams, seconds);
    levels.push({
      streams,
      oursP99: mine.p99,
      bareP99: bare.p99,
      oursFrames: mine.frames,
      oursCpuMs: mine.cpuMs,
      bareCpuMs: bare.cpuMs,
      placeMs: mine.placeMs,
    });
    console.log(
      `  ${String(streams).padStart(4)} streams: sandbox p99 jitter ${mine.p99.toFixed(1)} ms over ${fmt(mine.frames)} frames (${mine.cpuMs.toFixed(2)} ms CPU per stream-second, calls placed in ${fmt(mine.placeMs)} ms), bare ws ${bare.p99.toFixed(1)} ms (${bare.cpuMs.toFixed(2)} ms CPU)`,
    );
    // A level counts only when every smaller one held too: "sustains N" means every level up to N.
    const previous = levels.length > 1 ? levels[levels.length - 2]!.streams : 0;
    if (ours === previous && mine.frames > 0 && mine.p99 < jitterLimitMs) ours = streams;
    if (baseline === previous && bare.p99 < jitterLimitMs) baseline = streams;
    if (ours !== streams && baseline !== streams) break;
  }
  const ratio = baseline === 0 ? 0 : ours / baseline;
  console.log(
    `8. concurrent streams on time (p99 jitter < ${jitterLimitMs} ms): sandbox ${ours}, bare ws ${baseline}, ratio ${ratio.toFixed(2)}`,
  );
  // The same sweep with the caller speaking: frames are synthesized words, encoded as they go.
  // One short speaking run first, not counted: the synthesizer loads and compiles there, not in the first level.
  await sandboxLevel(app, createSandbox, 10, 2, true);
  const speakingLevels: StreamsBenchResult["speakingLevels"] = [];
  let speaking = 0;
  for (const streams of levels.map((level) => level.streams)) {
    const mine = await sandboxLevel(app, createSandbox, streams, seconds, true);
    speakingLevels.push({ streams, oursP99: mine.p99, oursFrames: mine.frames, oursCpuMs: mine.cpuMs });
    console.log(
      `  ${String(streams).padStart(4)} speaking callers: sandbox p99 jitter ${mine.p99.toFixed(1)} ms over ${fmt(mine.frames)} frames (${mine.cpuMs.toFixed(2)} ms CPU per stream-second)`,
    );
    if (mine.frames === 0 || mine.p99 >= jitterLimitMs) break;
    speaking = streams;
  }
  console.log(`   with every caller speaking: sandbox ${speaking} on time\n`);
  return {
    name: "streams on time",
    ours,
    baseline,
    ratio,
    target,
    levels,
    speaking,
    speakingLevels,
    failed: false,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStreams();
