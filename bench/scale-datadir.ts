// Writes the scale benchmark's state (N calls and N messages with their events) to a data directory and keeps it, to time restarts of it again and again: `npx tsx bench/scale-datadir.ts 1000000 /tmp/dir`, then `npx tsx bench/scale-restart.ts /tmp/dir 2000000`.
import { distUrl } from "./lib.js";
import { fill } from "./scale-fill.js";

const [size, dir] = [Number(process.argv[2] ?? 1_000_000), process.argv[3]];
if (!dir) throw new Error("usage: scale-datadir.ts <size> <dir>");
const { createSandboxCore } = (await import(distUrl("sandbox.js"))) as typeof import("../src/sandbox.js");
const { openDataDir } = (await import(
  distUrl("server/persistence/data-dir.js")
)) as typeof import("../src/server/persistence/data-dir.js");
// Every record kept: the benchmark weighs a state of this size, which the default bound on records would cut.
const sandbox = createSandboxCore({ clock: "virtual", retain: false });
await fill(sandbox, size);
const writer = await openDataDir(sandbox, dir);
await writer.close();
console.log(`wrote ${2 * size} records to ${dir}`);
