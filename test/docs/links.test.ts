// Every relative link of the README, the changelog, docs/ and the examples' READMEs points at a file of the
// repository, and every #anchor at a heading (GitHub's slug) or an explicit id of the page it names.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { anchorsOf, githubSlug, relativeLinks } from "./markdown-links.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => readFileSync(join(repo, path), "utf8");

const pages = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(join(repo, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
  ...readdirSync(join(repo, "examples"))
    .filter((name) => existsSync(join(repo, "examples", name, "README.md")))
    .sort()
    .map((name) => `examples/${name}/README.md`),
];

const anchorCache = new Map<string, Set<string>>();
const anchorsAt = (path: string) => {
  const known = anchorCache.get(path);
  if (known) return known;
  const anchors = anchorsOf(read(path));
  anchorCache.set(path, anchors);
  return anchors;
};

/** What is wrong with one link of `page`, or null when it leads somewhere. */
function problem(page: string, target: string): string | null {
  const hash = target.indexOf("#");
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const file = path === "" ? page : relative(repo, join(repo, dirname(page), path));
  if (file.startsWith("..")) return `${target} leads out of the repository`;
  if (!existsSync(join(repo, file))) return `${target}: no ${file}`;
  if (anchor === null) return null;
  if (!file.endsWith(".md") || statSync(join(repo, file)).isDirectory())
    return `${target}: an anchor into ${file}, which is not a Markdown page`;
  return anchorsAt(file).has(anchor) ? null : `${target}: ${file} has no heading or id "${anchor}"`;
}

describe("links between the pages", () => {
  it.each(pages)("%s: every relative link and anchor leads somewhere", (page) => {
    const broken = relativeLinks(read(page)).flatMap(({ line, target }) => {
      const found = problem(page, target);
      return found === null ? [] : [`${page}:${line}: ${found}`];
    });
    expect(broken).toEqual([]);
  });

  it("the docs index links every page of docs/", () => {
    const linked = new Set(relativeLinks(read("docs/README.md")).map(({ target }) => target.split("#")[0]));
    const unlisted = readdirSync(join(repo, "docs"))
      .filter((name) => name.endsWith(".md") && name !== "README.md")
      .filter((name) => !linked.has(name));
    expect(unlisted).toEqual([]);
  });
});

describe("the link checker", () => {
  it("makes GitHub's slugs", () => {
    expect(githubSlug("Persistence (`--data-dir`)")).toBe("persistence---data-dir");
    expect(githubSlug("WebSocket apps: media streams and ConversationRelay")).toBe(
      "websocket-apps-media-streams-and-conversationrelay",
    );
    expect(githubSlug("Dial: whisper, answerOnBridge, sendDigits, own numbers")).toBe(
      "dial-whisper-answeronbridge-senddigits-own-numbers",
    );
    expect(githubSlug("[Unreleased]")).toBe("unreleased");
    expect(githubSlug("snake_case and Ünïcode")).toBe("snake_case-and-ünïcode");
  });

  it("numbers repeated headings, reads explicit ids, and skips code", () => {
    const page = [
      "# Title",
      "## Usage",
      "## Usage",
      '<a id="custom"></a>Text',
      "```md",
      "## Not a heading",
      "[not a link](missing.md)",
      "```",
      "See [usage](#usage-1), `[code](nowhere.md)`, [site](https://example.com) and ![pic](images/a.png).",
      "[ref]: other.md#part",
    ].join("\n");
    expect([...anchorsOf(page)]).toEqual(["title", "usage", "usage-1", "custom"]);
    expect(relativeLinks(page)).toEqual([
      { line: 9, target: "#usage-1" },
      { line: 9, target: "images/a.png" },
      { line: 10, target: "other.md#part" },
    ]);
  });

  it("finds a broken anchor and a missing file", () => {
    expect(problem("README.md", "docs/webhooks.md#no-such-heading")).toMatch(/has no heading or id/);
    expect(problem("README.md", "docs/no-such-page.md")).toMatch(/no docs\/no-such-page\.md/);
    expect(problem("docs/README.md", "webhooks.md#library-mode")).toBeNull();
  });
});
