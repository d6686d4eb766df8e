// `npm run build`: types from tsc, code bundled by esbuild (one file per entry point plus shared chunks), the inspector's browser files, the scenario JSON Schema.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });

/**
 * Every file package.json's exports name (the bin is built apart, below), plus the internals the benchmarks
 * import (sandbox, events, data-dir, recording and speech audio). Measured (docs/decisions.md, start-up):
 * loading ~250 modules of ours and ~150 of our dependencies one by one was most of a library import's time.
 */
const entryPoints = {
  index: "src/index.ts",
  "adapters/msw": "src/adapters/msw.ts",
  "adapters/express": "src/adapters/express.ts",
  "scenarios/vitest": "src/scenarios/vitest.ts",
  "webhooks/index": "src/webhooks/index.ts",
  "inspector/index": "src/inspector/index.ts",
  "server/healthcheck": "src/server/healthcheck.ts",
  sandbox: "src/sandbox.ts",
  "engine/context/events": "src/engine/context/events.ts",
  "engine/recordings/recording-audio": "src/engine/recordings/recording-audio.ts",
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

/**
 * The built CLI entry (src/server/cli.ts, built apart below) runs the program's own bundle; its `import()` of
 * the program's modules is taken only when the sources run directly, so the entry's bundle leaves it out.
 */
const sourceOnlyProgramImport = {
  name: "source-only-program-import",
  setup(build) {
    build.onResolve({ filter: /^\.\/cli-program\.js$/ }, ({ importer }) =>
      /[\\/]src[\\/]server[\\/]cli\.ts$/.test(importer)
        ? { path: "./cli-program.js", external: true }
        : undefined,
    );
  },
};

/** In the program's bundle, `importPackage` is the `import()` the CLI entry hands the script (compiled-program.ts). */
const importPackageFromEntry = {
  name: "import-package-from-entry",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]import-package\.ts$/ }, () => ({
      contents: "export const importPackage = (name) => __importPackage(name);",
      loader: "js",
    }));
  },
};

/**
 * What CommonJS built from our ES module sources opens with: strict (the directive must open the file;
 * esbuild's own comes after the banner), with `import.meta.url` (defined as `__importMetaUrl`) its file's URL.
 */
const commonJsBanner =
  '"use strict";\nconst __importMetaUrl = require("node:url").pathToFileURL(__filename).href;';

/**
 * The command line's program (`voice-sandbox serve`, `run`) as one CommonJS file, dependencies and lazily
 * loaded parts included, which cli.ts runs through V8's code cache: Node 20 caches no ES module's code.
 * Measured (docs/decisions.md, start-up): a start with the cache took 127 ms to the first health answer
 * where the ES module chunks took 199 (a bare node:http spawn: 64). Left out: packages loaded by file or
 * only sometimes (Express for the landing page, Swagger UI's files, ws and its native helpers, pino-pretty).
 * The first line is the hash of the rest: the cache is filed under it.
 */
async function buildProgram() {
  const { outputFiles, metafile } = await build({
    absWorkingDir: root,
    entryPoints: ["src/server/cli-program.ts"],
    bundle: true,
    write: false,
    outfile: "dist/server/cli-program.cjs",
    format: "cjs",
    platform: "node",
    target: "node20",
    external: ["msw", "express", "pino-pretty", "swagger-ui-dist", "ws", "bufferutil", "utf-8-validate"],
    banner: { js: commonJsBanner },
    define: { "import.meta.url": "__importMetaUrl" },
    plugins: [withoutZodLocales, importPackageFromEntry],
    logLevel: "warning",
    // Any other `import.meta` member would be empty in CommonJS, and only the built CLI would notice.
    logOverride: { "empty-import-meta": "error" },
    metafile: true,
  });
  // An `import()` of a package left out of the bundle would fail only in the built CLI (no module loader):
  // such imports go through src/import-package.ts.
  for (const output of Object.values(metafile.outputs))
    for (const imported of output.imports)
      if (imported.external && imported.kind === "dynamic-import")
        throw new Error(`cli-program.cjs: import("${imported.path}") must go through src/import-package.ts`);
  // esbuild writes code in ASCII (its `charset` default), but keeps some comments as written: escaped too,
  // the file is ASCII throughout, which the CLI reads as Latin-1, the cheapest decoding (2 ms against 5).
  const code = outputFiles[0].text.replace(
    /[^\0-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const hash = createHash("sha256").update(code).digest("hex");
  writeFileSync(join(root, "dist/server/cli-program.cjs"), `// voice-sandbox program ${hash}\n${code}`);
}

/**
 * The CLI entry, the package's bin, as a CommonJS file with compiled-program.ts inside: Node then starts it
 * without loading its ES module loader, and reads one file, not an entry and a chunk. Measured
 * (docs/decisions.md, start-up): 6 ms less to the first health answer than the same entry as an ES module.
 */
async function buildEntry() {
  await build({
    absWorkingDir: root,
    entryPoints: ["src/server/cli.ts"],
    bundle: true,
    outfile: "dist/server/cli.cjs",
    format: "cjs",
    platform: "node",
    target: "node20",
    banner: { js: commonJsBanner },
    define: { "import.meta.url": "__importMetaUrl" },
    plugins: [sourceOnlyProgramImport],
    logLevel: "warning",
    logOverride: { "empty-import-meta": "error" },
  });
}

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
await buildEntry();
await buildProgram();
cpSync(join(root, "src/inspector/client"), join(root, "dist/inspector/client"), { recursive: true });
// The frame senders' worker runs as it is written (frame-senders.ts starts it by file).
cpSync(
  join(root, "src/engine/media-streams/frame-sender.worker.mjs"),
  join(root, "dist/engine/media-streams/frame-sender.worker.mjs"),
);
run(["--import", "tsx", "src/scenarios/write-json-schema.ts"]);
run(["--import", "tsx", "src/fixtures/write-default-json.ts"]);
