// The interactive API reference at /__sandbox/docs: Swagger UI served from the package, so it works offline.
import express, { type Router } from "express";
import swaggerUiDist from "swagger-ui-dist";

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
  router.use(
    docsPath,
    express.static(swaggerUiDist.getAbsoluteFSPath(), { index: false, fallthrough: true }),
  );
  return router;
}
