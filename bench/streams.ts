// Benchmark 8: concurrent media streams on the real clock: how many calls stream with frames on time, against bare ws senders.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";
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
    /** Milliseconds of this process's CPU per stream per second streamed (the receiving app's included). */
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

/** A WebSocket app that records when each media frame of each connection arrives. */
async function startApp() {
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  const arrivals: number[][] = [];
  wss.on("connection", (socket) => {
    const times: number[] = [];
    arrivals.push(times);
    socket.on("message", (data) => {
      if (String(data).includes('"media"')) times.push(performance.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/media`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Milliseconds of this process's CPU (user and system) since `from`, per stream per second. */
function cpuPerStreamSecond(from: NodeJS.CpuUsage, streams: number, seconds: number): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000 / streams / seconds;
}

/** The 99th percentile of |gap - 20 ms| over every stream's frames, skipping each stream's first second. */
function p99Jitter(arrivals: number[][]): { p99: number; frames: number } {
  const jitter: number[] = [];
  for (const times of arrivals) {
    for (let i = 51; i < times.length; i++) jitter.push(Math.abs(times[i]! - times[i - 1]! - frameMs));
  }
  jitter.sort((a, b) => a - b);
  return { p99: jitter[Math.floor(jitter.length * 0.99)] ?? Number.POSITIVE_INFINITY, frames: jitter.length };
}

/** What a speaking caller says, over and over: one phrase, so after its first synthesis every call reads the cache. */
const callerWords = "I would like to check the balance of my account please";

async function sandboxLevel(
  createSandbox: typeof CreateSandbox,
  streams: number,
  seconds: number,
  speaking = false,
) {
  const app = await startApp();
  const sandbox = createSandbox({ clock: "real" });
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
    return { ...p99Jitter(app.arrivals), cpuMs: cpuPerStreamSecond(cpu, streams, seconds + 1.5), placeMs };
  } finally {
    sandbox.reset();
    sandbox.clock.switchTo("virtual");
    await app.close();
  }
}

/** The baseline: bare `ws` clients sending a 160-byte frame every 20 ms on an absolute schedule. */
async function bareLevel(streams: number, seconds: number) {
  const app = await startApp();
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
    return { ...p99Jitter(app.arrivals), cpuMs: cpuPerStreamSecond(cpu, streams, seconds) };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const ws of sockets) ws.terminate();
    await app.close();
  }
}

export async function benchStreams(): Promise<StreamsBenchResult> {
  const { createSandbox } = (await import(distUrl("index.js"))) as { createSandbox: typeof CreateSandbox };
  const seconds = envNumber("BENCH_STREAM_SECONDS", 5);
  const levels: StreamsBenchResult["levels"] = [];
  let ours = 0;
  let baseline = 0;
  // Up to 5,000, or until neither side holds: where each stops is the ceiling.
  for (const streams of [25, 50, 100, 200, 400, 800, 1000, 1500, 2000, 3000, 5000]) {
    const mine = await sandboxLevel(createSandbox, streams, seconds);
    const bare = await bareLevel(streams, seconds);
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
  const speakingLevels: StreamsBenchResult["speakingLevels"] = [];
  let speaking = 0;
  for (const streams of levels.map((level) => level.streams)) {
    const mine = await sandboxLevel(createSandbox, streams, seconds, true);
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
