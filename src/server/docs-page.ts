// The API reference at /__sandbox/docs: Swagger UI when the optional swagger-ui-dist is installed, else a plain page.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import express, { type Router } from "express";
import type { OpenApiDocument } from "../http/openapi-document.js";
import { docsPath, specPath } from "./docs-paths.js";
import { renderReferencePage } from "./reference-page.js";

export { docsPath, specPath };

/**
 * swagger-ui-dist is an optional peer dependency (its 12 MB and its install-time analytics stay out of a
 * library user's tree); the Docker image installs it. Only the assets' folder is needed: importing the
 * package would load its 1 MB bundle at start.
 */
export function findSwaggerUiAssets(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  } catch {
    return undefined;
  }
}

const swaggerPage = (specUrl: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>voice-sandbox API reference</title>
  <link rel="stylesheet" href="${docsPath}/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="${docsPath}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: "#reference", deepLinking: true, persistAuthorization: true });
  </script>
</body>
</html>
`;

export interface DocsRouterOptions {
  /** The document the plain page lists, built on the first request for it. */
  document: () => OpenApiDocument;
  /** Swagger UI's assets; `null` serves the plain page even where swagger-ui-dist is installed. */
  swaggerUiAssets?: string | null;
}

/** Express router for the docs page (and Swagger UI's assets when they are there). */
export function createDocsRouter(options: DocsRouterOptions): Router {
  const router = express.Router();
  const assets = options.swaggerUiAssets === undefined ? findSwaggerUiAssets() : options.swaggerUiAssets;
  let html: string | undefined;
  const page = () => {
    html ??= assets ? swaggerPage(specPath) : renderReferencePage(options.document(), specPath);
    return html;
  };
  router.get([docsPath, `${docsPath}/`, `${docsPath}/index.html`], (_req, res) => {
    res.type("html").send(page());
  });
  // The package's own index.html and initializer point at a demo API; only the assets are served.
  if (assets) router.use(docsPath, express.static(assets, { index: false, fallthrough: true }));
  return router;
}
