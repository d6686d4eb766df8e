// The engine's rooms (docs/architecture.md): every engine file lives in a room, each room imports only the rooms
// the table allows, and no import circle passes the lint, type-only imports included.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const biome = join(root, "node_modules", ".bin", "biome");
const engine = join(root, "src", "engine");

/** The rooms table of docs/architecture.md: room -> the rooms it may import. */
function documentedRooms(): Map<string, string[]> {
  const doc = readFileSync(join(root, "docs", "architecture.md"), "utf8");
  const start = doc.indexOf("| room | owns | may import (of the engine's rooms) |");
  expect(start, "docs/architecture.md has the engine's rooms table").toBeGreaterThan(-1);
  const rooms = new Map<string, string[]>();
  for (const line of doc.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split("|").map((cell) => cell.trim());
    const room = /^`([a-z-]+)\/`$/.exec(cells[1] ?? "")?.[1];
    expect(room, `a room cell reads \`name/\`: ${line}`).toBeDefined();
    const allowed =
      cells[3] === "nothing" ? [] : [...(cells[3] ?? "").matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]!);
    rooms.set(room!, allowed);
  }
  return rooms;
}

interface Diagnostic {
  category: string;
  location: { path: string };
}

/** Lints the probe files in a scratch copy of the project's lint settings; the paths each rule flagged. */
function lintProbes(files: Record<string, string>): Map<string, Set<string>> {
  const scratch = mkdtempSync(join(tmpdir(), "voice-sandbox-rooms-"));
  try {
    const config = JSON.parse(readFileSync(join(root, "biome.json"), "utf8")) as Record<string, unknown>;
    delete config.vcs;
    delete config.$schema;
    (config.files as { includes: string[] }).includes = ["src/**"];
    writeFileSync(join(scratch, "biome.json"), JSON.stringify(config));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, file)), { recursive: true });
      writeFileSync(join(scratch, file), text);
    }
    let output: string;
    try {
      output = execFileSync(biome, ["lint", "--reporter=json", "--max-diagnostics=none", "src"], {
        cwd: scratch,
        stdio: "pipe",
        encoding: "utf8",
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? "");
    }
    const flagged = new Map<string, Set<string>>();
    for (const diagnostic of (JSON.parse(output) as { diagnostics: Diagnostic[] }).diagnostics) {
      const seen = flagged.get(diagnostic.category) ?? new Set<string>();
      seen.add(diagnostic.location.path.replaceAll("\\", "/"));
      flagged.set(diagnostic.category, seen);
    }
    return flagged;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const probe = (specifier: string) =>
  `// A probe.\nimport type { Probe } from "${specifier}";\n\nexport type Seen = Probe;\n`;

const rooms = documentedRooms();

describe("the engine's rooms", () => {
  it("every engine file lives in a room of the table, and every room of the table is a folder", () => {
    const entries = readdirSync(engine);
    expect(entries.filter((entry) => !statSync(join(engine, entry)).isDirectory())).toEqual([]);
    expect(entries.sort()).toEqual([...rooms.keys()].sort());
  });

  it("the table's rooms import only rooms of the table, and none imports itself", () => {
    for (const [room, allowed] of rooms) {
      for (const other of allowed) {
        expect(rooms.has(other), `${room}/ may import ${other}/, a room of the table`).toBe(true);
        expect(other).not.toBe(room);
      }
    }
  });

  it("the lint allows exactly the imports the table allows, between every pair of rooms", () => {
    const files: Record<string, string> = {};
    for (const room of rooms.keys()) {
      for (const other of rooms.keys()) {
        if (other !== room) files[`src/engine/${room}/probe-${other}.ts`] = probe(`../${other}/probe.js`);
      }
      // Within a room, and down to the layers below the engine, imports are free.
      files[`src/engine/${room}/probe-own.ts`] = probe("./probe.js");
      files[`src/engine/${room}/probe-domain.ts`] = probe("../../domain/call.js");
    }
    const flagged = lintProbes(files).get("lint/style/noRestrictedImports") ?? new Set();
    const verdicts: string[] = [];
    const expected: string[] = [];
    for (const [room, allowed] of rooms) {
      for (const other of [...rooms.keys(), "own", "domain"]) {
        if (other === room) continue;
        const file = `src/engine/${room}/probe-${other}.ts`;
        verdicts.push(`${room} -> ${other}: ${flagged.has(file) ? "refused" : "allowed"}`);
        const allow = other === "own" || other === "domain" || allowed.includes(other);
        expected.push(`${room} -> ${other}: ${allow ? "allowed" : "refused"}`);
      }
    }
    expect(verdicts).toEqual(expected);
  });

  it("an engine room still may not import the layers above the engine", () => {
    const flagged =
      lintProbes({
        "src/engine/calls/probe-http.ts": probe("../../http/services.js"),
        "src/engine/time/probe-sandbox.ts": probe("../../sandbox.js"),
      }).get("lint/style/noRestrictedImports") ?? new Set();
    expect([...flagged].sort()).toEqual([
      "src/engine/calls/probe-http.ts",
      "src/engine/time/probe-sandbox.ts",
    ]);
  });
});

describe("import circles", () => {
  it("a circle of type-only imports fails the lint", () => {
    const flagged =
      lintProbes({
        "src/engine/time/probe-a.ts": probe("./probe-b.js"),
        "src/engine/time/probe-b.ts": probe("./probe-a.js"),
        "src/domain/probe-c.ts": probe("./probe-d.js"),
        "src/domain/probe-d.ts": probe("./probe-e.js"),
        "src/domain/probe-e.ts": probe("./probe-c.js"),
        "src/domain/probe-f.ts": probe("./probe-c.js"),
      }).get("lint/suspicious/noImportCycles") ?? new Set();
    expect([...flagged].sort()).toEqual([
      "src/domain/probe-c.ts",
      "src/domain/probe-d.ts",
      "src/domain/probe-e.ts",
      "src/engine/time/probe-a.ts",
      "src/engine/time/probe-b.ts",
    ]);
  });
});
