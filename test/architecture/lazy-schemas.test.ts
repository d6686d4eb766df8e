// Route modules build their zod schemas on first use (z.lazy), not when they load: a server start or a library
// sandbox loads every route module, and building their ~2,000 schemas was a sixth of a start (docs/decisions.md,
// start-up). This check keeps a new route from building its schemas at load again.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const httpDir = join(root, "src/http");

const routeModules = (readdirSync(httpDir, { recursive: true }) as string[])
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .map((file) => join(httpDir, file));
/**
 * Schemas only some sandboxes ever read: the fixture file's (only a YAML fixture file needs it; the default
 * fixtures ship parsed) and the app messages of media streams and ConversationRelay (read on a stream's first).
 */
const firstUseModules = [
  "src/fixtures/schema.ts",
  "src/engine/media-streams/stream-protocol.ts",
  "src/engine/media-streams/relay-protocol.ts",
].map((file) => join(root, file));

/** `z.something(...)...`: a call chain that starts at zod's namespace. */
function rootOfChain(node: ts.Expression): ts.Expression {
  let current = node;
  for (;;) {
    if (ts.isCallExpression(current) || ts.isPropertyAccessExpression(current)) current = current.expression;
    else return current;
  }
}

function buildsSchema(node: ts.Expression): boolean {
  const root = rootOfChain(node);
  if (!ts.isIdentifier(root) || root.text !== "z") return false;
  // z.lazy(...) and whatever is chained on it is built on first use.
  let current: ts.Expression = node;
  while (ts.isCallExpression(current) || ts.isPropertyAccessExpression(current)) {
    if (ts.isPropertyAccessExpression(current) && current.name.text === "lazy" && current.expression === root)
      return false;
    current = current.expression;
  }
  return ts.isCallExpression(node) || ts.isPropertyAccessExpression(node);
}

/**
 * Schemas a module builds as it loads, as far as its text shows them: top-level constants and routes' query,
 * body and response written with `z.` outside a `z.lazy`. Not seen: schemas a helper function builds (a
 * top-level `listEnvelope(...)` call, say) and the member groups spread into many schemas (`pagingQuery`,
 * the JSON:API members), which are meant to be built once at load and shared.
 */
function eagerSchemas(file: string, text = readFileSync(file, "utf8")): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const where = (node: ts.Node) =>
    `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations)
      if (declaration.initializer && buildsSchema(declaration.initializer))
        found.push(`${where(declaration)} ${declaration.name.getText(source)}`);
  }
  // Anywhere outside a z.lazy: a route's (defineRoute, carrierResourceRoutes) query, body and response.
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.getText(source) === "z.lazy") return;
    if (
      ts.isPropertyAssignment(node) &&
      ["query", "body", "response"].includes(node.name.getText(source)) &&
      buildsSchema(node.initializer)
    )
      found.push(`${where(node)} ${node.name.getText(source)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("route modules", () => {
  it("are found", () => {
    expect(routeModules.length).toBeGreaterThan(40);
  });

  it("build no zod schema as they load: each top-level schema and each route's query, body and response is z.lazy", () => {
    expect(routeModules.flatMap((file) => eagerSchemas(file))).toEqual([]);
  });

  it("leave the fixture file's schema and the streams' app message schemas to first use too", () => {
    expect(firstUseModules.flatMap((file) => eagerSchemas(file))).toEqual([]);
  });

  it("would catch a schema built at load", () => {
    const probe = join(httpDir, "account-api", "probe.ts");
    const module = [
      "const eager = z.object({ Sid: z.string() }).strict();",
      "const lazy = z.lazy(() => z.object({ Sid: z.string() })).optional();",
      "const fields = { Sid: z.string() };",
      "export const probeRoutes = [defineRoute({ query: z.object({}), body: lazy, response: z.lazy(() => eager) })];",
    ].join("\n");
    expect(eagerSchemas(probe, module)).toEqual([
      "src/http/account-api/probe.ts:1 eager",
      "src/http/account-api/probe.ts:4 query",
    ]);
  });
});
