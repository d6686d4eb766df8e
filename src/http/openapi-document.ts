// The OpenAPI 3.1 document of every surface, generated from the route table and its zod schemas.

import { z } from "zod";
import { version as packageVersion } from "../version.js";
import type { AnyRoute } from "./route.js";
import type { Surface } from "./types.js";

/** Spec part 9: the OpenAPI description is at version 1.0.0, in the 3.1.0 format. */
export const openApiVersion = "3.1.0";
export const documentVersion = "1.0.0";

type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
  /** Routes or parts of routes zod cannot describe exactly; the test suite keeps this empty. */
  "x-loosely-described": string[];
}

export interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: Record<string, unknown>[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, Record<string, unknown>>;
}

const mediaTypes: Record<Surface, string> = {
  account: "application/json",
  carrier: "application/vnd.api+json",
  admin: "application/json",
};

const tagOf: Record<Surface, string> = { account: "Account API", carrier: "Carrier API", admin: "Admin API" };

/** `:Name` in the route table becomes `{Name}` in the document. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");

/** The operation id of a route: method plus the path's words, e.g. `postCarrierV1Accounts`. */
function operationIdOf(route: AnyRoute): string {
  const words = route.path
    .replace(/^\/2010-04-01/, "/Api")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return route.method.toLowerCase() + words.join("");
}

/** The formats JSON Schema 2020-12 defines; zod's other format names are dropped (their pattern stays). */
const standardFormats = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uuid",
  "uri-template",
  "json-pointer",
  "relative-json-pointer",
  "regex",
]);

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect). Named sub-schemas (`$defs`) move to
 * `components.schemas` so references resolve from the document root. Returns undefined when zod cannot
 * express the schema, so the caller can describe that part loosely.
 */
function toSchema(
  schema: z.ZodType,
  io: "input" | "output",
  components: Record<string, JsonSchema>,
): JsonSchema | undefined {
  let converted: JsonSchema;
  try {
    converted = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  } catch {
    return undefined;
  }
  const { $schema: _dialect, $defs, ...rest } = converted;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value)
          // zod names checks such as startsWith as formats; only JSON Schema's own formats stay.
          // (A property named `format` holds a schema, not a string, and stays.)
          .filter(
            ([key, inner]) => key !== "format" || typeof inner !== "string" || standardFormats.has(inner),
          )
          .map(([key, inner]) => [
            key,
            key === "$ref" && typeof inner === "string"
              ? inner.replace(/^#\/\$defs\//, "#/components/schemas/")
              : rewrite(inner),
          ]),
      );
    }
    return value;
  };
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    components[name] = rewrite(def) as JsonSchema;
  }
  return rewrite(rest) as JsonSchema;
}

/** Error bodies, one per surface, as `render-error.ts` writes them. */
const errorSchemas: Record<string, JsonSchema> = {
  AccountError: {
    type: "object",
    description: "Twilio's error body",
    properties: {
      // Every code is one of Twilio's (https://www.twilio.com/docs/api/errors), never a bare HTTP status.
      code: { type: "integer", minimum: 10000 },
      message: { type: "string" },
      more_info: { type: "string" },
      status: { type: "integer" },
      detail: { type: "string" },
    },
    required: ["code", "message", "more_info", "status"],
  },
  CarrierErrors: {
    type: "object",
    description: "A JSON:API 1.1 error document",
    properties: {
      jsonapi: { type: "object", properties: { version: { type: "string" } } },
      errors: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          properties: {
            status: { type: "string" },
            code: { type: "string" },
            title: { type: "string" },
            detail: { type: "string" },
            source: {
              type: "object",
              properties: { pointer: { type: "string" }, parameter: { type: "string" } },
            },
          },
          required: ["status", "title", "detail"],
        },
      },
    },
    required: ["errors"],
  },
  AdminError: {
    type: "object",
    properties: {
      error: {
        type: "object",
        properties: {
          status: { type: "integer" },
          title: { type: "string" },
          message: { type: "string" },
          pointer: { type: "string" },
          parameter: { type: "string" },
        },
        required: ["status", "title", "message"],
      },
    },
    required: ["error"],
  },
};
const errorSchemaOf: Record<Surface, string> = {
  account: "AccountError",
  carrier: "CarrierErrors",
  admin: "AdminError",
};

const securitySchemes: Record<string, JsonSchema> = {
  accountBasic: {
    type: "http",
    scheme: "basic",
    description:
      "Account sid as user name and auth token as password. An API key works too as `SK...:<key>` (what the twilio package sends).",
  },
  apiKey: {
    type: "http",
    scheme: "bearer",
    description: "A scoped API key. The requirement lists the scope the operation needs.",
  },
  carrierToken: {
    type: "http",
    scheme: "bearer",
    description: "The carrier API key (scope `carrier_api`).",
  },
  testCredentials: {
    type: "http",
    scheme: "basic",
    description:
      "Twilio test credentials: the account's test account sid as user name and its test auth token as password (both from `GET /__sandbox/accounts/{AccountSid}/credentials`). Only the operations that list this scheme accept them; Twilio's magic numbers decide the answer, and nothing is stored, charged or called back.",
  },
  adminToken: {
    type: "http",
    scheme: "bearer",
    description: "The admin token, only when the sandbox runs with `--admin-token`.",
  },
};

function securityOf(route: AnyRoute): Record<string, string[]>[] {
  const auth = route.auth;
  if (auth.kind === "none") return [];
  if (auth.kind === "carrier") return [{ carrierToken: ["carrier_api"] }];
  if (auth.kind === "admin") return [{ adminToken: [] }, {}];
  // Twilio's test credentials work only where the route answers them (the three creates).
  const test = route.testCredentials ? [{ testCredentials: [] }] : [];
  if (auth.carrier === "only") return [{ carrierToken: ["carrier_api"] }, ...test];
  return [
    { accountBasic: [] },
    ...(auth.scope === null ? [] : [{ apiKey: [auth.scope] }]),
    ...(auth.carrier === "allowed" ? [{ carrierToken: ["carrier_api"] }] : []),
    ...test,
    // Recording media is public unless the account turns media auth on.
    ...(auth.publicMedia ? [{}] : []),
  ];
}

function parametersOf(
  route: AnyRoute,
  components: Record<string, JsonSchema>,
  loose: Set<string>,
): Record<string, unknown>[] {
  const names = [...route.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  const parameters: Record<string, unknown>[] = names.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (route.query) {
    const schema = toSchema(route.query, "input", components);
    const properties = schema?.properties as Record<string, JsonSchema> | undefined;
    if (!properties) loose.add(`${route.method} ${route.path} (query)`);
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries(properties ?? {})) {
      const { description, ...rest } = property;
      parameters.push({
        name,
        in: "query",
        required: required.has(name),
        schema: rest,
        ...(typeof description === "string" ? { description } : {}),
        // filter[...] names hold brackets, which the query string carries as they are.
        ...(name.includes("[") ? { allowReserved: true } : {}),
      });
    }
  }
  return parameters;
}

function requestBodyOf(
  route: AnyRoute,
  components: Record<string, JsonSchema>,
  loose: Set<string>,
): Record<string, unknown> | undefined {
  if (!route.body) return undefined;
  let schema = toSchema(route.body, "input", components);
  if (!schema) {
    loose.add(`${route.method} ${route.path} (body)`);
    schema = {};
  }
  if (route.surface === "account") {
    return { required: true, content: { "application/x-www-form-urlencoded": { schema } } };
  }
  if (route.surface === "carrier") {
    return {
      required: true,
      content: { "application/vnd.api+json": { schema }, "application/json": { schema } },
    };
  }
  return { required: false, content: { "application/json": { schema } } };
}

function responsesOf(
  route: AnyRoute,
  components: Record<string, JsonSchema>,
  loose: Set<string>,
): Record<string, Record<string, unknown>> {
  const status = String(route.status ?? 200);
  const responses: Record<string, Record<string, unknown>> = {};
  const redirect = route.redirect;
  if (status === "204") {
    responses["204"] = { description: "No content" };
  } else if (redirect && String(redirect.status) === status) {
    // The redirect below is the route's only success answer.
  } else if (route.contentType) {
    // Raw bytes: OpenAPI 3.1 describes a binary body by its media type alone.
    responses[status] = { description: route.summary, content: { [route.contentType]: {} } };
  } else {
    let schema = route.response ? toSchema(route.response, "output", components) : undefined;
    if (!schema) {
      loose.add(`${route.method} ${route.path}`);
      schema = { description: "Not described in detail yet" };
    }
    responses[status] = {
      description: route.summary,
      content: { [mediaTypes[route.surface]]: { schema } },
    };
  }
  if (redirect) {
    let location = toSchema(redirect.location, "output", components);
    if (!location) {
      loose.add(`${route.method} ${route.path} (Location)`);
      location = { type: "string" };
    }
    responses[String(redirect.status)] = {
      description: redirect.description,
      headers: { Location: { description: "Where the answer is", required: true, schema: location } },
    };
  }
  responses.default = {
    description: "An error, in the surface's error format",
    content: {
      [mediaTypes[route.surface]]: {
        schema: { $ref: `#/components/schemas/${errorSchemaOf[route.surface]}` },
      },
    },
  };
  return responses;
}

/** Builds the document from whatever the route table holds. */
export function buildOpenApiDocument(
  routes: readonly AnyRoute[],
  version = documentVersion,
): OpenApiDocument {
  const components: Record<string, JsonSchema> = { ...errorSchemas };
  const loose = new Set<string>();
  const paths: OpenApiDocument["paths"] = {};
  const usedIds = new Map<string, number>();
  for (const route of routes) {
    const path = openApiPath(route.path);
    let operationId = operationIdOf(route);
    const seen = usedIds.get(operationId) ?? 0;
    usedIds.set(operationId, seen + 1);
    if (seen > 0) operationId = `${operationId}${seen + 1}`;
    const parameters = parametersOf(route, components, loose);
    const requestBody = requestBodyOf(route, components, loose);
    const operation: Operation = {
      operationId,
      summary: route.summary,
      tags: [tagOf[route.surface]],
      security: securityOf(route),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: responsesOf(route, components, loose),
    };
    paths[path] ??= {};
    paths[path]![route.method.toLowerCase()] = operation;
  }
  return {
    openapi: openApiVersion,
    info: {
      title: "voice-sandbox",
      version,
      summary: "A local, stateful emulator of a voice and messaging service.",
      description: [
        "Two surfaces and the sandbox's own admin API.",
        "",
        "- **Account API** under `/2010-04-01/Accounts/{AccountSid}/...` (Twilio 2010-04-01 style): form-encoded parameters in, JSON out. Every path also answers with Twilio's `.json` suffix.",
        "- **Carrier API** under `/carrier/v1/...`: JSON:API 1.1 documents, guarded by the carrier key (`carrierToken`).",
        "- **Admin API** under `/__sandbox/...`: JSON; needs the admin token only when one is set.",
      ].join("\n"),
      license: { name: "MIT", identifier: "MIT" },
      // `version` is the API description's (the spec's 1.0.0); this says which package serves it.
      "x-package-version": packageVersion,
    },
    servers: [{ url: "/", description: "This sandbox" }],
    tags: [
      {
        name: "Account API",
        description: "Calls, messages, recordings and incoming phone numbers of one account",
      },
      { name: "Carrier API", description: "Provisioning and billing, JSON:API 1.1" },
      { name: "Admin API", description: "The sandbox itself: state, clock, faults, request journal" },
    ],
    paths,
    components: { schemas: components, securitySchemes },
    "x-loosely-described": [...loose].sort(),
  };
}
