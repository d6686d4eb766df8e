// Rooms stay readable (docs/architecture.md): no source file over 400 lines and no function over 150, so each
// behaviour is a function a reader finds by name. Tests are not held to it.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const maxFileLines = 400;
const maxFunctionLines = 150;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Functions (of every kind, nested ones too) longer than `max` lines, first line to closing brace. */
function longFunctions(file: string, text: string, max: number): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > max) {
        const named = "name" in node && node.name ? node.name.getText(source) : undefined;
        const declared = ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : undefined;
        found.push(`${file}:${first + 1} ${named ?? declared ?? "(anonymous)"} ${last - first + 1} lines`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles(join(root, "src")).map((path) => ({
  name: relative(root, path).replaceAll("\\", "/"),
  text: readFileSync(path, "utf8"),
}));

describe("size limits", () => {
  it(`no source file is over ${maxFileLines} lines`, () => {
    const long = files
      .map(({ name, text }) => ({ name, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) }))
      .filter(({ lines }) => lines > maxFileLines)
      .map(({ name, lines }) => `${name} ${lines} lines`);
    expect(long).toEqual([]);
  });

  it(`no function in a source file is over ${maxFunctionLines} lines`, () => {
    expect(files.flatMap(({ name, text }) => longFunctions(name, text, maxFunctionLines))).toEqual([]);
  });

  it("the check counts a function the way it is meant to", () => {
    const body = Array.from({ length: maxFunctionLines - 1 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    expect(
      longFunctions(
        "a.ts",
        `function fits() {\n${body.split("\n").slice(1).join("\n")}\n}\n`,
        maxFunctionLines,
      ),
    ).toEqual([]);
    expect(longFunctions("b.ts", `const over = () => {\n${body}\n};\n`, maxFunctionLines)).toEqual([
      "b.ts:1 over 151 lines",
    ]);
  });
});
