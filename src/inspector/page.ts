// The inspector's one HTML page: the shell the browser app fills in, with an import map for its two small libraries.
import { createHash } from "node:crypto";
import { inspectorPath } from "./paths.js";

const importMap = JSON.stringify({
  imports: {
    preact: `${inspectorPath}/vendor/preact.mjs`,
    "preact/hooks": `${inspectorPath}/vendor/hooks.mjs`,
    htm: `${inspectorPath}/vendor/htm.mjs`,
  },
});

/** The page holds no data, so it needs no token; every read behind it does. */
export const pageHtml = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>voice-sandbox inspector</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${inspectorPath}/assets/inspector.css">
  <script type="importmap">${importMap}</script>
  <script type="module" src="${inspectorPath}/assets/app.js"></script>
</head>
<body>
  <noscript>The inspector needs JavaScript.</noscript>
  <div id="app"></div>
</body>
</html>
`;

const importMapHash = createHash("sha256").update(importMap).digest("base64");

/** Only this server's own files run and load: no inline script but the import map, nothing from elsewhere. */
export const pageSecurityHeaders = {
  "content-security-policy": [
    "default-src 'self'",
    `script-src 'self' 'sha256-${importMapHash}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};
