// Admin: the OpenAPI 3.1 document of every surface, generated from the route table being served, on first request.
import { buildOpenApiDocument } from "../openapi-document.js";
import { openApiDocumentSchema } from "../openapi-document-schema.js";
import { type AnyRoute, defineRoute } from "../route.js";

/** The document of each route table, built on first request. */
const documents = new WeakMap<readonly AnyRoute[], string>();

export const openApiRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/openapi.json",
    surface: "admin",
    summary: "The OpenAPI 3.1 document of the account, carrier and admin APIs",
    // A description of the API is not a secret, and the docs page must load it without the admin token.
    auth: { kind: "none" },
    response: openApiDocumentSchema,
    handle({ services }) {
      const routes = services.routes ?? [];
      let document = documents.get(routes);
      if (document === undefined) {
        document = JSON.stringify(buildOpenApiDocument(routes));
        documents.set(routes, document);
      }
      return { status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: document };
    },
  }),
];
