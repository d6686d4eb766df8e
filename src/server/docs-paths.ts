// Where the API reference lives on the server: named apart from the page, so the request path can check it without loading Express.
export const docsPath = "/__sandbox/docs";
export const specPath = "/__sandbox/openapi.json";
