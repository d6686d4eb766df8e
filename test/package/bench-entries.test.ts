// The benchmarks load some built modules on their own (bench/lib.ts `distUrl`): each one they name must be an
// entry point of the build, or `npm run bench` fails where no test runs it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The build's entry points: output name (under dist/, without `.js`) -> source file. */
function buildEntries(): Map<string, string> {
  const script = readFileSync(join(root, "scripts", "build.mjs"), "utf8");
  const block = /const entryPoints = \{([^}]*)\}/.exec(script)?.[1] ?? "";
  const entries = new Map<string, string>();
  for (const match of block.matchAll(/^\s*(?:"([^"]+)"|([A-Za-z]\w*)):\s*"([^"]+)",?$/gm)) {
    entries.set((match[1] ?? match[2])!, match[3]!);
  }
  return entries;
}

describe("the benchmarks' built modules", () => {
  const entries = buildEntries();

  it("the build's entry points are read, and each names a source file of the tree", () => {
    expect(entries.get("index")).toBe("src/index.ts");
    for (const source of entries.values()) expect(() => readFileSync(join(root, source))).not.toThrow();
  });

  it("every module a benchmark loads from dist/ is built by name", () => {
    const named = readdirSync(join(root, "bench"))
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) =>
        [...readFileSync(join(root, "bench", file), "utf8").matchAll(/distUrl\(\s*"([^"]+)\.js"\s*\)/g)].map(
          (match) => `${file}: ${match[1]}`,
        ),
      );
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((entry) => !entries.has(entry.split(": ")[1]!))).toEqual([]);
  });
});
