// A local listener for library users: the inspector and the sandbox's own routes on one port of this machine.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { createExpressMiddleware } from "../adapters/express.js";
import type { SandboxCore } from "../sandbox.js";
import { guardHost, hostPolicy, isLoopback } from "../server/exposure.js";
import { inspectorPath } from "./paths.js";
import { createInspector } from "./router.js";

export interface InspectorListenOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. Another address needs the sandbox's admin token, as nothing listens beyond loopback unprotected. */
  host?: string;
}

export interface RunningInspector {
  /** The inspector's address, e.g. `http://127.0.0.1:53211/__sandbox/ui`. */
  url: string;
  server: Server;
  /** Browsers reading the live feed now. */
  feedClients(): number;
  close(): Promise<void>;
}

/** Opens the inspector on a local port for a sandbox made with `createSandbox()`; the UI drives it through its admin API. */
export async function startInspector(
  sandbox: SandboxCore,
  options: InspectorListenOptions = {},
): Promise<RunningInspector> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host) && !sandbox.settings.adminToken) {
    throw new Error(
      `the inspector listens on ${host} only with an admin token: createSandbox({ adminToken }) (loopback needs none)`,
    );
  }
  // As the standalone server does: answers only to Host names a DNS-rebinding page cannot use.
  const policy = hostPolicy(host);
  const inspector = createInspector(sandbox, { guard: (handle) => guardHost(handle, policy) });
  const app = express();
  app.disable("x-powered-by");
  app.use(inspector.router);
  app.use(createExpressMiddleware(guardHost(sandbox.handle, policy)));
  app.get("/", (_req, res) => res.redirect(inspectorPath));
  const server = createServer(app);
  server.on("upgrade", (req, socket, head) => {
    if (!inspector.sockets.upgrade(req, socket, head))
      socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${inspectorPath}`,
    server,
    feedClients: () => inspector.feed.clients,
    close: () =>
      new Promise<void>((resolve) => {
        inspector.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
