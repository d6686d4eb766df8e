// "No 5xx", standing: every operation of the OpenAPI document fuzzed with hostile input; answers stay 4xx or
// better, match the document, and a refused request changes no state.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Handle } from "../../src/http/handle.js";
import { buildOpenApiDocument, type Operation } from "../../src/http/openapi-document.js";
import { routes } from "../../src/http/routes.js";
import type { SandboxRequest } from "../../src/http/types.js";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";
import { checkedHandle } from "../support/openapi-check.js";

/** Fixed, so a failure names a case that replays; bounded, so the suite's time stays modest. */
const seed = 20_261_124;
const casesPerOperation = Number(process.env.VOICE_SANDBOX_FUZZ_RUNS ?? 16);

type Schema = Record<string, unknown>;
const document = buildOpenApiDocument(routes);
const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, operation]) => ({
    name: `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase(),
    path,
    operation: operation as Operation,
  })),
);

const resolve = (schema: Schema | undefined): Schema => {
  let current = schema ?? {};
  for (let i = 0; i < 10 && typeof current.$ref === "string"; i++) {
    const name = (current.$ref as string).split("/").pop()!;
    current = document.components.schemas[name] ?? {};
  }
  return current;
};

// ---- hostile values --------------------------------------------------------------------------------

const prototypeNames = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];
const malformed = [
  "",
  " ",
  "%",
  "%zz",
  "%E0%A4%A",
  "\u0000",
  "<Response>",
  "{",
  "[",
  "null",
  "-1",
  "1e309",
  "NaN",
];
const doubleEncoded = ["%2525", "%252B14155550100", "%25252F", "%2F..%2F", "%2B1%20415", "a%2526b%253Dc"];
const unicode = [
  "\uD800",
  "\u202Eabc",
  "𝕏𝕐",
  "Ｆｏｏ",
  "e\u0301",
  "🦜".repeat(50),
  "\uFEFF+14155550100",
  "٣٤٥",
];
const oversized = ["a".repeat(70_000), "9".repeat(400), "+1".padEnd(5_000, "5")];

const hostileString = fc.oneof(
  fc.constantFrom(...prototypeNames, ...malformed, ...doubleEncoded, ...unicode),
  fc.constantFrom(...oversized),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 20 }),
);

/** A value of any JSON type: what a schema did not ask for. */
const wrongTyped: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(hostileString, { maxLength: 2 }),
  fc.dictionary(fc.constantFrom(...prototypeNames, "a"), hostileString, { maxKeys: 2 }),
);

/** A value shaped by the schema most of the time, so validation gets past the first field; else hostile. */
function valueFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (depth > 4) return wrongTyped;
  const options: fc.Arbitrary<unknown>[] = [];
  if ("const" in s) options.push(fc.constant(s.const));
  if (Array.isArray(s.enum)) options.push(fc.constantFrom(...(s.enum as unknown[])));
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(s[key]))
      options.push(...(s[key] as Schema[]).map((inner) => valueFor(inner, depth + 1)));
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  for (const type of types) {
    if (type === "object") options.push(objectFor(s, depth));
    else if (type === "array")
      options.push(fc.array(valueFor(s.items as Schema, depth + 1), { maxLength: 3 }));
    else if (type === "string") options.push(hostileString);
    else if (type === "integer")
      options.push(fc.oneof(fc.integer(), fc.constant(Number.MAX_SAFE_INTEGER + 2)));
    else if (type === "number") options.push(fc.double());
    else if (type === "boolean") options.push(fc.boolean());
    else if (type === "null") options.push(fc.constant(null));
  }
  if (options.length === 0) return fc.oneof(hostileString, wrongTyped);
  return fc.oneof(
    { arbitrary: fc.oneof(...options), weight: 4 },
    { arbitrary: hostileString, weight: 1 },
    {
      arbitrary: wrongTyped,
      weight: 1,
    },
  );
}

function objectFor(s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const known = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, valueFor(v, depth + 1)]));
  const required = (s.required ?? []) as string[];
  return fc
    .tuple(
      fc.record(known, { requiredKeys: required.filter((k) => k in known) }),
      fc.dictionary(fc.constantFrom(...prototypeNames, "extra", "Ünïcödé"), wrongTyped, { maxKeys: 2 }),
      fc.boolean(),
    )
    .map(([fields, extra, addExtra]) => {
      // JSON.parse makes own "__proto__" keys, as a hostile client's body would.
      const out = JSON.parse(JSON.stringify(fields)) as Record<string, unknown>;
      if (addExtra)
        for (const [k, v] of Object.entries(extra))
          Object.defineProperty(out, k, { value: v, enumerable: true, configurable: true, writable: true });
      return out;
    });
}

/** A form or query string from a value: arrays repeat the key, objects and numbers are written as text. */
function formOf(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return String(value);
  const params = new URLSearchParams();
  for (const [key, item] of Object.entries(value)) {
    for (const one of Array.isArray(item) ? item : [item]) {
      params.append(key, typeof one === "object" && one !== null ? JSON.stringify(one) : String(one));
    }
  }
  return params.toString();
}

// ---- requests --------------------------------------------------------------------------------------

const acmeBasic = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
const authFor = (operation: Operation) => {
  const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes("accountBasic")) return acmeBasic;
  if (schemes.includes("carrierToken")) return `Bearer ${fixtures.carrierKey}`;
  return undefined;
};
const hostileAuth = fc.constantFrom(
  "Basic",
  "Basic %%%",
  `Basic ${Buffer.from("__proto__:constructor").toString("base64")}`,
  `Basic ${Buffer.from(`${fixtures.acme.sid}`).toString("base64")}`,
  "Bearer ",
  "Bearer constructor",
  "Digest x",
);

function requestsFor(op: (typeof operations)[number], knownIds: string[]): fc.Arbitrary<SandboxRequest> {
  const parameters = (op.operation.parameters ?? []) as { name: string; in: string; schema?: Schema }[];
  const pathParams = parameters.filter((p) => p.in === "path");
  const queryParams = parameters.filter((p) => p.in === "query");
  const segment = (name: string) =>
    fc.oneof(
      { arbitrary: fc.constant(name === "AccountSid" ? fixtures.acme.sid : (knownIds[0] ?? "x")), weight: 2 },
      { arbitrary: fc.constantFrom(...(knownIds.length ? knownIds : ["x"])), weight: 2 },
      { arbitrary: hostileString.filter((v) => v !== "").map(encodeURIComponent), weight: 3 },
      // Already percent-encoded text, sent as it is: decoded once it must stay text.
      { arbitrary: fc.constantFrom(...doubleEncoded, "%25", "%", "%zz", ...prototypeNames), weight: 2 },
    );
  const path = fc.tuple(...pathParams.map((p) => segment(p.name))).map((values) => {
    let i = 0;
    return op.path.replace(/\{[^}]+\}/g, () => values[i++]!);
  });
  const query = fc.oneof(
    fc.constant(""),
    objectFor(
      { type: "object", properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema ?? {}])) },
      0,
    ).map(formOf),
    fc.constantFrom("%", "a=%zz", "__proto__[x]=1", "constructor=1&constructor=2", "x".repeat(10_000)),
  );
  const content = (op.operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
    ?.content;
  const mediaType = content ? Object.keys(content)[0]! : undefined;
  const schema = mediaType ? content![mediaType]!.schema : undefined;
  const rawBodies = fc.constantFrom(
    "",
    "{",
    "null",
    "[]",
    '{"__proto__":{"polluted":1}}',
    "\u0000",
    "%ZZ=1&a",
    '"x"',
  );
  const body: fc.Arbitrary<{ body: string; type: string | undefined }> =
    mediaType === undefined
      ? fc.constant({ body: "", type: undefined })
      : fc.oneof(
          {
            arbitrary: valueFor(schema).map((v) => ({
              body: mediaType.includes("form") ? formOf(v) : (JSON.stringify(v) ?? ""),
              type: mediaType,
            })),
            weight: 5,
          },
          { arbitrary: rawBodies.map((b) => ({ body: b, type: mediaType })), weight: 1 },
          // The body in the other encoding: JSON where a form is expected, and the other way round.
          {
            arbitrary: valueFor(schema).map((v) => ({
              body: mediaType.includes("form") ? (JSON.stringify(v) ?? "") : formOf(v),
              type: mediaType,
            })),
            weight: 1,
          },
        );
  const auth = fc.oneof(
    { arbitrary: fc.constant(authFor(op.operation)), weight: 9 },
    { arbitrary: hostileAuth, weight: 1 },
  );
  return fc.record({ path, query, body, auth }).map(({ path: p, query: q, body: b, auth: a }) => {
    const headers: Record<string, string> = {};
    if (a) headers.authorization = a;
    if (b.type) headers["content-type"] = b.type;
    return { method: op.method, path: p, query: q, headers, body: b.body };
  });
}

// ---- the property ----------------------------------------------------------------------------------

/** Where two snapshots first differ, with a little context, instead of two whole documents. */
function firstDifference(before: string, after: string): string {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  return `at ${i}: ${before.slice(Math.max(0, i - 80), i + 80)}\n  now: ${after.slice(Math.max(0, i - 80), i + 80)}`;
}

describe("every operation of the OpenAPI document, fuzzed", () => {
  const covered = new Set(operations.map((op) => op.operation.tags[0]));
  it("covers the three surfaces", () => {
    expect([...covered].sort()).toEqual(["Account API", "Admin API", "Carrier API"]);
  });

  it.each(operations)("$name: no 5xx, answers as documented, nothing changed on refusal", async (op) => {
    // A fresh sandbox per operation: what one operation's cases did cannot hide another's.
    const sandbox: Sandbox = createSandbox();
    // Anything the fuzzed calls make the sandbox fetch is answered in-process, never over the network.
    sandbox.webhooks.register("http", () => ({ status: 204 }));
    const mismatches: string[] = [];
    const handle: Handle = checkedHandle(sandbox.handle, mismatches);
    const knownIds = [
      ...new Set(JSON.stringify(sandbox.snapshot().store).match(/\b[A-Z]{2}[0-9a-f]{32}\b/g) ?? []),
    ].slice(0, 12);
    try {
      await fc.assert(
        fc.asyncProperty(requestsFor(op, knownIds), async (request) => {
          // A case may have switched the clock to real time; on it, time itself would look like a change.
          if (sandbox.clock.mode !== "virtual") sandbox.clock.switchTo("virtual");
          const before = JSON.stringify(sandbox.snapshot());
          const response = await handle(request);
          const shown = `${request.method} ${request.path}?${request.query.slice(0, 200)} ${request.body.slice(0, 300)}`;
          expect(response.status, `${shown}\n${String(response.body).slice(0, 500)}`).toBeLessThan(500);
          expect(mismatches.splice(0), shown).toEqual([]);
          if (response.status < 400) return;
          const after = JSON.stringify(sandbox.snapshot());
          if (after !== before) expect.fail(`state changed by ${shown}\n  ${firstDifference(before, after)}`);
        }),
        { seed, numRuns: casesPerOperation, endOnFailure: true },
      );
    } finally {
      sandbox.clock.dispose();
    }
  });
});
