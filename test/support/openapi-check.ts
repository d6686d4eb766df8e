// Checks every response a test sees against the generated OpenAPI document: a mismatch fails the test.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Handle } from "../../src/http/handle.js";
import { buildOpenApiDocument, openApiPath } from "../../src/http/openapi-document.js";
import type { AnyRoute } from "../../src/http/route.js";
import { createRouter } from "../../src/http/router.js";
import { routes } from "../../src/http/routes.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const document = buildOpenApiDocument(routes);
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(document as unknown as object, "openapi");
const router = createRouter(routes);
const validators = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

type Responses = Record<string, Record<string, unknown>>;

/** The document's entry for one status of one route: the status itself, or `default` for errors. */
function responseFor(
  route: AnyRoute,
  status: number,
): { key: string; entry: Record<string, unknown> } | null {
  const path = openApiPath(route.path);
  const responses: Responses = document.paths[path]?.[route.method.toLowerCase()]?.responses ?? {};
  const key = String(status) in responses ? String(status) : status >= 400 ? "default" : undefined;
  return key ? { key, entry: responses[key]! } : null;
}

/** A validator for one schema inside the document, compiled once. */
function validatorAt(...parts: string[]): ValidateFunction {
  const ref = `openapi#/${pointer(...parts)}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

const problemsOf = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) => `${e.instancePath || "(body)"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`,
    );

/** A media type without its parameters (`application/json; charset=utf-8` is `application/json`). */
const essence = (contentType: string | undefined) => contentType?.split(";")[0]?.trim().toLowerCase() ?? "";

/**
 * One response checked against the document; returns a message for each mismatch. A redirect's `Location`
 * is checked against its header schema, a binary body's `content-type` against the listed media type, and a
 * JSON body against its schema.
 */
export function checkResponse(
  method: string,
  path: string,
  status: number,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): string | null {
  const upper = method.toUpperCase();
  const match = router.match(upper === "HEAD" ? "GET" : upper, path);
  if (match.kind !== "found") return null;
  const { route } = match;
  const where = `${upper} ${path} answered ${status}`;
  const found = responseFor(route, status);
  if (!found)
    return `${where}, a status the OpenAPI document does not list for ${route.method} ${route.path}`;
  const { key, entry } = found;
  const operation = ["paths", openApiPath(route.path), route.method.toLowerCase(), "responses", key];
  const header = (name: string) =>
    Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

  const declaredHeaders = (entry.headers ?? {}) as Record<string, { required?: boolean; schema?: unknown }>;
  for (const [name, declared] of Object.entries(declaredHeaders)) {
    const value = header(name);
    if (value === undefined) {
      if (declared.required) return `${where} without the ${name} header the OpenAPI document requires`;
      continue;
    }
    if (!declared.schema) continue;
    const validate = validatorAt(...operation, "headers", name, "schema");
    if (!validate(value))
      return `${where} with a ${name} header that does not match:\n  ${problemsOf(validate).join("\n  ")}`;
  }

  const content = entry.content as Record<string, { schema?: unknown }> | undefined;
  if (!content) {
    const length = typeof body === "string" ? body.length : body.byteLength;
    return length === 0 ? null : `${where} with a body where the OpenAPI document lists none`;
  }
  const mediaType = Object.keys(content)[0]!;
  const sent = essence(header("content-type"));
  if (!content[mediaType]?.schema) {
    // A binary body (audio, say): described by its media type alone.
    return sent === essence(mediaType)
      ? null
      : `${where} as ${sent || "no content type"}, not the ${mediaType} the OpenAPI document lists`;
  }
  if (upper === "HEAD") return null;
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `${where} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const validate = validatorAt(...operation, "content", mediaType, "schema");
  if (validate(json)) return null;
  return `${where}, which does not match the OpenAPI document:\n  ${problemsOf(validate).join("\n  ")}`;
}

/** Wraps the core so every response through a door is checked; mismatches land in `failures`. */
export function checkedHandle(handle: Handle, failures: string[]): Handle {
  return async (request) => {
    let response = await handle(request);
    if (response.stream) {
      // A streamed answer is checked whole, then handed on as one body.
      const pieces: Buffer[] = [];
      for await (const piece of response.stream) pieces.push(Buffer.from(piece));
      const { stream: _read, ...rest } = response;
      response = { ...rest, body: Buffer.concat(pieces).toString("utf8") };
    }
    const failure = checkResponse(
      request.method,
      request.path,
      response.status,
      response.body,
      response.headers,
    );
    if (failure) failures.push(failure);
    return response;
  };
}
