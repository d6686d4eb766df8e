// Listen options that make an unmatched request fail the test under msw 2 and msw 3 alike, except the sandbox's
// own deliveries to the customer's app, which go on to the network (no msw import: library mode stays light).
import { isSandboxWebhook } from "../webhooks/own-requests.js";
import { loadMsw } from "./load-msw.js";

/**
 * What msw 2 hands an `onUnhandledRequest` callback besides the request. In its early releases `error()`
 * prints and throws (failing the request); in later ones, as in msw 3, it only prints, and may return a promise.
 */
interface UnhandledRequestPrint {
  warning(): void;
  error(): void;
}

/** What msw 3 hands an `onUnhandledFrame` callback: an HTTP frame's `data` holds the request. */
interface UnhandledFrameArgs {
  frame: { readonly protocol: string; readonly data: unknown };
  defaults: { warn(): void; error(): void };
}

/**
 * `server.listen(failOnUnhandled)`: msw 2 reads `onUnhandledRequest`, msw 3 renamed it `onUnhandledFrame`;
 * each ignores the other's key, so one value serves both. Typed as a named type (not a fresh literal) so it
 * is assignable to either version's listen options.
 */
export interface FailOnUnhandled {
  readonly onUnhandledRequest: (request: Request, print: UnhandledRequestPrint) => void;
  readonly onUnhandledFrame: (args: UnhandledFrameArgs) => Promise<void>;
}

/** Left alone by msw's own "error" strategy (a page's images and scripts), so here too. */
const isCommonAsset = (request: Request) => loadMsw().isCommonAssetRequest(request);

/** A WebSocket handshake as msw 2 shows it to a request callback. */
const isUpgrade = (request: Request) => request.headers.get("upgrade")?.toLowerCase() === "websocket";

const strategyError = (option: string) =>
  new Error(`[MSW] Cannot bypass a request when using the "error" strategy for the "${option}" option.`);

/**
 * Once msw's message is printed, the rejection that fails the request as "error" would: a network error for
 * a request (msw fails the fetch with it), an error for a WebSocket connection.
 */
async function refuse(printed: unknown, websocket: boolean, option: string): Promise<never> {
  await printed;
  throw websocket ? strategyError(option) : Response.error();
}

/**
 * msw's "error" strategy, but a webhook or markup fetch the sandbox is sending that no handler answered goes
 * through to the network, so the customer's app can run as a real local server. A handler of the test's own
 * for the app's URL still answers it first.
 */
export const failOnUnhandled: FailOnUnhandled = Object.freeze({
  onUnhandledRequest(request: Request, print: UnhandledRequestPrint) {
    if (isSandboxWebhook(request) || isCommonAsset(request)) return;
    // Called synchronously: where `error()` throws (early msw 2 releases), that alone fails the request.
    const printed: unknown = print.error();
    return refuse(printed, isUpgrade(request), "onUnhandledRequest");
  },
  onUnhandledFrame({ frame, defaults }: UnhandledFrameArgs) {
    const request = (frame.data as { request?: unknown }).request;
    if (request instanceof Request && (isSandboxWebhook(request) || isCommonAsset(request)))
      return Promise.resolve();
    return refuse(defaults.error(), !(request instanceof Request), "onUnhandledFrame");
  },
});
