// `npm run build`: types from tsc, code bundled by esbuild (one file per entry point plus shared chunks), the inspector's browser files, the scenario JSON Schema.
import { execFileSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });

/**
 * Every file package.json's exports and bin name, plus the internals the benchmarks import (sandbox, events, data-dir,
 * recording and speech audio). Measured (docs/decisions.md, start-up): loading ~250 modules of ours and ~150 of our
 * dependencies one by one was most of a library import's time.
 */
const entryPoints = {
  index: "src/index.ts",
  "adapters/msw": "src/adapters/msw.ts",
  "adapters/express": "src/adapters/express.ts",
  "scenarios/vitest": "src/scenarios/vitest.ts",
  "webhooks/index": "src/webhooks/index.ts",
  "inspector/index": "src/inspector/index.ts",
  "server/cli": "src/server/cli.ts",
  "server/healthcheck": "src/server/healthcheck.ts",
  sandbox: "src/sandbox.ts",
  "engine/events": "src/engine/events.ts",
  "engine/recording-audio": "src/engine/recording-audio.ts",
  "engine/speech/speech-audio": "src/engine/speech/speech-audio.ts",
  "server/persistence/data-dir": "src/server/persistence/data-dir.ts",
};

rmSync(join(root, "dist"), { recursive: true, force: true });
// Type-checks the sources and writes the .d.ts files package.json's `types` point at.
run([join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--emitDeclarationOnly"]);
/**
 * zod's namespace re-exports its ~40 message translations (`z.locales`, ~400 kB); nothing here reads them (the
 * English messages are imported on their own), and the bundle keeps every export of a namespace it passes
 * around, so they are replaced by an empty module. Measured (docs/decisions.md, start-up): their source was
 * half of zod's chunk, parsed by every process that loads it.
 */
const withoutZodLocales = {
  name: "without-zod-locales",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(importer)
        ? { path: "zod-locales", namespace: "empty" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "export {};", loader: "js" }));
  },
};

await build({
  absWorkingDir: root,
  entryPoints,
  outdir: "dist",
  bundle: true,
  // Code shared by entry points lives in chunks, loaded once: a library sandbox and voice-sandbox/msw share
  // one state. A dynamic import() stays a split point, so what loads lazily in the sources loads lazily here.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  // Bundled with the code that uses them, except: msw (the customer's own instance, loaded only when handlers
  // are asked for), the server's own packages (loaded only by the CLI; a library process must never load
  // them, test/package checks it), and ws (required on the first media stream; its optional native
  // helpers are looked up at run time).
  external: [
    "msw",
    "express",
    "pino",
    "pino-pretty",
    "commander",
    "swagger-ui-dist",
    "ws",
    "bufferutil",
    "utf-8-validate",
  ],
  // Bundled CommonJS dependencies (yaml, sorted-btree, ...) require Node's built-ins: give them a require.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
  },
  plugins: [withoutZodLocales],
  logLevel: "warning",
});
cpSync(join(root, "src/inspector/client"), join(root, "dist/inspector/client"), { recursive: true });
run(["--import", "tsx", "src/scenarios/write-json-schema.ts"]);
run(["--import", "tsx", "src/fixtures/write-default-json.ts"]);
