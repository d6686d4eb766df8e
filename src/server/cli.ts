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

/**
 * npm (`npx voice-sandbox`, any npm script) runs the command through a shell and hands a SIGTERM sent to npm
 * on to that shell, which ends without passing it to its child: the command would run on, orphaned and still
 * listening. (The repository's own start script `exec`s node, so there npm signals the server itself.) So
 * under npm the command stops as if sent SIGTERM (a server closes cleanly) once its parent has gone,
 * checked twice a second; the check never keeps the process alive.
 */
function stopWithParent(env: NodeJS.ProcessEnv = process.env): void {
  if (!env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, "SIGTERM");
  }, 500);
  watch.unref();
}

stopWithParent();

let finished = false;
// As an unsettled top-level await ends a module: a command that stops with nothing left to run before its
// work finished (its promise never settled) exits 13, not 0, so a stalled `run` never passes for a success.
process.once("beforeExit", () => {
  if (finished) return;
  console.error("voice-sandbox: the command stopped before it finished");
  process.exitCode = 13;
});
start().then(
  () => {
    finished = true;
  },
  (error: unknown) => {
    // As a rejected top-level await ends a module: the error on stderr, exit code 1.
    finished = true;
    console.error(error);
    process.exitCode = 1;
  },
);
