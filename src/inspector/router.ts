// Serves the inspector: its page, its files (shipped in the package), its reads and its live feed.
import { createRequire } from "node:module";
import express, { type Router } from "express";
import { readBody, toSandboxRequest, writeResponse } from "../adapters/node.js";
import type { Handle } from "../http/handle.js";
import { renderError } from "../http/render-error.js";
import type { SandboxResponse } from "../http/types.js";
import { codeFile } from "../package-files.js";
import type { SandboxCore } from "../sandbox.js";
import { checkAdmin } from "./access.js";
import { createInspectorApi } from "./api.js";
import { type ChangeFeed, createChangeFeed } from "./feed.js";
import { pageHtml, pageSecurityHeaders } from "./page.js";
import { inspectorApiPath, inspectorFeedPath, inspectorPath } from "./paths.js";
import { createInspectorSockets, type InspectorSockets } from "./sockets.js";

const require = createRequire(import.meta.url);
/** The browser code: src/inspector/client in the source tree, copied to dist/inspector/client by the build. */
const clientFolder = codeFile("inspector", "client");
/** A Map, not an object: a request for `constructor` or `__proto__` must find nothing. */
const vendorFiles = new Map<string, string>([
  ["preact.mjs", require.resolve("preact")],
  ["hooks.mjs", require.resolve("preact/hooks")],
  ["htm.mjs", require.resolve("htm").replace(/htm\.js$/, "htm.mjs")],
]);

export interface Inspector {
  router: Router;
  feed: ChangeFeed;
  /** The inspector's WebSockets (a call's audio, a held phone): give them the server's `upgrade` events (they take those under the inspector's API). */
  sockets: InspectorSockets;
  /** Ends the live feeds (a server's close waits for open connections otherwise). */
  close(): void;
}

export interface InspectorOptions {
  /** Wraps the inspector's reads and feed check as the server wraps the admin API (e.g. its Host check). */
  guard?: (handle: Handle) => Handle;
}

const feedOpen: SandboxResponse = { status: 200, headers: {}, body: "" };

export function createInspector(sandbox: SandboxCore, options: InspectorOptions = {}): Inspector {
  const guard = options.guard ?? ((handle: Handle) => handle);
  const router = express.Router();
  const api = guard(createInspectorApi(sandbox));
  const feed = createChangeFeed(sandbox);
  // The feed's admission on plain values, so it passes the same guard and checks as every read.
  const admitFeed = guard(async (request) => {
    try {
      checkAdmin(sandbox, request.headers.authorization, request.path);
      return feedOpen;
    } catch (error) {
      return renderError("admin", error);
    }
  });

  router.get([inspectorPath, `${inspectorPath}/`], (_req, res) => {
    res
      .set({ ...pageSecurityHeaders, "cache-control": "no-store" })
      .type("html")
      .send(pageHtml);
  });
  router.use(`${inspectorPath}/assets`, express.static(clientFolder, { index: false, fallthrough: false }));
  router.get(`${inspectorPath}/vendor/:file`, (req, res) => {
    const file = vendorFiles.get(req.params.file);
    if (!file) res.status(404).end();
    else res.type("text/javascript").sendFile(file);
  });
  router.get(inspectorFeedPath, async (req, res) => {
    const admission = await admitFeed(toSandboxRequest(req, "", false, req.originalUrl));
    if (admission === feedOpen) feed.attach(req, res);
    else writeResponse(res, admission);
  });
  router.use(inspectorApiPath, async (req, res) => {
    const { body, tooLarge } = await readBody(req);
    writeResponse(res, await api(toSandboxRequest(req, body, tooLarge, req.originalUrl)));
  });
  const sockets = createInspectorSockets(sandbox, guard);
  return {
    router,
    feed,
    sockets,
    close: () => {
      feed.close();
      sockets.close();
    },
  };
}
