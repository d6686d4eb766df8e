// The scenario's handler host: inline markup served in-process, other paths sent to --target, everything else recorded.
import type { ReceivedWebhook, ReceiverAnswer } from "../webhooks/index.js";
import { fillApps } from "./apps.js";
import { fillCallSids } from "./names.js";
import type { HandlerResponse } from "./schema/setup.js";
import type { Scenario } from "./schema.js";

/** Where inline handlers live: a host no one else answers, served by an in-process receiver. */
export const scenarioBaseUrl = "https://app.scenario.test";

export interface HandlerHost {
  /** An absolute URL for a handler reference (a path is served inline, or by the target). */
  resolve(url: string): string;
  /** The path (and query) of a URL on the inline base or the target, for matching expectations; others as-is. */
  relative(url: string): string;
  /** Inline markup for a number's voice or sms: the path it is served at. */
  inline(number: string, kind: "voice" | "sms", markup: string): string;
  /** Answers a request to the inline base (`{apps.name}` in markup filled in). */
  answer(request: ReceivedWebhook): ReceiverAnswer;
  /** Inline markup with `{apps.name}` and `{calls.name}` filled in (place_call's twiml). */
  fill(markup: string): string;
}

const scalarEqual = (expected: unknown, actual: string | undefined) =>
  expected === null ? actual === undefined : actual !== undefined && String(expected) === actual;

function pick(responses: HandlerResponse[], params: Record<string, string>): HandlerResponse | undefined {
  return responses.find((r) =>
    Object.entries(r.when ?? {}).every(([name, value]) => scalarEqual(value, params[name])),
  );
}

export function createHandlerHost(
  scenario: Scenario,
  target: string | undefined,
  apps: ReadonlyMap<string, string> = new Map(),
  sidOf: (name: string) => string | undefined = () => undefined,
): HandlerHost {
  const handlers = new Map(Object.entries(scenario.handlers));
  // `{apps.name}` is known from the start; `{calls.name}` is read when the markup is served.
  const fill = (markup: string) => fillCallSids(fillApps(markup, apps), sidOf);
  const targetBase = target?.replace(/\/+$/, "");
  return {
    resolve(url) {
      if (!url.startsWith("/")) return url;
      const path = url.split(/[?#]/)[0]!;
      if (handlers.has(path) || !targetBase) return `${scenarioBaseUrl}${url}`;
      return `${targetBase}${url}`;
    },
    relative(url) {
      for (const base of [scenarioBaseUrl, targetBase]) {
        if (base && (url === base || url.startsWith(`${base}/`))) return url.slice(base.length) || "/";
      }
      return url;
    },
    fill,
    inline(number, kind, markup) {
      const path = `/numbers/${number.replace(/^\+/, "")}/${kind}`;
      handlers.set(path, markup);
      return path;
    },
    answer(request) {
      const path = new URL(request.url).pathname;
      const handler = handlers.get(path);
      // Callbacks to paths with no handler are accepted and recorded, as a customer's app would.
      if (handler === undefined) return { status: 200, body: "" };
      if (typeof handler === "string")
        return { status: 200, headers: { "content-type": "text/xml" }, body: fill(handler) };
      const chosen = pick(handler, request.params);
      if (!chosen) {
        return {
          status: 404,
          headers: { "content-type": "text/plain" },
          body: `no answer of handler ${path} matches the request's parameters`,
        };
      }
      const isMarkup = chosen.markup !== undefined;
      return {
        status: chosen.status ?? 200,
        headers: { "content-type": chosen.content_type ?? (isMarkup ? "text/xml" : "text/plain") },
        body: chosen.markup !== undefined ? fill(chosen.markup) : (chosen.body ?? ""),
      };
    },
  };
}
