// Checks carrier API responses against the official JSON:API schema (jsonapi.org, as packaged by jsonapi-validator) with ajv.
import { createRequire } from "node:module";
import { Ajv } from "ajv";
import draft6 from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import addFormats from "ajv-formats";
import { expect } from "vitest";

const require = createRequire(import.meta.url);
const packagedSchema = require("jsonapi-validator/lib/schema.json") as {
  definitions: Record<string, unknown>;
};

/**
 * The packaged copy of the official schema predates a fix jsonapi.org later made: its `links` object
 * refuses `null` pagination links, which JSON:API allows ("Keys MUST either be omitted or have a null
 * value to indicate that a particular link is unavailable"). Only that member is widened here.
 */
const paginationLink = { oneOf: [{ $ref: "#/definitions/link" }, { type: "null" }] };
const officialSchema = {
  ...packagedSchema,
  definitions: {
    ...packagedSchema.definitions,
    links: {
      type: "object",
      properties: { first: paginationLink, last: paginationLink, prev: paginationLink, next: paginationLink },
      additionalProperties: { $ref: "#/definitions/link" },
    },
  },
};

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addMetaSchema(draft6);
addFormats.default(ajv);
const validateDocument = ajv.compile(officialSchema);

/** The problems ajv finds in `document` against the JSON:API schema (empty when valid). */
export function jsonApiProblems(document: unknown): string[] {
  if (validateDocument(document)) return [];
  return (validateDocument.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

/**
 * Asserts that a carrier response is a JSON:API document: the media type, and the body against the
 * official schema. Returns the response so a test can go on reading it.
 */
/** What a door answers that this check reads (a door's CallResult, or a tool's response). */
interface Answer {
  headers: Headers;
  text: string;
  json: unknown;
}

export function expectJsonApi<T extends Answer>(response: T): T {
  expect(response.headers.get("content-type")).toBe("application/vnd.api+json");
  expect(response.text, "a JSON:API response always has a body").not.toBe("");
  expect(jsonApiProblems(response.json), JSON.stringify(response.json)).toEqual([]);
  return response;
}
