// Test runner settings: unit tests beside the code, integration tests under test/, and the voice agent CI example as a team would write it.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The example imports the package by its name, as its readers do; here the name is the source.
  resolve: {
    alias: [
      { find: /^voice-sandbox\/vitest$/, replacement: source("./src/scenarios/vitest.ts") },
      { find: /^voice-sandbox$/, replacement: source("./src/index.ts") },
    ],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "examples/voice-agent-ci/*.test.mjs"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
