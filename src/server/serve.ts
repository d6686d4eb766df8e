// The standalone server: node:http sends the sandbox's prefixes straight to the core; the rest goes to Express.
import { createServer, type Server } from "node:http";
import express from "express";
import { createExpressMiddleware, isSandboxPath } from "../adapters/express.js";
import { createNodeListener } from "../adapters/node.js";
import { createSandboxCore, type SandboxCore, type SandboxOptions } from "../sandbox.js";

export interface ServeOptions extends SandboxOptions {
  port?: number;
  host?: string;
}

export interface RunningServer {
  server: Server;
  sandbox: SandboxCore;
  /** `http://host:port` actually bound (port 0 picks a free one). */
  url: string;
  close(): Promise<void>;
}

/** The Express app for everything off the hot path (landing page, later docs and dashboard). */
export function createApp(sandbox: SandboxCore) {
  const app = express();
  app.disable("x-powered-by");
  app.use(createExpressMiddleware(sandbox.handle));
  app.get("/", (_req, res) => {
    res
      .type("text/plain")
      .send(
        [
          `voice-sandbox ${sandbox.settings.version}`,
          "",
          "Account API:  /2010-04-01/Accounts/{AccountSid}/...",
          "Carrier API:  /carrier/v1/...",
          "Admin API:    /__sandbox/health, /__sandbox/state, /__sandbox/reset",
        ].join("\n"),
      );
  });
  return app;
}

export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const sandbox = createSandboxCore({ clock: "real", ...options });
  const app = createApp(sandbox);
  const fast = createNodeListener(sandbox.handle);
  // Measured: Express routing costs about three quarters of a bare server's throughput, so API paths skip it.
  const server = createServer((req, res) => {
    if (isSandboxPath(req.url)) void fast(req, res);
    else app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4010, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 4010);
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    sandbox,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.clock.dispose();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
