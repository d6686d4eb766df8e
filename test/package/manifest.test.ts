// package.json as the registry and Node read it: where the project lives (the registry's page resolves the
// README's relative links and image against the repository), and an exports map that require() can use too.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface Manifest {
  repository?: { type?: string; url?: string };
  homepage?: string;
  bugs?: { url?: string };
  files: string[];
  exports: Record<string, string | Record<string, string>>;
}

const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as Manifest;
const repository = "https://github.com/voice-sandbox/voice-sandbox";

describe("package.json", () => {
  it("names the repository, its README as the home page and its issues for bugs", () => {
    expect(manifest.repository).toEqual({ type: "git", url: `git+${repository}.git` });
    expect(manifest.homepage).toBe(`${repository}#readme`);
    expect(manifest.bugs).toEqual({ url: `${repository}/issues` });
  });

  it("ships the changelog beside the README", () => {
    expect(manifest.files).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md"]));
  });

  it("gives every code entry point types and one module for import and require alike", () => {
    const conditional = Object.entries(manifest.exports).filter(
      (entry): entry is [string, Record<string, string>] => typeof entry[1] !== "string",
    );
    expect(conditional.length).toBeGreaterThan(0);
    for (const [subpath, conditions] of conditional) {
      // Node takes the first matching condition in order: `types` first for TypeScript, `default` last.
      expect(Object.keys(conditions), subpath).toEqual(["types", "default"]);
      expect(conditions.default, subpath).toMatch(/^\.\/dist\/.+\.js$/);
      expect(conditions.types, subpath).toBe(conditions.default!.replace(/\.js$/, ".d.ts"));
    }
  });
});
