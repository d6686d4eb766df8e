// Runs the command line's bundled program through V8's code cache, so a start after the first skips compiling it.
import { createHash } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/**
 * The first line the build writes into the bundle: the hash of everything after it. V8 checks cached code
 * against the source's length only, so the cache file is named after this hash: a rebuilt program never
 * runs code cached from another one.
 */
export const programHashLine = /^\/\/ voice-sandbox program ([0-9a-f]{16,64})\n/;

/** Cache files kept in the folder, newest first; older ones (other builds, Node versions or flags) are deleted. */
const keptCacheFiles = 8;

export type CacheState =
  /** No cache folder: `VOICE_SANDBOX_COMPILE_CACHE=off`, `NODE_DISABLE_COMPILE_CACHE`, or no home folder. */
  | "off"
  /** A cache for this program, Node and flags was found and V8 took it. */
  | "used"
  /** None yet, or V8 refused the one found: `save()` writes one. */
  | "missing";

export interface CompiledProgram {
  /** What the bundle's `module.exports` holds. */
  readonly exports: Record<string, unknown>;
  readonly state: CacheState;
  /** The cache file, or null when the cache is off. */
  readonly cacheFile: string | null;
  /**
   * Writes the code compiled so far to the cache, when there was none to use. Called once the program has
   * done what a start does (the server listens), so the cache holds the functions a start runs, not only
   * the top level. Never throws: a cache that cannot be written only costs the next start its speed.
   */
  save(): void;
}

export interface RunOptions {
  /** The cache folder; null turns the cache off. */
  cacheDir: string | null;
  /** `import()` for the bundle: code run by `vm.Script` has no module loader of its own. */
  importPackage: (name: string) => Promise<unknown>;
}

/**
 * The folder cached code goes to: `VOICE_SANDBOX_COMPILE_CACHE` (`off` for none), else the user's cache
 * folder (`$XDG_CACHE_HOME`, else `~/.cache`) + `voice-sandbox`. A user's own folder, not the system temp
 * folder: code is run from it, so nobody else may be able to write there. Node's own switch for its compile
 * cache (`NODE_DISABLE_COMPILE_CACHE`) turns this one off too.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const chosen = env.VOICE_SANDBOX_COMPILE_CACHE;
  if (chosen === "off" || (env.NODE_DISABLE_COMPILE_CACHE ?? "") !== "") return null;
  if (chosen) return chosen;
  const cacheHome = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cacheHome, "voice-sandbox");
}

/**
 * Cached code is valid only for the V8 that made it and the flags it ran with (V8 refuses it otherwise), so
 * the file's name holds the program's hash, Node's version and a hash of the Node flags: `npm start`
 * (which passes a flag) and a plain `node` keep a cache each instead of overwriting one another's.
 */
function cacheFileName(file: string, programHash: string): string {
  const flags = [process.execArgv.join(" "), process.env.NODE_OPTIONS ?? ""].join("\n");
  const flagsHash = createHash("sha256").update(flags).digest("hex").slice(0, 8);
  const name = basename(file).replace(/\.c?js$/, "");
  return `${name}-${programHash.slice(0, 16)}-node${process.version.slice(1)}-${process.arch}-${flagsHash}.cache`;
}

function readCache(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Writes `data` whole or not at all (a temporary file renamed), then trims the folder to the newest files. */
function writeCache(dir: string, path: string, data: Buffer): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, data, { mode: 0o600 });
  renameSync(temporary, path);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".cache"))
    .map((name) => ({ path: join(dir, name), modified: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.modified - a.modified);
  for (const old of files.slice(keptCacheFiles)) unlinkSync(old.path);
}

/**
 * Runs the CommonJS bundle at `file` as Node would `require` it, with its compiled code taken from (and
 * later saved to) the cache folder. The source keeps its line numbers: the wrapper opens on its first line.
 */
export function runCompiledProgram(file: string, options: RunOptions): CompiledProgram {
  // The build writes the bundle in ASCII, so Latin-1 reads it exactly, and faster than UTF-8.
  const source = readFileSync(file, "latin1");
  const programHash = programHashLine.exec(source)?.[1];
  const dir = programHash === undefined ? null : options.cacheDir;
  const cacheFile =
    dir === null || programHash === undefined ? null : join(dir, cacheFileName(file, programHash));
  const cachedData = cacheFile === null ? undefined : readCache(cacheFile);
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __importPackage) {${source}\n})`,
    { filename: file, cachedData },
  );
  const state: CacheState =
    cacheFile === null ? "off" : cachedData !== undefined && !script.cachedDataRejected ? "used" : "missing";
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
    options.importPackage,
  );
  let saved = false;
  return {
    exports: module.exports,
    state,
    cacheFile,
    save() {
      if (saved || state !== "missing" || dir === null || cacheFile === null) return;
      saved = true;
      try {
        writeCache(dir, cacheFile, script.createCachedData());
      } catch {
        // A read-only or full disk: the next start compiles again, which is all the cache saves.
      }
    },
  };
}
