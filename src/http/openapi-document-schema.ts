// The shape of the OpenAPI document itself, as GET /__sandbox/openapi.json answers it.
import { z } from "zod";

/** A JSON Schema (2020-12), or any other open-ended OpenAPI object: its contents are OpenAPI's, not ours. */
const openObject = z.lazy(() => z.record(z.string(), z.unknown()));

const operation = z.lazy(() =>
  z.strictObject({
    operationId: z.string(),
    summary: z.string(),
    tags: z.array(z.string()),
    security: z.array(z.record(z.string(), z.array(z.string()))),
    parameters: z.array(openObject).optional(),
    requestBody: openObject.optional(),
    responses: z.record(z.string(), openObject),
  }),
);

export const openApiDocumentSchema = z.lazy(() =>
  z.strictObject({
    openapi: z.literal("3.1.0"),
    info: z.strictObject({
      title: z.string(),
      version: z.string(),
      summary: z.string(),
      description: z.string(),
      license: z.strictObject({ name: z.string(), identifier: z.string() }),
      "x-package-version": z.string(),
    }),
    servers: z.array(z.strictObject({ url: z.string(), description: z.string().optional() })),
    tags: z.array(z.strictObject({ name: z.string(), description: z.string() })),
    paths: z.record(
      z.string(),
      z.partialRecord(z.enum(["get", "put", "post", "delete", "patch", "head", "options"]), operation),
    ),
    components: z.strictObject({
      schemas: z.record(z.string(), openObject),
      securitySchemes: z.record(z.string(), openObject),
    }),
    /** Routes or parts of routes described loosely; empty, and the test suite keeps it so. */
    "x-loosely-described": z.array(z.string()),
  }),
);
