// Types of the location-router example, for TypeScript tests that start it.
export interface ReceivedRequest {
  path: string;
  params: Record<string, string>;
  /** The Cookie header the request carried, or null. */
  cookie: string | null;
}

export interface RunningLocationRouter {
  /** Base URL to pass as the scenario target. */
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export function startLocationRouter(options?: { port?: number; host?: string }): Promise<RunningLocationRouter>;
