// A scenario's WebSocket apps: `{apps.name}` in inline markup stands for the URL the file or the run gives.
import type { MarkupNode } from "../markup/parse.js";
import { webSocketUrlField } from "./schema/fields.js";
import type { Scenario } from "./schema.js";

/** `{apps.echo}`: the placeholder inline markup writes for an app's base URL. */
const placeholder = /\{apps\.([A-Za-z][\w-]*)\}/g;

/** The names of apps the text refers to, in order of first use. */
export function appsNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(placeholder)].map((m) => m[1]!))];
}

const xmlEscapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Markup with every `{apps.name}` replaced by the app's URL (XML-escaped, as it sits in an attribute). */
export function fillApps(markup: string, urls: ReadonlyMap<string, string>): string {
  return markup.replace(placeholder, (whole, name: string) => {
    const url = urls.get(name);
    return url === undefined ? whole : url.replace(/[&<>"']/g, (c) => xmlEscapes[c]!);
  });
}

/**
 * The URL of each app: the run's (`apps` option) over the file's. `missing` lists apps the file leaves to
 * the run (null) that the run did not give; `invalid` the run's URLs that are not WebSocket URLs.
 */
export function resolveApps(
  scenario: Scenario,
  given: Readonly<Record<string, string>> | undefined,
): { urls: Map<string, string>; missing: string[]; invalid: string[] } {
  const urls = new Map<string, string>();
  const missing: string[] = [];
  const invalid: string[] = [];
  for (const [name, url] of Object.entries(scenario.apps)) if (url !== null) urls.set(name, url);
  for (const [name, url] of Object.entries(given ?? {})) {
    if (!webSocketUrlField.safeParse(url).success) invalid.push(`${name}=${url}`);
    else urls.set(name, url.replace(/\/+$/, ""));
  }
  for (const name of Object.keys(scenario.apps)) if (!urls.has(name)) missing.push(name);
  return { urls, missing, invalid };
}

/** Reads `name=url` pairs (the CLI's --app and the HTTP route's ?app=) into an apps option. */
export function parseAppPairs(pairs: readonly string[]): Record<string, string> {
  const apps: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`"${pair}" is not name=url (e.g. echo=ws://127.0.0.1:3002)`);
    apps[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return apps;
}

/** Why a `<Stream>` or `<ConversationRelay>` URL written inline could not reach a WebSocket app, or null. */
function socketUrlProblem(url: string, known: ReadonlySet<string>): string | null {
  // An unknown app is reported once for the whole document.
  if (appsNamedIn(url).some((name) => !known.has(name))) return null;
  const filled = url.replace(placeholder, "ws://app.invalid");
  if (!/^[a-z][a-z0-9+.-]*:/i.test(filled))
    return `the WebSocket URL "${url}" is relative: inline markup is served by the scenario itself, which has no WebSocket server; write {apps.name}/path (with the app under apps) or an absolute ws:// URL`;
  if (!/^wss?:\/\//i.test(filled) || !URL.canParse(filled)) return `"${url}" is not a ws:// or wss:// URL`;
  return null;
}

/** Problems with the apps an inline document refers to: unknown names, WebSocket URLs that cannot work. */
export function inlineAppProblems(
  markup: string,
  verbs: readonly MarkupNode[],
  scenario: Scenario,
): string[] {
  const known = new Set(Object.keys(scenario.apps));
  const problems = appsNamedIn(markup)
    .filter((name) => !known.has(name))
    .map((name) => `{apps.${name}} names no app: list it under apps (its URL, or null for the run to give)`);
  const walk = (nodes: readonly MarkupNode[]) => {
    for (const node of nodes) {
      if ((node.name === "Stream" || node.name === "ConversationRelay") && node.attrs.url !== undefined) {
        const problem = socketUrlProblem(node.attrs.url, known);
        if (problem) problems.push(`<${node.name} url>: ${problem}`);
      }
      walk(node.children);
    }
  };
  walk(verbs);
  return problems;
}
