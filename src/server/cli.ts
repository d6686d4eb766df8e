#!/usr/bin/env node
// The voice-sandbox command line's entry: runs the program, from V8's code cache when built.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defaultCacheDir, runCompiledProgram } from "./compiled-program.js";

type Main = (argv: readonly string[]) => Promise<void>;

// Built, this file is CommonJS (dist/server/cli.cjs, the package's bin: Node starts it without its ES module
// loader) and the program is one CommonJS file beside it (scripts/build.mjs), run through the code cache
// (docs/decisions.md, start-up); from source (tsx, the tests), its modules are imported as they are. No
// top-level await, which CommonJS has not.
const bundle = fileURLToPath(new URL("./cli-program.cjs", import.meta.url));

function start(): Promise<void> {
  if (existsSync(bundle)) {
    const program = runCompiledProgram(bundle, {
      cacheDir: defaultCacheDir(),
      purpose: process.argv[2] ?? "",
      importPackage: (name) => import(name),
    });
    // A server is often killed rather than stopped, so the cache is written once it listens, not at exit,
    // and at once: a server started for a few requests and killed would never write one later. It holds the
    // thread ~10 ms, once, on a machine's first start.
    return (program.exports.main as Main)(process.argv).then(() => program.save());
  }
  if (import.meta.url.endsWith(".ts"))
    return import("./cli-program.js").then(({ main }) => main(process.argv));
  return Promise.reject(
    new Error(`voice-sandbox: ${bundle} is missing; reinstall the package (or run npm run build)`),
  );
}

start().catch((error: unknown) => {
  // As a rejected top-level await ends a module: the error on stderr, exit code 1.
  console.error(error);
  process.exitCode = 1;
});
