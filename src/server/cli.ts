#!/usr/bin/env node
// The voice-sandbox command line's entry: runs the program, from V8's code cache when built.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defaultCacheDir, runCompiledProgram } from "./compiled-program.js";

type Main = (argv: readonly string[]) => Promise<void>;

// Built, the program is one CommonJS file beside this one (scripts/build.mjs), run through the code cache
// (docs/decisions.md, start-up); from source (tsx, the tests), its modules are imported as they are.
const bundle = fileURLToPath(new URL("./cli-program.cjs", import.meta.url));
if (existsSync(bundle)) {
  const program = runCompiledProgram(bundle, {
    cacheDir: defaultCacheDir(),
    purpose: process.argv[2] ?? "",
    importPackage: (name) => import(name),
  });
  await (program.exports.main as Main)(process.argv);
  // A server is often killed rather than stopped, so the cache is written once it listens, not at exit,
  // and at once: a server started for a few requests and killed would never write one later. It holds the
  // thread ~10 ms, once, on a machine's first start.
  program.save();
} else if (import.meta.url.endsWith(".ts")) {
  const { main } = await import("./cli-program.js");
  await main(process.argv);
} else {
  throw new Error(`voice-sandbox: ${bundle} is missing; reinstall the package (or run npm run build)`);
}
