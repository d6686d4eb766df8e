// Timeline snapshots beside a scenario file: written on the first run, compared after, rewritten on request.
import { writeFileSync } from "node:fs";
import { createTwoFilesPatch } from "diff";
import { FileReadError, readBoundedText } from "../fixtures/bounded-read.js";

/** What to do with a scenario's snapshot file: compare (writing it when missing), or rewrite it. */
export type SnapshotMode = "compare" | "update";

export type SnapshotOutcome =
  | { status: "written" | "matched" | "updated"; file: string }
  | { status: "differs"; file: string; diff: string[] };

/** The snapshot file of a scenario file: `voicemail.yaml` keeps `voicemail.yaml.snap` beside it. */
export const snapshotPathOf = (scenarioFile: string) => `${scenarioFile}.snap`;

const header = (name: string) =>
  `# Timeline of scenario "${name}", written by voice-sandbox. Rewrite with --update-snapshots.\n`;

export function checkSnapshot(
  scenarioFile: string,
  name: string,
  timeline: string,
  mode: SnapshotMode,
): SnapshotOutcome {
  const file = snapshotPathOf(scenarioFile);
  const text = header(name) + timeline;
  let saved: string;
  try {
    saved = readBoundedText(file);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    if (error.code !== "ENOENT") throw new Error(`cannot read the snapshot file ${file} (${error.reason})`);
    writeFileSync(file, text);
    return { status: "written", file };
  }
  if (saved === text) return { status: "matched", file };
  if (mode === "update") {
    writeFileSync(file, text);
    return { status: "updated", file };
  }
  // A unified diff of the two texts, without the patch's own header lines.
  const patch = createTwoFilesPatch(file, "this run", saved, text, "", "", { context: 3 });
  return {
    status: "differs",
    file,
    diff: patch.split("\n").filter((l) => !/^(=+|Index: .*)$/.test(l) && l !== ""),
  };
}
