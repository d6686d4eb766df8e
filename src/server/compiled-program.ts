// Runs the command line's bundled program through V8's code cache, so a start after the first skips compiling it.
import { createHash, randomBytes } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { Script } from "node:vm";

/**
 * The first line the build writes into the bundle: the hash of everything after it. V8 checks cached code
 * against the source's length only, so the cache file is named after this hash (and the file's size and
 * modification time, should someone edit the bundle in place): a changed program never runs old code.
 */
export const programHashLine = /^\/\/ voice-sandbox program ([0-9a-f]{16,64})\n/;

/** This program's cache files kept in the folder, newest written first; older ones are deleted. */
const keptCacheFiles = 8;
/** A temporary file this old was left by a process that died while writing: deleted when trimming. */
const staleTemporaryMs = 10 * 60_000;

export type CacheState =
  /** No cache: turned off, the bundle has no hash line, or the folder is not the user's own (see below). */
  | "off"
  /** A cache for this program, command, Node and flags was found and V8 took it. */
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
  /**
   * What the program is run for (the command: `serve`, `run`): each keeps a cache of its own, since a
   * cache holds the functions its first run ran and is not written again while V8 takes it.
   */
  purpose: string;
  /** `import()` for the bundle: code run by `vm.Script` has no module loader of its own. */
  importPackage: (name: string) => Promise<unknown>;
}

/**
 * The folder cached code goes to: `VOICE_SANDBOX_COMPILE_CACHE` (`off`, `0` or `false` for none), else the
 * user's cache folder (`$XDG_CACHE_HOME` when absolute, as the XDG spec has it, else `~/.cache`) +
 * `voice-sandbox`. Node's own switch for its compile cache (`NODE_DISABLE_COMPILE_CACHE`) turns it off too.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const chosen = env.VOICE_SANDBOX_COMPILE_CACHE ?? "";
  if (/^(off|0|false|no)$/i.test(chosen) || (env.NODE_DISABLE_COMPILE_CACHE ?? "") !== "") return null;
  if (chosen !== "") return resolve(chosen);
  const xdg = env.XDG_CACHE_HOME ?? "";
  return join(isAbsolute(xdg) ? xdg : join(homedir(), ".cache"), "voice-sandbox");
}

/**
 * Code is run from the cache folder, so it is used only while nobody else can write there: a folder (not a
 * link to one) owned by this user, writable by no group or other. V8's checks of cached data are for
 * compatibility, not integrity. `mkdirSync` sets the mode of the folders it makes only, hence the check.
 * On Windows mode bits do not say who may write (a folder reads as writable by all): there the folder's
 * access list decides, as it does for the rest of the user's profile.
 */
function isPrivate(stats: Stats): boolean {
  if (process.platform === "win32") return true;
  const uid = process.getuid?.();
  return (uid === undefined || stats.uid === uid) && (stats.mode & 0o022) === 0;
}

function privateFolder(dir: string): "yes" | "no" | "absent" {
  try {
    const stats = lstatSync(dir);
    return stats.isDirectory() && isPrivate(stats) ? "yes" : "no";
  } catch (error) {
    // Only a folder that does not exist yet is made; one this user cannot even look at (another user's,
    // behind a folder closed to us) is not ours, and making a cache for it would only cost the start.
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "no";
  }
}

/**
 * Cached code is valid only for the V8 that made it and the flags it ran with (V8 refuses it otherwise), so
 * the file's name holds Node's version and a hash of the program, its file and the Node flags: `npm start`
 * (which passes a flag) and a plain `node` keep a cache each instead of overwriting one another's.
 */
function cacheFileName(file: string, programHash: string, purpose: string): string {
  const { size, mtimeMs } = statSync(file);
  // The file's time in whole seconds: a container image's layers keep times to the second, so a cache made
  // while the image was built would otherwise never match the file a container runs.
  const modified = Math.floor(mtimeMs / 1000);
  const key = [programHash, size, modified, process.execArgv.join(" "), process.env.NODE_OPTIONS ?? ""];
  const keyHash = createHash("sha256").update(key.join("\n")).digest("hex").slice(0, 16);
  const command = /^[a-z][a-z-]{0,31}$/.test(purpose) ? purpose : "other";
  return `${programName(file)}-${command}-node${process.version.slice(1)}-${process.arch}-${keyHash}.cache`;
}

const programName = (file: string) => basename(file).replace(/\.c?js$/, "");

/** The cached data, if the file is a plain file of this user's that no one else can write. */
function readCache(path: string): Buffer | undefined {
  try {
    const stats = lstatSync(path);
    return stats.isFile() && isPrivate(stats) ? readFileSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `data` whole or not at all (a temporary file renamed), then trims the program's files to the newest. */
function writeCache(dir: string, path: string, program: string, data: Buffer): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (privateFolder(dir) !== "yes") return;
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, data, { mode: 0o600, flag: "wx" });
  renameSync(temporary, path);
  const ours = `${program}-`;
  const files = readdirSync(dir)
    .filter((name) => name.startsWith(ours) && (name.endsWith(".cache") || name.endsWith(".tmp")))
    .map((name) => ({ name, path: join(dir, name), modified: statSync(join(dir, name)).mtimeMs }));
  const caches = files.filter((f) => f.name.endsWith(".cache")).sort((a, b) => b.modified - a.modified);
  const stale = files.filter((f) => f.name.endsWith(".tmp") && Date.now() - f.modified > staleTemporaryMs);
  for (const old of [...caches.slice(keptCacheFiles), ...stale]) unlinkSync(old.path);
}

/**
 * Runs the CommonJS bundle at `file` as Node would `require` it, with its compiled code taken from (and
 * later saved to) the cache folder. The source keeps its line numbers: the wrapper opens on its first line.
 */
export function runCompiledProgram(file: string, options: RunOptions): CompiledProgram {
  // The build writes the bundle in ASCII, so Latin-1 reads it exactly, and faster than UTF-8.
  const source = readFileSync(file, "latin1");
  const programHash = programHashLine.exec(source)?.[1];
  const usable =
    programHash !== undefined && options.cacheDir !== null && privateFolder(options.cacheDir) !== "no";
  const dir = usable ? options.cacheDir : null;
  const cacheFile =
    dir === null || programHash === undefined
      ? null
      : join(dir, cacheFileName(file, programHash, options.purpose));
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
        writeCache(dir, cacheFile, programName(file), script.createCachedData());
      } catch {
        // A read-only or full disk: the next start compiles again, which is all the cache saves.
      }
    },
  };
}
