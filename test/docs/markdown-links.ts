// The relative links of a Markdown page and the anchors it offers, as GitHub renders them (headings get
// GitHub's slugs, numbered when repeated; `<a id>` and `<a name>` add their own).

export interface DocLink {
  /** 1-based line of the link. */
  readonly line: number;
  /** The target as written: `docs/engine.md#media-streams`, `#the-log`, `images/x.png`. */
  readonly target: string;
}

/** The page's lines with fenced code blocks blanked (kept as empty lines, so line numbers stay right). */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split("\n").map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return "";
    }
    if (marker) {
      fence = marker;
      return "";
    }
    return line;
  });
}

/** Inline code spans removed: a link or heading written inside backticks is text, not markup. */
const withoutCode = (line: string) => line.replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length));

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

/** Every link and image that points inside the repository: inline, reference definitions, and HTML. */
export function relativeLinks(text: string): DocLink[] {
  const links: DocLink[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = withoutCode(raw);
    const targets = [
      // [text](target "title") and ![alt](target)
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      // [label]: target
      ...[...line.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]!),
      // <a href="..."> and <img src="...">
      ...[...line.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)="([^"]+)"/gi)].map((m) => m[1]!),
    ];
    for (const target of targets) if (!isExternal(target)) links.push({ line: index + 1, target });
  });
  return links;
}

/**
 * GitHub's slug of a heading's text: the rendered text in lower case, every character that is not a letter,
 * mark, number, connector (`_`), hyphen or space dropped, each space a hyphen (as the github-slugger package
 * does).
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/`([^`]*)`/g, "$1");
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page offers: its headings' slugs (a repeated one gets -1, -2...) and explicit ids. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const lines = proseLines(text);
  lines.forEach((line, index) => {
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    // A setext heading: a line of text underlined with = or -.
    const next = lines[index + 1] ?? "";
    const setext = line.trim() !== "" && /^ {0,3}(=+|-+)\s*$/.test(next) && !/^\s*[-*+>|]/.test(line);
    const heading = atx ?? (setext ? line.trim() : undefined);
    if (heading !== undefined) {
      const slug = githubSlug(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s[^>]*?\b(?:id|name)="([^"]+)"/gi)) anchors.add(match[1]!);
  });
  return anchors;
}
