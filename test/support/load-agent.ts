// The load runs' agent and scenario: a media-stream agent of known latency, and one inbound call of one turn.
import { execFile } from "node:child_process";
import { cliArgs } from "./cli-process.js";
import { type StreamApp, type StreamConnection, startStreamApp } from "./stream-app.js";

/** The command line from source, as a child process (the agent keeps answering in this one meanwhile). */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...cliArgs, ...args],
      { timeout: 60_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const silence = Buffer.alloc(160, 0xff).toString("base64");
const voice = Buffer.alloc(160, 0x10).toString("base64");
/** The agent's known latency: 15 silence frames (300 ms) end the caller's turn, then 50 ms of thought. */
export const thinkMs = 50;

/** A media-stream agent that answers each turn with 400 ms of audio and a mark. */
export async function startAgent(): Promise<StreamApp> {
  const state = new Map<StreamConnection, { heard: boolean; quiet: number; streamSid: string }>();
  return startStreamApp((message, connection) => {
    const s = state.get(connection) ?? { heard: false, quiet: 0, streamSid: "" };
    state.set(connection, s);
    if (message.event === "start") s.streamSid = message.streamSid;
    if (message.event !== "media") return;
    if (message.media.payload !== silence) {
      s.heard = true;
      s.quiet = 0;
      return;
    }
    if (!s.heard || ++s.quiet < 15) return;
    s.heard = false;
    const streamSid = s.streamSid;
    setTimeout(() => {
      if (connection.socket.readyState !== connection.socket.OPEN) return;
      for (let i = 0; i < 20; i++) connection.send({ event: "media", streamSid, media: { payload: voice } });
      connection.send({ event: "mark", streamSid, mark: { name: "answered" } });
    }, thinkMs);
  });
}

/** One inbound call, one turn, then the caller hangs up; `agent` holds the thresholds. */
export const scenarioText = (agent: string) => `
name: one turn with the agent
apps: { agent: null }
numbers:
  - number: "+14155550100"
    voice: <Response><Connect><Stream url="{apps.agent}/media"/></Connect></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: hello there }
  - hangup: { call: c1 }
    after: 2s
expect:
  calls: { c1: { status: completed } }
  agent:
${agent}
`;
