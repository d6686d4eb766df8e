// A plain HTML reference of every operation, from the OpenAPI document, for servers without Swagger UI.
import type { OpenApiDocument } from "../http/openapi-document.js";

const htmlText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Parameter {
  name?: string;
  in?: string;
  required?: boolean;
  description?: string;
}

function parameterList(parameters: readonly Record<string, unknown>[] | undefined): string {
  const items = (parameters ?? []).map((raw) => {
    const p = raw as Parameter;
    const description = p.description ? `: ${htmlText(p.description)}` : "";
    return `<li><code>${htmlText(String(p.name))}</code> (${htmlText(String(p.in))}${p.required ? ", required" : ""})${description}</li>`;
  });
  return items.length > 0 ? `<ul>${items.join("")}</ul>` : "";
}

/** One section per tag, one line per operation (method, path, summary, parameters, response codes). */
export function renderReferencePage(document: OpenApiDocument, specUrl: string): string {
  const sections = document.tags.map((tag) => {
    const operations: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.tags.includes(tag.name)) continue;
        const codes = Object.keys(operation.responses).join(", ");
        operations.push(
          `<details><summary><code>${method.toUpperCase()} ${htmlText(path)}</code> ${htmlText(operation.summary)}</summary>` +
            `${parameterList(operation.parameters)}<p>Answers: ${htmlText(codes)}${operation.requestBody ? "; takes a request body (see the document)" : ""}</p></details>`,
        );
      }
    }
    return `<section><h2>${htmlText(tag.name)}</h2><p>${htmlText(tag.description)}</p>${operations.join("\n")}</section>`;
  });
  const info = document.info as { title?: string; version?: string };
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>voice-sandbox API reference</title>
  <style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}details{margin:.25rem 0}code{font-size:.95em}</style>
</head>
<body>
  <main>
  <h1>${htmlText(info.title ?? "API reference")} ${htmlText(info.version ?? "")}</h1>
  <p>Every operation the sandbox serves. The full description, with request and response schemas, is the
  <a href="${htmlText(specUrl)}">OpenAPI document</a>; install <code>swagger-ui-dist</code> beside voice-sandbox
  for the interactive Swagger UI here.</p>
  ${sections.join("\n")}
  </main>
</body>
</html>
`;
}
