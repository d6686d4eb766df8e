// Where the package's own files are (package.json, fixtures, the inspector's browser code), from any module depth.
import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The shipped code is bundled (one file per entry point plus shared chunks), so a module's own location
 * says nothing about where the package's files are. The package root is the nearest folder above this
 * code that holds a package.json: `dist/` and `src/` hold none.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; ) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`voice-sandbox: no package.json above ${from}`);
    dir = parent;
  }
}

const here = dirname(fileURLToPath(import.meta.url));

export const packageRoot = findPackageRoot(here);

/** `dist` for the built package, `src` when the sources run directly (tests, tsx). */
const codeFolder = relative(packageRoot, here).split(sep)[0] || "dist";

/** A path under the package root. */
export const packageFile = (...parts: string[]) => join(packageRoot, ...parts);

/** A path under the folder the running code came from (`dist` or `src`), e.g. the inspector's browser files. */
export const codeFile = (...parts: string[]) => join(packageRoot, codeFolder, ...parts);

export const defaultFixturesPath = packageFile("fixtures", "default.yaml");
