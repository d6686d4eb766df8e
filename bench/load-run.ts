// Benchmark: the load run's own overhead on the real clock: calls per second placed against the most the scenario's
// length allows, and the figures kept per call.
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import type * as Index from "../src/index.js";
import { distUrl, envNumber } from "./lib.js";

export interface LoadRunBenchResult {
  name: string;
  calls: number;
  concurrency: number;
  /** Calls ended per second, and the most the scenario's own length allows at this concurrency. */
  callsPerSecond: number;
  idealCallsPerSecond: number;
  /** callsPerSecond / idealCallsPerSecond: 1 when the run adds nothing to the calls' own time. */
  ratio: number;
  /** Numbers the run keeps per call for its percentiles (turns, response, silences...). */
  metricsPerCall: number;
  failed: boolean;
}

const silence = Buffer.alloc(160, 0xff).toString("base64");
const voice = Buffer.alloc(160, 0x10).toString("base64");

/** An agent that answers each turn at once, after 15 silence frames: the run's cost, not the agent's, is measured. */
async function startAgent() {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
  await new Promise((resolve) => wss.once("listening", resolve));
  wss.on("connection", (socket) => {
    let streamSid = "";
    let heard = false;
    let quiet = 0;
    socket.on("message", (data) => {
      const m = JSON.parse(String(data));
      if (m.event === "start") streamSid = m.streamSid;
      if (m.event !== "media") return;
      if (m.media.payload !== silence) {
        heard = true;
        quiet = 0;
        return;
      }
      if (!heard || ++quiet < 15) return;
      heard = false;
      for (let i = 0; i < 10; i++)
        socket.send(JSON.stringify({ event: "media", streamSid, media: { payload: voice } }));
    });
  });
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, close: () => wss.close() };
}

const scenario = `
name: one turn
apps: { agent: null }
numbers:
  - number: "+14155550100"
    voice: <Response><Connect><Stream url="{apps.agent}/media"/></Connect></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: hello }
  - hangup: { call: c1 }
expect:
  calls: { c1: { status: completed } }
`;

export async function benchLoadRun(): Promise<LoadRunBenchResult> {
  const { runLoad, parseScenario } = (await import(distUrl("index.js"))) as typeof Index;
  const calls = envNumber("BENCH_LOAD_CALLS", 100);
  const concurrency = envNumber("BENCH_LOAD_CONCURRENCY", 50);
  const agent = await startAgent();
  try {
    const loaded = parseScenario(scenario);
    const apps = { agent: agent.url };
    // One call alone: how long the scenario itself takes on the real clock.
    const alone = await runLoad(loaded, { calls: 1, apps });
    const result = await runLoad(loaded, { calls, concurrency, apps });
    const idealCallsPerSecond = (concurrency / alone.wallMs) * 1000;
    const m = result.metrics;
    const kept = m.responseMs.sampled + m.bargeInStopMs.sampled + m.talkOverMs.sampled;
    const more = m.longestSilenceMs.sampled + m.silenceMs.sampled + m.turns.sampled;
    const out: LoadRunBenchResult = {
      name: "load run overhead",
      calls,
      concurrency,
      callsPerSecond: result.callsPerSecond,
      idealCallsPerSecond: Math.round(idealCallsPerSecond * 100) / 100,
      ratio: Math.round((result.callsPerSecond / idealCallsPerSecond) * 100) / 100,
      metricsPerCall: Math.round(((kept + more) / calls) * 10) / 10,
      failed: !result.passed || !alone.passed,
    };
    console.log(
      `load run: ${calls} calls, ${concurrency} at once: ${out.callsPerSecond} calls/s against ${out.idealCallsPerSecond} the scenario's length allows (ratio ${out.ratio}); ${out.metricsPerCall} figures kept per call; late frames ${result.counts.lateFrames}${out.failed ? "; FAILED" : ""}`,
    );
    return out;
  } finally {
    agent.close();
  }
}
