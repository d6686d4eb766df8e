// Admin: the OpenAPI 3.1 document of every surface, generated from the route table on first request.
import { openApiDocumentSchema } from "../openapi-document-schema.js";
import { defineRoute } from "../route.js";

let cached: string | undefined;

export const openApiRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/openapi.json",
    surface: "admin",
    summary: "The OpenAPI 3.1 document of the account, carrier and admin APIs",
    // A description of the API is not a secret, and the docs page must load it without the admin token.
    auth: { kind: "none" },
    response: openApiDocumentSchema,
    async handle() {
      if (cached === undefined) {
        // Imported here: the route table includes this route, so a static import would be circular.
        const [{ routes }, { buildOpenApiDocument }] = await Promise.all([
          import("../routes.js"),
          import("../openapi-document.js"),
        ]);
        cached = JSON.stringify(buildOpenApiDocument(routes));
      }
      return { status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: cached };
    },
  }),
];
