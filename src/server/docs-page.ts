// The interactive API reference at /__sandbox/docs: Swagger UI served from the package, so it works offline.
import { createRequire } from "node:module";
import { dirname } from "node:path";
import express, { type Router } from "express";

// Only the assets' folder is needed; importing the package itself would load its 1 MB bundle at start.
const assetsFolder = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

export const docsPath = "/__sandbox/docs";

const page = (specUrl: string) => `<!doctype html>
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

/** Express router for the docs page and Swagger UI's assets. */
export function createDocsRouter(specUrl = "/__sandbox/openapi.json"): Router {
  const router = express.Router();
  const html = page(specUrl);
  router.get([docsPath, `${docsPath}/`, `${docsPath}/index.html`], (_req, res) => {
    res.type("html").send(html);
  });
  // The package's own index.html and initializer point at a demo API; only the assets are served.
  router.use(docsPath, express.static(assetsFolder, { index: false, fallthrough: true }));
  return router;
}
