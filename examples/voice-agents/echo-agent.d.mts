// Types for the echo agent example (echo-agent.mjs).
export interface EchoAgentEvent {
  event: "start" | "mark" | "dtmf" | "stop";
  customParameters?: Record<string, string>;
  name?: string;
  digit?: string;
}

export interface EchoAgent {
  /** The agent's voice URL (`/voice`), or another path on it. */
  url(path?: string): string;
  /** The agent's WebSocket base URL (`ws://127.0.0.1:port`), or a path on it. */
  socketUrl(path?: string): string;
  events: EchoAgentEvent[];
  close(): Promise<void>;
}

export function startEchoAgent(options?: { port?: number; host?: string }): Promise<EchoAgent>;
