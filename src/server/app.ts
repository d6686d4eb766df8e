// The Express app for everything off the API's hot path: landing page, API reference and inspector; loaded on its first request.
import express from "express";
import { createExpressMiddleware } from "../adapters/express.js";
import type { Handle } from "../http/handle.js";
import { buildOpenApiDocument } from "../http/openapi-document.js";
import { routes } from "../http/routes.js";
import { createInspector, type Inspector, inspectorPath } from "../inspector/index.js";
import type { SandboxCore } from "../sandbox.js";
import { createDocsRouter, docsPath } from "./docs-page.js";

export { createInspector, type Inspector };

/** The Express app for everything off the hot path: landing page and API reference. */
export function createApp(
  sandbox: SandboxCore,
  handle: Handle = sandbox.handle,
  inspector: Inspector = createInspector(sandbox),
) {
  const app = express();
  app.disable("x-powered-by");
  app.use(createDocsRouter({ document: () => buildOpenApiDocument(routes) }));
  app.use(inspector.router);
  app.use(createExpressMiddleware(handle));
  const lines = [
    `voice-sandbox ${sandbox.settings.version}`,
    "",
    "Account API:  /2010-04-01/Accounts/{AccountSid}/...",
    "Carrier API:  /carrier/v1/...",
    "Admin API:    /__sandbox/health, /__sandbox/state, /__sandbox/reset, /__sandbox/requests, /__sandbox/faults",
    `Reference:    ${docsPath} (OpenAPI document at /__sandbox/openapi.json)`,
    `Inspector:    ${inspectorPath} (calls, messages, webhooks, requests, a phone, controls)`,
  ];
  // A browser gets the same lines with the reference and the inspector as links; anything else, plain text.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>voice-sandbox</title></head><body><pre>${lines
    .join("\n")
    .replace(docsPath, `<a href="${docsPath}">${docsPath}</a>`)
    .replace(`${inspectorPath} `, `<a href="${inspectorPath}">${inspectorPath}</a> `)}</pre></body></html>`;
  app.get("/", (_req, res) => {
    res.format({
      "text/plain": () => res.send(lines.join("\n")),
      "text/html": () => res.send(html),
    });
  });
  // Everything else answers JSON like the rest of the server, not Express's HTML page.
  app.use((req, res) => {
    res.status(404).json({
      status: 404,
      message: `No route for ${req.method} ${req.path}: the sandbox answers under /2010-04-01/, /carrier/v1/ and /__sandbox/ (reference at ${docsPath})`,
    });
  });
  return app;
}
