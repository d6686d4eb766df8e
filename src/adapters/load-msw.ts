// Loads msw on first use, synchronously, so importing the library costs nothing for msw until handlers are asked for.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

type Msw = typeof import("msw");

const requireHere = createRequire(import.meta.url);
let loaded: Msw | undefined;

/**
 * The same msw instance the test suite imports: its ES module entry, required synchronously (Node >= 20.19
 * loads ES modules through `require`). Older Nodes fall back to msw 2's CommonJS build, which serves as well:
 * msw recognises request handlers by their `kind`, not by class identity.
 */
export function loadMsw(): Msw {
  if (loaded) return loaded;
  try {
    loaded = requireHere(fileURLToPath(import.meta.resolve("msw"))) as Msw;
  } catch {
    loaded = requireHere("msw") as Msw;
  }
  return loaded;
}
