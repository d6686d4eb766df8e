// The OpenAPI document: valid OpenAPI 3.1 by a maintained validator, served over HTTP, with the docs page.

import { createServer } from "node:http";
import { compileErrors, validate } from "@readme/openapi-parser";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/http/openapi-document.js";
import { routes } from "../../src/http/routes.js";
import { createDocsRouter } from "../../src/server/docs-page.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { checkResponse } from "../support/openapi-check.js";

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
      "testCredentials",
    ]);
    const list = document.paths["/2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers"]?.get;
    expect(list?.security).toContainEqual({ apiKey: ["incoming_phone_numbers_read"] });
    expect(document.paths["/carrier/v1/accounts"]?.post?.security).toEqual([
      { carrierToken: ["carrier_api"] },
    ]);
    expect(document.paths["/__sandbox/health"]?.get?.security).toEqual([]);
  });

  it("describes every route exactly: nothing loosely described, every success answer given its shape", () => {
    const document = buildOpenApiDocument(routes);
    // A new route without a `response` schema (or a redirect or binary content type) fails here.
    expect(document["x-loosely-described"]).toEqual([]);
    for (const route of routes) {
      const path = document.paths[route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}")]!;
      const responses = path[route.method.toLowerCase()]!.responses;
      const successes = Object.entries(responses).filter(([status]) => /^[23]\d\d$/.test(status));
      expect(successes.length, `${route.method} ${route.path}`).toBeGreaterThan(0);
      for (const [status, answer] of successes) {
        const where = `${route.method} ${route.path} ${status}`;
        if (status === "204") expect(answer.content, where).toBeUndefined();
        else if (status.startsWith("3"))
          expect((answer.headers as Record<string, { required: boolean }>).Location?.required, where).toBe(
            true,
          );
        else expect(Object.keys(answer.content as object), where).toHaveLength(1);
      }
    }
  });

  it("describes the media redirects and the audio they lead to", () => {
    const document = buildOpenApiDocument(routes);
    const wav = document.paths["/2010-04-01/Accounts/{AccountSid}/Recordings/{RecordingSid}.wav"]?.get;
    expect(Object.keys(wav?.responses ?? {})).toEqual(["302", "default"]);
    expect(wav?.responses["302"]?.headers).toMatchObject({
      Location: { required: true, schema: { type: "string" } },
    });
    // Without an extension the recording answers its JSON (.json) or a redirect to its media.
    const fetch = document.paths["/2010-04-01/Accounts/{AccountSid}/Recordings/{RecordingSid}"]?.get;
    expect(Object.keys(fetch?.responses ?? {})).toEqual(["200", "302", "default"]);
    expect(document.paths["/__sandbox/media/{RecordingSid}.wav"]?.get?.responses["200"]?.content).toEqual({
      "audio/x-wav": {},
    });
    expect(document.paths["/__sandbox/media/{RecordingSid}.mp3"]?.get?.responses["200"]?.content).toEqual({
      "audio/mpeg": {},
    });
  });

  it("lists Twilio test credentials on exactly the three creates that answer them", () => {
    const document = buildOpenApiDocument(routes);
    const withTestCredentials = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.security.some((s) => "testCredentials" in s))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(withTestCredentials.sort()).toEqual([
      "POST /2010-04-01/Accounts/{AccountSid}/Calls",
      "POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers",
      "POST /2010-04-01/Accounts/{AccountSid}/Messages",
    ]);
    expect(document.components.securitySchemes.testCredentials).toMatchObject({
      type: "http",
      scheme: "basic",
    });
  });

  it("checks redirects by their Location, audio by its content type and admin JSON by its schema", () => {
    const recording = `/2010-04-01/Accounts/AC${"1".repeat(32)}/Recordings/RE${"a".repeat(32)}.mp3`;
    const media = `http://127.0.0.1:4010/__sandbox/media/RE${"a".repeat(32)}.mp3`;
    expect(checkResponse("GET", recording, 302, "", { location: media })).toBeNull();
    expect(checkResponse("GET", recording, 302, "", {})).toMatch(/without the Location header/);
    expect(checkResponse("GET", recording, 302, "", { location: "https://elsewhere.test/a.mp3" })).toMatch(
      /Location header that does not match/,
    );
    expect(checkResponse("GET", recording, 200, "{}", {})).toMatch(
      /a status the OpenAPI document does not list/,
    );

    const audio = `/__sandbox/media/RE${"a".repeat(32)}.wav`;
    const bytes = new Uint8Array([82, 73, 70, 70]);
    expect(checkResponse("GET", audio, 200, bytes, { "content-type": "audio/x-wav" })).toBeNull();
    expect(checkResponse("GET", audio, 200, bytes, { "content-type": "application/json" })).toMatch(
      /not the audio\/x-wav/,
    );

    const json = { "content-type": "application/json; charset=utf-8" };
    expect(checkResponse("DELETE", "/__sandbox/webhooks", 200, '{"cleared":true}', json)).toBeNull();
    expect(checkResponse("DELETE", "/__sandbox/webhooks", 200, '{"cleared":"yes"}', json)).toMatch(
      /does not match the OpenAPI document/,
    );
    expect(checkResponse("POST", "/__sandbox/reset", 200, '{"reset":"empty","extra":1}', json)).toMatch(
      /additional properties/,
    );
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

  it("serves a plain page listing every operation where the optional Swagger UI is not installed", async () => {
    const document = buildOpenApiDocument(routes);
    const app = express().use(createDocsRouter({ document: () => document, swaggerUiAssets: null }));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    try {
      const html = await (await fetch(`${base}/__sandbox/docs`)).text();
      expect(html).not.toContain("swagger-ui-bundle.js");
      expect(html).toContain('<a href="/__sandbox/openapi.json">');
      const listed = [...html.matchAll(/<summary><code>(\w+) ([^<]+)<\/code>/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
      const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(listed.sort()).toEqual(documented.sort());
      // Summaries are text, not markup.
      expect(html).toContain("account&#39;s current auth token");
      expect((await fetch(`${base}/__sandbox/docs/swagger-ui-bundle.js`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
