// The MSW door: one catch-all handler per base URL; the sandbox's own route table does the dispatch. msw loads on the first call.
import type { HttpHandler } from "msw";
import type { Handle } from "../http/handle.js";
import { fromFetchRequest, toFetchResponse } from "./fetch.js";
import { loadMsw } from "./load-msw.js";

export { isSandboxWebhook } from "../webhooks/own-requests.js";
export { type FailOnUnhandled, failOnUnhandled } from "./msw-listen-options.js";

/** Base URL the MSW door answers on when none is given. */
export const defaultBaseUrl = "https://api.voice-sandbox.test";

export function createMswHandlers(
  handle: Handle,
  baseUrls: string | string[] = defaultBaseUrl,
): HttpHandler[] {
  const bases = (Array.isArray(baseUrls) ? baseUrls : [baseUrls]).map((url) => url.replace(/\/+$/, ""));
  const { http } = loadMsw();
  return bases.map((base) =>
    http.all(`${base}/*`, async ({ request }) =>
      toFetchResponse(await handle(await fromFetchRequest(request))),
    ),
  );
}
