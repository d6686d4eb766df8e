// Checks every response a test sees against the generated OpenAPI document: a mismatch fails the test.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Handle } from "../../src/http/handle.js";
import { buildOpenApiDocument, openApiPath } from "../../src/http/openapi-document.js";
import type { AnyRoute } from "../../src/http/route.js";
import { createRouter } from "../../src/http/router.js";
import { routes } from "../../src/http/routes.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** Routes whose responses are not checked yet (method and path as in the route table), with why. */
export const uncheckedRoutes: Record<string, string> = {
  "GET /2010-04-01/Accounts/:AccountSid/Recordings/:RecordingSid":
    "without an extension it answers 302 to the media, a status the route does not declare",
};

const document = buildOpenApiDocument(routes);
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(document as unknown as object, "openapi");
const router = createRouter(routes);
const validators = new Map<string, ValidateFunction | null>();

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** The validator for one response of one route, or null when the document has no body schema for it. */
function validatorFor(route: AnyRoute, status: number): ValidateFunction | null | "undocumented" {
  const path = openApiPath(route.path);
  const method = route.method.toLowerCase();
  const responses = document.paths[path]?.[method]?.responses ?? {};
  const key = String(status) in responses ? String(status) : status >= 400 ? "default" : undefined;
  if (!key) return "undocumented";
  const cacheKey = `${method} ${path} ${key}`;
  if (!validators.has(cacheKey)) {
    const content = responses[key]?.content as Record<string, { schema?: unknown }> | undefined;
    const mediaType = content ? Object.keys(content)[0] : undefined;
    validators.set(
      cacheKey,
      mediaType
        ? ajv.compile({
            $ref: `openapi#/${pointer("paths", path, method, "responses", key, "content", mediaType, "schema")}`,
          })
        : null,
    );
  }
  return validators.get(cacheKey)!;
}

/** One response checked against the document; returns a message for each mismatch. */
export function checkResponse(
  method: string,
  path: string,
  status: number,
  body: string | Uint8Array,
): string | null {
  const upper = method.toUpperCase();
  const match = router.match(upper === "HEAD" ? "GET" : upper, path);
  if (match.kind !== "found") return null;
  const { route } = match;
  if (uncheckedRoutes[`${route.method} ${route.path}`] !== undefined) return null;
  const validate = validatorFor(route, status);
  const where = `${upper} ${path} answered ${status}`;
  if (validate === "undocumented")
    return `${where}, a status the OpenAPI document does not list for ${route.method} ${route.path}`;
  // Routes without a response schema are described loosely (media files, for one): nothing to check.
  if (validate === null || upper === "HEAD" || !route.response) return null;
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `${where} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  if (validate(json)) return null;
  const problems = (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) => `${e.instancePath || "(body)"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`,
    );
  return `${where}, which does not match the OpenAPI document:\n  ${problems.join("\n  ")}`;
}

/** Wraps the core so every response through a door is checked; mismatches land in `failures`. */
export function checkedHandle(handle: Handle, failures: string[]): Handle {
  return async (request) => {
    const response = await handle(request);
    const failure = checkResponse(request.method, request.path, response.status, response.body);
    if (failure) failures.push(failure);
    return response;
  };
}
