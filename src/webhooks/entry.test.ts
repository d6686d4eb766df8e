// The `voice-sandbox/webhooks` entry must load in any Node app: no runtime import of msw, express or the rest of the sandbox.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = fileURLToPath(new URL(".", import.meta.url));
const sources = readdirSync(dir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));

describe("voice-sandbox/webhooks entry", () => {
  it.each(sources)("%s imports at runtime only node: built-ins and its own folder", (name) => {
    const text = readFileSync(dir + name, "utf8");
    const runtimeImports = [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)].map(
      (match) => match[1]!,
    );
    for (const specifier of runtimeImports) {
      expect(specifier.startsWith("node:") || specifier.startsWith("./"), `${name}: ${specifier}`).toBe(true);
    }
  });

  it("loads and signs without the sandbox", async () => {
    const entry = await import("./index.js");
    expect(entry.computeSignature("12345", "https://mycompany.com/myapp.php?foo=1&bar=2", {})).toMatch(/=$/);
    expect(Object.keys(entry)).toEqual(
      expect.arrayContaining([
        "validateSignature",
        "createWebhookReceiverMiddleware",
        "createWebhookDispatcher",
      ]),
    );
  });
});
