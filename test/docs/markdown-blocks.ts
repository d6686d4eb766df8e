// Finds the fenced code blocks of a Markdown page, with the `<!-- doc-test: ... -->` marker written just above each.

/** How a block is checked when the default for its language does not fit (see docs/development.md). */
export type MarkerKind = "skip" | "output" | "typecheck" | "server" | "setup" | "same-as";

export interface DocBlock {
  /** Page path relative to the repository, e.g. `docs/webhooks.md`. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** First word of the info string (`ts`, `sh`, `yaml`...), or "" for a plain fence. */
  readonly lang: string;
  readonly code: string;
  readonly marker?: { readonly kind: MarkerKind; readonly note: string };
}

const markerKinds: readonly MarkerKind[] = ["skip", "output", "typecheck", "server", "setup", "same-as"];
const markerLine = /^<!--\s*doc-test:\s*([a-z-]+)\s*(.*?)\s*-->$/;

export function extractBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith("```"); i++) body.push(lines[i]!);
    const above = markerLine.exec(lines[start - 1] ?? "");
    if (above && !markerKinds.includes(above[1] as MarkerKind))
      throw new Error(`${file}:${start}: unknown doc-test marker "${above[1]}"`);
    blocks.push({
      file,
      line: start + 1,
      lang: open[1] ?? "",
      code: `${body.join("\n")}\n`,
      ...(above
        ? { marker: { kind: above[1] as MarkerKind, note: above[2]!.replace(/^\((.*)\)$/, "$1") } }
        : {}),
    });
  }
  return blocks;
}
