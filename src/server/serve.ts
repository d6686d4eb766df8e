// The standalone server: node:http sends the sandbox's prefixes straight to the core; the rest goes to Express.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isSandboxPath } from "../adapters/express.js";
import { createNodeListener } from "../adapters/node.js";
import { waitRealTime } from "../engine/time/clock.js";
import { runInSlices } from "../http/admin-api/state-stream.js";
import type { Handle } from "../http/handle.js";
import { inspectorPath } from "../inspector/paths.js";
import { createSandboxCore, type SandboxCore, type SandboxOptions } from "../sandbox.js";
import type { Inspector } from "./app.js";
import { docsPath } from "./docs-paths.js";
import { logAlerts, loggingWebhookFetch, logStatusChanges } from "./event-log.js";
import { checkExposure, guardHost, hostPolicy } from "./exposure.js";
import { type FsyncPolicy, openDataDir, type Persistence } from "./persistence/data-dir.js";
import { logPageRequest, logRequests } from "./request-log.js";

/** The few logger methods the server uses (pino's shape). */
export interface ServerLogger {
  debug(data: object, message: string): void;
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  /** Failures the server recovers from by itself (a data directory that refuses writes); warn when absent. */
  error?(data: object, message: string): void;
  /** pino's: whether lines at `level` are written (when absent, every level is taken as on). */
  isLevelEnabled?(level: string): boolean;
}

export interface ServeOptions extends SandboxOptions {
  port?: number;
  host?: string;
  /** Keep the state here: replayed at start, every acknowledged change written before its response. */
  dataDir?: string;
  /** With `dataDir`: `periodic` (default: fdatasync'd within a second of its response) or `always` (before it). */
  fsync?: FsyncPolicy;
  /** Compact the change journal into a snapshot after this many records (default 1000). */
  snapshotEvery?: number;
  /** How long a shutdown waits for requests and webhook deliveries in flight. Default 5000 ms. */
  shutdownGraceMs?: number;
  /**
   * Listen beyond loopback with no admin token anyway. Without it, a `host` other than loopback needs
   * `adminToken`, or serve() throws ExposureError: the admin API reads every credential and resets state.
   */
  insecureAdmin?: boolean;
  /**
   * Host names the server answers besides loopback names, IP addresses, the bound host and the public URL's
   * host (a Compose service name, a tunnel's name); other names are refused, against DNS rebinding.
   */
  allowedHosts?: readonly string[];
  logger?: ServerLogger;
}

export interface RunningServer {
  server: Server;
  sandbox: SandboxCore;
  /** `http://host:port` actually bound (port 0 picks a free one). */
  url: string;
  persistence: Persistence | undefined;
  /**
   * Graceful stop: stop accepting, let requests and webhook deliveries in flight finish (bounded by
   * `shutdownGraceMs`), stop the clock, and flush the change journal.
   */
  close(): Promise<void>;
}

const silent: ServerLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  isLevelEnabled: () => false,
};

/** The steps of `steps` until `open` says no more. */
function* whileOpen(steps: Iterable<unknown>, open: () => boolean): Generator<unknown> {
  for (const step of steps) {
    if (!open()) return;
    yield step;
  }
}

export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? silent;
  const host = options.host ?? "127.0.0.1";
  checkExposure({ host, adminToken: options.adminToken, insecureAdmin: options.insecureAdmin });
  const publicUrl = typeof options.publicBaseUrl === "string" ? options.publicBaseUrl : undefined;
  const policy = hostPolicy(host, { publicUrl, allowedHosts: options.allowedHosts });
  // RecordingUrl and the like must point at this server: the address it binds, unless told otherwise.
  let boundUrl = "http://127.0.0.1:4010";
  // Webhook requests are logged with their outcome, then sent as the global fetch would.
  const webhooks = {
    ...options.webhooks,
    fetch: loggingWebhookFetch(logger, options.webhooks?.fetch ?? ((input, init) => fetch(input, init))),
  };
  const sandbox = createSandboxCore({ clock: "real", publicBaseUrl: () => boundUrl, ...options, webhooks });
  logStatusChanges(sandbox.store, logger);
  logAlerts(sandbox.store, logger);
  // The journal replays as it was written, drops included: the bound comes back once it is in.
  sandbox.retention.pause();
  const persistence = options.dataDir
    ? await openDataDir(sandbox, options.dataDir, {
        ...(options.snapshotEvery !== undefined ? { snapshotEvery: options.snapshotEvery } : {}),
        ...(options.fsync !== undefined ? { fsync: options.fsync } : {}),
        warn: (message) => logger.warn({ dataDir: options.dataDir }, message),
        log: {
          error: (details, message) => (logger.error ?? logger.warn).call(logger, details, message),
          info: (details, message) => logger.info(details, message),
        },
      })
    : undefined;
  sandbox.retention.resume();
  let closing: Promise<void> | undefined;
  // A bound lowered since the state was written: the excess goes between requests once the indexes are in.
  const sweep = (persistence?.indexesBuilt ?? Promise.resolve()).then(() =>
    runInSlices(whileOpen(sandbox.retention.sweep(256), () => closing === undefined)).catch(
      (error: unknown) =>
        logger.warn({ error: (error as Error).message }, "dropping records beyond --retain failed"),
    ),
  );
  if (persistence) {
    logger.info(
      { dataDir: options.dataDir, ...persistence.replayed },
      `state loaded from ${options.dataDir} (${persistence.replayed.records} journal records replayed)`,
    );
  }
  const core = persistence ? persistence.wrap(sandbox.handle) : sandbox.handle;
  const guard = (inner: Handle) => guardHost(inner, policy);
  // The API paths log their own lines; the pages (Express) log theirs when the response is done.
  const handle = guard(core);
  // Express, the inspector and the API reference load on the first request that needs them (a browser's),
  // not at start: measured, loading them was about a fifth of the server's cold start (docs/decisions.md).
  let inspector: Inspector | undefined;
  let app: Promise<(req: IncomingMessage, res: ServerResponse) => void> | undefined;
  const loadApp = () => {
    app ??= import("./app.js").then(({ createApp, createInspector }) => {
      inspector = createInspector(sandbox, { guard });
      return createApp(sandbox, handle, inspector);
    });
    return app;
  };
  const fast = createNodeListener(logRequests(handle, logger));
  // Measured: Express routing costs about three quarters of a bare server's throughput, so API paths skip it.
  const server = createServer((req, res) => {
    if (isSandboxPath(req.url) && !req.url?.startsWith(docsPath) && !req.url?.startsWith(inspectorPath)) {
      void fast(req, res);
    } else {
      logPageRequest(req, res, logger);
      loadApp().then(
        (express) => express(req, res),
        (error: unknown) =>
          res
            .writeHead(500, { "content-type": "application/json; charset=utf-8" })
            .end(
              JSON.stringify({ status: 500, message: `cannot load the pages: ${(error as Error).message}` }),
            ),
      );
    }
  });
  server.keepAliveTimeout = 65_000;
  // The inspector's WebSockets (a call's audio, a held browser phone); nothing else upgrades.
  server.on("upgrade", (req, socket, head) => {
    const refuse = () => socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n");
    if (!req.url?.startsWith(inspectorPath)) refuse();
    else
      loadApp().then(
        () => inspector?.sockets.upgrade(req, socket, head) || refuse(),
        () => refuse(),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4010, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 4010);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  // A wildcard address is not one a client can call back; name the loopback address instead.
  const reachableHost = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : shownHost;
  boundUrl = `http://${reachableHost}:${port}`;
  const grace = options.shutdownGraceMs ?? 5000;

  const close = async () => {
    const deadline = waitRealTime(grace, { unref: true });
    // Stop accepting; idle keep-alive connections go now, busy ones when their request is answered.
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    // Live feeds never end by themselves.
    inspector?.close();
    server.closeIdleConnections();
    await Promise.race([stopped, deadline]);
    server.closeAllConnections();
    const webhooks = (sandbox as Partial<Pick<SandboxCore, "webhooks">>).webhooks;
    if (webhooks?.busy()) {
      logger.info({}, "waiting for webhook deliveries in flight");
      await Promise.race([webhooks.idle(), deadline]);
    }
    sandbox.clock.dispose();
    await sweep;
    await persistence?.close();
  };

  return {
    server,
    sandbox,
    url: `http://${shownHost}:${port}`,
    persistence,
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}
