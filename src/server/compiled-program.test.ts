import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultCacheDir, type RunOptions, runCompiledProgram } from "./compiled-program.js";

let work = "";
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "compiled-program-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const importPackage = (name: string) => import(name);
const options = (cacheDir: string | null, purpose = "serve"): RunOptions => ({
  cacheDir,
  purpose,
  importPackage,
});
const greet = (exports: Record<string, unknown>, who: string) =>
  (exports.greet as (who: string) => string)(who);

/** One instant for every program file, as npm gives the files it unpacks: a file's time is part of the key. */
const unpackedAt = new Date("1985-10-26T08:15:00Z");

/**
 * A CommonJS program as the build writes one: the hash line, then code using what the wrapper passes in.
 * Each start gets a folder of its own: V8 keeps what a process compiled by source and file name, and a
 * second script of the same name and source would come from there, never reading the cache file.
 */
function writeProgram(start: string, name: string, hash: string, body: string): string {
  mkdirSync(join(work, start), { recursive: true });
  const file = join(work, start, name);
  writeFileSync(file, `// voice-sandbox program ${hash}\n${body}`);
  utimesSync(file, unpackedAt, unpackedAt);
  return file;
}

const program = `"use strict";
const { join } = require("node:path");
let calls = 0;
function greet(who) { calls++; return "hello " + who; }
module.exports = { greet, calls: () => calls, where: join(__dirname, "x"), file: __filename, load: __importPackage };
greet("start");
`;

describe("runCompiledProgram", () => {
  it("runs the program like require, and a save files its code where the next start takes it", () => {
    const cacheDir = join(work, "cache");
    const file = writeProgram("start-1", "cli-program.cjs", "a".repeat(64), program);
    const first = runCompiledProgram(file, options(cacheDir));
    expect(first.state).toBe("missing");
    expect(greet(first.exports, "you")).toBe("hello you");
    expect((first.exports.calls as () => number)()).toBe(2);
    expect(first.exports.where).toBe(join(work, "start-1", "x"));
    expect(first.exports.file).toBe(file);
    first.save();
    const [cacheFile] = readdirSync(cacheDir);
    expect(first.cacheFile).toBe(join(cacheDir, cacheFile!));
    expect(cacheFile).toMatch(
      new RegExp(`^cli-program-serve-node${process.version.slice(1)}-${process.arch}-[0-9a-f]{16}\\.cache$`),
    );
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(first.cacheFile!).mode & 0o777).toBe(0o600);

    const again = writeProgram("start-2", "cli-program.cjs", "a".repeat(64), program);
    const second = runCompiledProgram(again, options(cacheDir));
    expect(second.state).toBe("used");
    expect(second.cacheFile).toBe(first.cacheFile);
    expect(greet(second.exports, "again")).toBe("hello again");
    const before = statSync(second.cacheFile!).mtimeMs;
    second.save();
    expect(statSync(second.cacheFile!).mtimeMs).toBe(before);
  });

  it("keeps a cache for each command, since each holds what its own first run ran", () => {
    const cacheDir = join(work, "cache");
    const run = runCompiledProgram(
      writeProgram("s1", "p.cjs", "a".repeat(64), program),
      options(cacheDir, "run"),
    );
    run.save();
    const serve = runCompiledProgram(writeProgram("s2", "p.cjs", "a".repeat(64), program), options(cacheDir));
    expect(serve.state).toBe("missing");
    serve.save();
    expect(
      readdirSync(cacheDir)
        .map((name) => name.split("-")[1])
        .sort(),
    ).toEqual(["run", "serve"]);
    // Anything else (a flag, a mistyped command) shares one name, never a path made of it.
    expect(
      runCompiledProgram(writeProgram("s3", "p.cjs", "a".repeat(64), program), options(cacheDir, "../x"))
        .cacheFile,
    ).toMatch(/[/\\]p-other-node/);
  });

  it("hands the program the import() it is given", async () => {
    const file = writeProgram("start", "p.cjs", "b".repeat(64), program);
    const { exports } = runCompiledProgram(file, options(null));
    const os = (await (exports.load as typeof importPackage)("node:os")) as { homedir: () => string };
    expect(os.homedir()).toBe(homedir());
  });

  it("files a rebuilt program under its own hash, so it never runs another build's code", () => {
    const cacheDir = join(work, "cache");
    const one = runCompiledProgram(
      writeProgram("start-1", "one.cjs", "1".repeat(64), program),
      options(cacheDir),
    );
    one.save();
    // The same length, other code: V8 checks only the length, the file name tells them apart.
    const other = program.replace('"hello "', '"howdy "');
    const two = runCompiledProgram(
      writeProgram("start-2", "one.cjs", "2".repeat(64), other),
      options(cacheDir),
    );
    expect(two.state).toBe("missing");
    expect(greet(two.exports, "you")).toBe("howdy you");
  });

  it("does not run old code for a program edited in place, hash line and length unchanged", () => {
    const cacheDir = join(work, "cache");
    const file = writeProgram("start", "p.cjs", "3".repeat(64), program);
    runCompiledProgram(file, options(cacheDir)).save();
    writeFileSync(file, readFileSync(file, "latin1").replace('"hello "', '"howdy "'));
    const edited = runCompiledProgram(file, options(cacheDir));
    expect(edited.state).toBe("missing");
    expect(greet(edited.exports, "you")).toBe("howdy you");
  });

  it("compiles afresh and writes the cache again when V8 refuses the file found", () => {
    const cacheDir = join(work, "cache");
    const hash = "c".repeat(64);
    const first = runCompiledProgram(writeProgram("start-1", "p.cjs", hash, program), options(cacheDir));
    first.save();
    writeFileSync(first.cacheFile!, Buffer.from("not V8's cached data"));
    const second = runCompiledProgram(writeProgram("start-2", "p.cjs", hash, program), options(cacheDir));
    expect(second.state).toBe("missing");
    expect(greet(second.exports, "you")).toBe("hello you");
    second.save();
    expect(readFileSync(second.cacheFile!).length).toBeGreaterThan(100);
    const third = runCompiledProgram(writeProgram("start-3", "p.cjs", hash, program), options(cacheDir));
    expect(third.state).toBe("used");
  });

  it("runs without a cache when it is off or the bundle has no hash line", () => {
    const off = runCompiledProgram(writeProgram("start", "p.cjs", "d".repeat(64), program), options(null));
    expect(off.state).toBe("off");
    expect(off.cacheFile).toBeNull();
    off.save();
    const bare = join(work, "bare.cjs");
    writeFileSync(bare, program);
    const unhashed = runCompiledProgram(bare, options(join(work, "cache")));
    expect(unhashed.state).toBe("off");
    unhashed.save();
    expect(readdirSync(work)).not.toContain("cache");
  });

  it("takes no code from a folder others can write to, or one reached through a link", () => {
    const shared = join(work, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const inShared = runCompiledProgram(
      writeProgram("s1", "p.cjs", "f".repeat(64), program),
      options(shared),
    );
    expect(inShared.state).toBe("off");
    inShared.save();
    expect(readdirSync(shared)).toEqual([]);

    const real = join(work, "real");
    mkdirSync(real, { mode: 0o700 });
    const link = join(work, "link");
    symlinkSync(real, link);
    expect(
      runCompiledProgram(writeProgram("s2", "p.cjs", "f".repeat(64), program), options(link)).state,
    ).toBe("off");

    // A cache file others may write is not read (and the next save replaces it).
    const own = join(work, "own");
    const first = runCompiledProgram(writeProgram("s3", "p.cjs", "f".repeat(64), program), options(own));
    first.save();
    chmodSync(first.cacheFile!, 0o666);
    expect(runCompiledProgram(writeProgram("s4", "p.cjs", "f".repeat(64), program), options(own)).state).toBe(
      "missing",
    );
  });

  it("runs without a cache, and keeps starting, when the cache folder cannot be looked at", () => {
    // A path through a file stands for any folder this user cannot look at (another user's, behind a folder
    // closed to it): not a missing folder to make, so no cache is made for it either.
    const blocked = join(work, "a-file");
    writeFileSync(blocked, "");
    const run = runCompiledProgram(
      writeProgram("start", "p.cjs", "e".repeat(64), program),
      options(join(blocked, "cache")),
    );
    expect(run.state).toBe("off");
    expect(greet(run.exports, "you")).toBe("hello you");
    expect(() => run.save()).not.toThrow();
  });

  it("finds its cache when the program file's time comes back cut to the second, as an image's layers keep it", () => {
    const cacheDir = join(work, "cache");
    const built = new Date("2026-11-27T15:00:00.750Z");
    const first = writeProgram("start", "cli-program.cjs", "d".repeat(64), program);
    utimesSync(first, built, built);
    runCompiledProgram(first, options(cacheDir)).save();
    // The same file in a container: its time without the fraction of a second.
    const inImage = writeProgram("image", "cli-program.cjs", "d".repeat(64), program);
    const cut = new Date("2026-11-27T15:00:00.000Z");
    utimesSync(inImage, cut, cut);
    expect(runCompiledProgram(inImage, options(cacheDir)).state).toBe("used");
    // A second later is another file as far as the cache knows.
    const later = new Date("2026-11-27T15:00:01.000Z");
    const edited = writeProgram("edited", "cli-program.cjs", "d".repeat(64), program);
    utimesSync(edited, later, later);
    expect(runCompiledProgram(edited, options(cacheDir)).state).toBe("missing");
  });

  it("keeps the program's newest eight cache files, deletes its stale temporary files, and leaves others' alone", () => {
    const cacheDir = join(work, "cache");
    mkdirSync(cacheDir, { mode: 0o700 });
    writeFileSync(join(cacheDir, "other-tool.cache"), "");
    const stale = join(cacheDir, "p-serve-node0-x64-0000000000000000.cache.1-abcd.tmp");
    writeFileSync(stale, "");
    utimesSync(stale, 1_000, 1_000);
    const fresh = join(cacheDir, "p-serve-node0-x64-1111111111111111.cache.2-abcd.tmp");
    writeFileSync(fresh, "");
    for (let n = 0; n < 10; n++) {
      const run = runCompiledProgram(
        writeProgram(`start-${n}`, "p.cjs", String(n).repeat(64), program),
        options(cacheDir),
      );
      run.save();
      // Apart in time, oldest first, whatever the file system's time resolution.
      utimesSync(run.cacheFile!, 1_000 + n, 1_000 + n);
    }
    const ours = readdirSync(cacheDir).filter((name) => name.startsWith("p-") && name.endsWith(".cache"));
    expect(ours).toHaveLength(8);
    expect(readdirSync(cacheDir)).toContain("other-tool.cache");
    expect(readdirSync(cacheDir)).toContain("p-serve-node0-x64-1111111111111111.cache.2-abcd.tmp");
    expect(readdirSync(cacheDir)).not.toContain("p-serve-node0-x64-0000000000000000.cache.1-abcd.tmp");
  });
});

describe("defaultCacheDir", () => {
  it("is the user's cache folder, or the one given, or none when turned off", () => {
    const home = join(homedir(), ".cache", "voice-sandbox");
    expect(defaultCacheDir({})).toBe(home);
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/voice-sandbox");
    // The XDG spec: a relative path is ignored.
    expect(defaultCacheDir({ XDG_CACHE_HOME: "x/cache" })).toBe(home);
    expect(defaultCacheDir({ VOICE_SANDBOX_COMPILE_CACHE: "/somewhere" })).toBe("/somewhere");
    expect(defaultCacheDir({ VOICE_SANDBOX_COMPILE_CACHE: "here" })).toBe(resolve("here"));
    for (const off of ["off", "OFF", "0", "false", "no"])
      expect(defaultCacheDir({ VOICE_SANDBOX_COMPILE_CACHE: off }), off).toBeNull();
    expect(defaultCacheDir({ NODE_DISABLE_COMPILE_CACHE: "1" })).toBeNull();
    expect(defaultCacheDir({ VOICE_SANDBOX_COMPILE_CACHE: "" })).toBe(home);
  });
});
