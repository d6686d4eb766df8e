// The OpenAPI document: valid OpenAPI 3.1 by a maintained validator, served over HTTP, with the docs page.
import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/http/openapi-document.js";
import { routes } from "../../src/http/routes.js";
import { type RunningServer, serve } from "../../src/server/serve.js";

describe("OpenAPI document", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve({ port: 0, adminToken: "admin_token_for_docs_test_0000" });
  });
  afterAll(async () => running.close());

  it("is a valid OpenAPI 3.1 document, version 1.0.0, covering every route in the table", async () => {
    const document = await (await fetch(`${running.url}/__sandbox/openapi.json`)).json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item as object));
    expect(operations).toHaveLength(routes.length);
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(routes))));
  });

  it("names the spec's security schemes and each operation's scope", async () => {
    const document = buildOpenApiDocument(routes);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      "accountBasic",
      "adminToken",
      "apiKey",
      "carrierToken",
    ]);
    const list = document.paths["/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers"]?.get;
    expect(list?.security).toContainEqual({ apiKey: ["incoming_phone_numbers_read"] });
    expect(document.paths["/carrier/v1/accounts"]?.post?.security).toEqual([
      { carrierToken: ["carrier_api"] },
    ]);
    expect(document.paths["/__sandbox/health"]?.get?.security).toEqual([]);
  });

  it("serves an interactive reference page at /__sandbox/docs without the admin token", async () => {
    const page = await fetch(`${running.url}/__sandbox/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("/__sandbox/openapi.json");
    expect(html).toContain("swagger-ui-bundle.js");
    const script = await fetch(`${running.url}/__sandbox/docs/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect((await fetch(`${running.url}/__sandbox/openapi.json`)).status).toBe(200);
    expect((await fetch(`${running.url}/__sandbox/faults`)).status).toBe(401);
  });
});
