// Types of the example customer app, for TypeScript tests that start it.
export interface ReceivedRequest {
  path: string;
  params: Record<string, string>;
}

export interface RunningCustomerApp {
  /** Base URL to pass as the scenario target, e.g. http://127.0.0.1:53121. */
  url: string;
  /** Every request that passed the signature check, oldest first. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export function startCustomerApp(options?: {
  port?: number;
  host?: string;
  /** Checks X-Twilio-Signature with this token when set. */
  authToken?: string;
  /** The base URL the sandbox signs (default: http:// plus the Host header). */
  publicUrl?: string;
}): Promise<RunningCustomerApp>;
