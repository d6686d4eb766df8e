import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultCacheDir, runCompiledProgram } from "./compiled-program.js";

let work = "";
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "compiled-program-"));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const importPackage = (name: string) => import(name);

/**
 * A CommonJS program as the build writes one: the hash line, then code using what the wrapper passes in.
 * Each start gets a folder of its own: V8 keeps what a process compiled by source and file name, and a
 * second script of the same name and source would come from there, never reading the cache file.
 */
function writeProgram(start: string, name: string, hash: string, body: string): string {
  mkdirSync(join(work, start), { recursive: true });
  const file = join(work, start, name);
  writeFileSync(file, `// voice-sandbox program ${hash}\n${body}`);
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
    const first = runCompiledProgram(file, { cacheDir, importPackage });
    expect(first.state).toBe("missing");
    expect((first.exports.greet as (who: string) => string)("you")).toBe("hello you");
    expect((first.exports.calls as () => number)()).toBe(2);
    expect(first.exports.where).toBe(join(work, "start-1", "x"));
    expect(first.exports.file).toBe(file);
    first.save();
    const [cacheFile] = readdirSync(cacheDir);
    expect(first.cacheFile).toBe(join(cacheDir, cacheFile!));
    expect(cacheFile).toMatch(
      new RegExp(`^cli-program-a{16}-node${process.version.slice(1)}-${process.arch}-[0-9a-f]{8}\\.cache$`),
    );
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(first.cacheFile!).mode & 0o777).toBe(0o600);

    const again = writeProgram("start-2", "cli-program.cjs", "a".repeat(64), program);
    const second = runCompiledProgram(again, { cacheDir, importPackage });
    expect(second.state).toBe("used");
    expect(second.cacheFile).toBe(first.cacheFile);
    expect((second.exports.greet as (who: string) => string)("again")).toBe("hello again");
    const before = statSync(second.cacheFile!).mtimeMs;
    second.save();
    expect(statSync(second.cacheFile!).mtimeMs).toBe(before);
  });

  it("hands the program the import() it is given", async () => {
    const file = writeProgram("start", "p.cjs", "b".repeat(64), program);
    const { exports } = runCompiledProgram(file, { cacheDir: null, importPackage });
    const os = (await (exports.load as typeof importPackage)("node:os")) as { homedir: () => string };
    expect(os.homedir()).toBe(homedir());
  });

  it("files a rebuilt program under its own hash, so it never runs another build's code", () => {
    const cacheDir = join(work, "cache");
    const one = runCompiledProgram(writeProgram("start-1", "one.cjs", "1".repeat(64), program), {
      cacheDir,
      importPackage,
    });
    one.save();
    // The same length, other code: V8 checks only the length, the file name tells them apart.
    const other = program.replace('"hello "', '"howdy "');
    const two = runCompiledProgram(writeProgram("start-2", "one.cjs", "2".repeat(64), other), {
      cacheDir,
      importPackage,
    });
    expect(two.state).toBe("missing");
    expect((two.exports.greet as (who: string) => string)("you")).toBe("howdy you");
  });

  it("compiles afresh and writes the cache again when V8 refuses the file found", () => {
    const cacheDir = join(work, "cache");
    const hash = "c".repeat(64);
    const first = runCompiledProgram(writeProgram("start-1", "p.cjs", hash, program), {
      cacheDir,
      importPackage,
    });
    first.save();
    writeFileSync(first.cacheFile!, Buffer.from("not V8's cached data"));
    const second = runCompiledProgram(writeProgram("start-2", "p.cjs", hash, program), {
      cacheDir,
      importPackage,
    });
    expect(second.state).toBe("missing");
    expect((second.exports.greet as (who: string) => string)("you")).toBe("hello you");
    second.save();
    expect(readFileSync(second.cacheFile!).length).toBeGreaterThan(100);
    const third = runCompiledProgram(writeProgram("start-3", "p.cjs", hash, program), {
      cacheDir,
      importPackage,
    });
    expect(third.state).toBe("used");
  });

  it("runs without a cache when it is off or the bundle has no hash line", () => {
    const off = runCompiledProgram(writeProgram("start", "p.cjs", "d".repeat(64), program), {
      cacheDir: null,
      importPackage,
    });
    expect(off.state).toBe("off");
    expect(off.cacheFile).toBeNull();
    off.save();
    const bare = join(work, "bare.cjs");
    writeFileSync(bare, program);
    const unhashed = runCompiledProgram(bare, { cacheDir: join(work, "cache"), importPackage });
    expect(unhashed.state).toBe("off");
    unhashed.save();
    expect(readdirSync(work)).not.toContain("cache");
  });

  it("keeps starting when the cache folder cannot be written", () => {
    const blocked = join(work, "a-file");
    writeFileSync(blocked, "");
    const run = runCompiledProgram(writeProgram("start", "p.cjs", "e".repeat(64), program), {
      cacheDir: join(blocked, "cache"),
      importPackage,
    });
    expect(run.state).toBe("missing");
    expect(() => run.save()).not.toThrow();
  });

  it("keeps the newest eight cache files and deletes older ones", () => {
    const cacheDir = join(work, "cache");
    for (let n = 0; n < 10; n++) {
      const run = runCompiledProgram(writeProgram("start", `p${n}.cjs`, String(n).repeat(64), program), {
        cacheDir,
        importPackage,
      });
      run.save();
      // One second apart, oldest first, whatever the file system's time resolution.
      utimesSync(run.cacheFile!, 1_000 + n, 1_000 + n);
    }
    const kept = readdirSync(cacheDir).sort();
    expect(kept).toHaveLength(8);
    expect(kept.some((name) => name.startsWith("p0-"))).toBe(false);
    expect(kept.some((name) => name.startsWith("p9-"))).toBe(true);
  });
});

describe("defaultCacheDir", () => {
  it("is the user's cache folder, or the one given, or none when turned off", () => {
    expect(defaultCacheDir({ HOME: "/home/u" })).toBe(join(homedir(), ".cache", "voice-sandbox"));
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/voice-sandbox");
    expect(defaultCacheDir({ VOICE_SANDBOX_COMPILE_CACHE: "/somewhere" })).toBe("/somewhere");
    expect(defaultCacheDir({ VOICE_SANDBOX_COMPILE_CACHE: "off" })).toBeNull();
    expect(defaultCacheDir({ NODE_DISABLE_COMPILE_CACHE: "1" })).toBeNull();
    expect(defaultCacheDir({ VOICE_SANDBOX_COMPILE_CACHE: "" })).toBe(
      join(homedir(), ".cache", "voice-sandbox"),
    );
  });
});
