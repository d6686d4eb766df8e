// Types for the agent under test (agent.mjs).
export interface Agent {
  /** The agent's voice URL (`/voice`), or another path on it. */
  url(path?: string): string;
  /** The agent's WebSocket base URL (`ws://127.0.0.1:port`), or a path on it. */
  socketUrl(path?: string): string;
  close(): Promise<void>;
}

export function startAgent(options?: {
  port?: number;
  host?: string;
  /** Real ms each answer takes to think of (default a random 0-300). */
  think?: () => number;
  /** How long the caller talks over an answer before the agent stops (default 200; Infinity: never). */
  stopAfterMs?: number;
}): Promise<Agent>;
