// Types for the menu agent example (menu-agent.mjs).
export interface MenuAgent {
  /** The agent's voice URL (`/voice`), or another path on it. */
  url(path?: string): string;
  /** The agent's WebSocket base URL (`ws://127.0.0.1:port`), or a path on it. */
  socketUrl(path?: string): string;
  /** What the caller said or pressed, and what the agent answered, in order. */
  transcript: ({ caller: string } | { agent: string })[];
  close(): Promise<void>;
}

export function startMenuAgent(options?: { port?: number; host?: string }): Promise<MenuAgent>;
