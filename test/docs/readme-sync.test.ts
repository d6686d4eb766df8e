// The README's complete test file is the one this suite runs: the two may differ only in where voice-sandbox is imported from.
import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";

const root = new URL("../../", import.meta.url);

it("README's voice.test.ts is readme-example.test.ts with the package import", async () => {
  const readme = await readFile(new URL("README.md", root), "utf8");
  const block = /```ts\n\/\/ voice\.test\.ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block, "README has a ```ts block starting with // voice.test.ts").toBeDefined();
  const suite = await readFile(new URL("test/docs/readme-example.test.ts", root), "utf8");
  const body = suite
    .slice(suite.indexOf("\n") + 1)
    .replace('from "../../src/index.js"', 'from "voice-sandbox"');
  expect(block).toBe(body);
});
