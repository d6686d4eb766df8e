// Requests into the sandbox's own core (no network), as the customer's app and the carrier would make them.
import type { PlayedSandbox } from "./played-sandbox.js";

export interface ApiAnswer {
  status: number;
  json: unknown;
  /** One line for reports: the status and the error message the surface gave. */
  summary: string;
}

export type ApiAuth = { kind: "account"; sid: string } | { kind: "carrier" } | { kind: "admin" };

export interface ApiClient {
  request(
    method: string,
    path: string,
    options: { auth: ApiAuth; form?: Record<string, string | string[]>; json?: unknown },
  ): Promise<ApiAnswer>;
}

/** The error text of any surface: Twilio's `message`, JSON:API's `errors[].detail`, the admin `error`. */
function errorText(json: unknown): string {
  const body = json as Record<string, unknown> | null;
  if (!body || typeof body !== "object") return "";
  if (typeof body.message === "string") return `${body.code ?? ""} ${body.message}`.trim();
  if (Array.isArray(body.errors))
    return body.errors.map((e: { detail?: string; title?: string }) => e.detail ?? e.title ?? "").join("; ");
  const error = body.error as { message?: string } | string | undefined;
  if (typeof error === "string") return error;
  if (error && typeof error.message === "string") return error.message;
  return "";
}

export function createApiClient(core: PlayedSandbox): ApiClient {
  const authorization = (auth: ApiAuth): string | undefined => {
    if (auth.kind === "carrier") return `Bearer ${core.settings.carrierKey}`;
    if (auth.kind === "admin")
      return core.settings.adminToken ? `Bearer ${core.settings.adminToken}` : undefined;
    const token = core.store.accounts.get(auth.sid)?.auth_token ?? "";
    return `Basic ${Buffer.from(`${auth.sid}:${token}`).toString("base64")}`;
  };
  return {
    async request(method, path, options) {
      const headers: Record<string, string> = {};
      const auth = authorization(options.auth);
      if (auth) headers.authorization = auth;
      let body = "";
      if (options.form) {
        const params = new URLSearchParams();
        for (const [key, value] of Object.entries(options.form))
          for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
        body = params.toString();
        headers["content-type"] = "application/x-www-form-urlencoded";
      } else if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers["content-type"] = path.startsWith("/carrier/")
          ? "application/vnd.api+json"
          : "application/json";
      } else if (path.startsWith("/__sandbox/") && method.toUpperCase() !== "GET") {
        // A bodyless admin write carries the JSON type, as the admin API asks of every write.
        headers["content-type"] = "application/json";
      }
      const response = await core.handle({ method, path, query: "", headers, body });
      const text =
        typeof response.body === "string" ? response.body : Buffer.from(response.body).toString("utf8");
      let json: unknown = null;
      try {
        json = text === "" ? null : JSON.parse(text);
      } catch {
        json = text;
      }
      const ok = response.status < 400;
      return {
        status: response.status,
        json,
        summary: ok ? `${response.status}` : `${response.status} ${errorText(json)}`.trim(),
      };
    },
  };
}

/** A refused request, carrying the surface's status and error code for `expect_error`. */
export class StepRefused extends Error {
  readonly status: number;
  readonly code: string | null;
  constructor(what: string, answer: ApiAnswer) {
    super(`${what} was refused: ${answer.summary}`);
    this.name = "StepRefused";
    this.status = answer.status;
    const body = answer.json as { code?: unknown; errors?: { code?: unknown }[] } | null;
    const code = body?.code ?? body?.errors?.[0]?.code;
    this.code = code === undefined || code === null ? null : String(code);
  }
}

/** The request's answer when it succeeded; otherwise a StepRefused naming what was tried. */
export async function must(what: string, pending: Promise<ApiAnswer>): Promise<ApiAnswer> {
  const answer = await pending;
  if (answer.status >= 400) throw new StepRefused(what, answer);
  return answer;
}
