// How the phone API reaches a sandbox: its admin, carrier and account APIs, in-process (its fetch door) or over HTTP.

export interface PhoneTransportOptions {
  /** The sandbox's base URL (a standalone server's address, or the in-process sandbox's baseUrl). */
  url: string;
  /** The carrier API key (phone calls and messages are read, and calls hung up, with it). */
  carrierKey: string;
  /** The admin token, when the sandbox asks for one. */
  adminToken?: string | undefined;
  /** The fetch to use: the sandbox's own fetch door in-process, the global one for a server. */
  fetch?: ((input: string, init?: RequestInit) => Promise<Response>) | undefined;
}

/** Whose credentials: the admin token, the carrier key, or an account's sid and auth token. */
export type PhoneAuth = "admin" | "carrier" | { account: string; token: string };

export interface PhoneTransport {
  /** A JSON request; throws with the surface's own message when it is refused. */
  request<T = unknown>(
    method: string,
    path: string,
    options: { auth: PhoneAuth; json?: unknown; form?: Record<string, string> },
  ): Promise<T>;
}

export function createPhoneTransport(options: PhoneTransportOptions): PhoneTransport {
  const base = options.url.replace(/\/+$/, "");
  const send = options.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  return {
    async request(method, path, { auth, json, form }) {
      const headers: Record<string, string> = {};
      if (auth === "carrier") headers.authorization = `Bearer ${options.carrierKey}`;
      else if (auth !== "admin")
        headers.authorization = `Basic ${Buffer.from(`${auth.account}:${auth.token}`).toString("base64")}`;
      else if (options.adminToken) headers.authorization = `Bearer ${options.adminToken}`;
      let body: string | undefined;
      if (form) {
        body = new URLSearchParams(form).toString();
        headers["content-type"] = "application/x-www-form-urlencoded";
      } else if (json !== undefined) {
        body = JSON.stringify(json);
        headers["content-type"] = path.startsWith("/carrier/")
          ? "application/vnd.api+json"
          : "application/json";
      }
      const response = await send(`${base}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const text = await response.text();
      if (response.status >= 400)
        throw new Error(`the sandbox refused ${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
      return (text === "" ? null : JSON.parse(text)) as never;
    },
  };
}
