// Finds the route for a method and path; tells 404 (no such path) from 405 (wrong method).
import type { AnyRoute } from "./route.js";

interface CompiledRoute {
  route: AnyRoute;
  pattern: RegExp;
  names: string[];
}

export type RouteMatch =
  | { kind: "found"; route: AnyRoute; params: Record<string, string> }
  | { kind: "wrong-method"; allowed: string[] }
  | { kind: "none" };

function compile(route: AnyRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((segment) =>
      segment.replace(
        /:([A-Za-z_][A-Za-z0-9_]*)|([^:]+)/g,
        (_, name: string | undefined, literal: string | undefined) => {
          if (name) {
            names.push(name);
            return "([^/]+?)";
          }
          return literal!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        },
      ),
    )
    .join("/");
  // Account API resources answer with and without Twilio's `.json` suffix.
  const suffix = route.surface === "account" ? "(?:\\.json)?" : "";
  return { route, pattern: new RegExp(`^${source}${suffix}$`), names };
}

/** Segment count of a path, ignoring a trailing slash. */
const segmentCount = (path: string) => {
  let count = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) count++;
  return path.endsWith("/") ? count - 1 : count;
};

export function createRouter(routes: AnyRoute[]) {
  // Routes by method, first two segments and segment count: a lookup tries only a handful of patterns,
  // however many routes the table holds.
  const buckets = new Map<string, CompiledRoute[]>();
  // `/2010-04-01/Accounts.json` shares its bucket with `/2010-04-01/Accounts`: the suffix is not part of the prefix.
  // The path up to its third slash (its first three `/`-separated parts), found without splitting it.
  const prefixOf = (path: string) => {
    const first = path.indexOf("/");
    const second = first < 0 ? -1 : path.indexOf("/", first + 1);
    const third = second < 0 ? -1 : path.indexOf("/", second + 1);
    const prefix = third < 0 ? path : path.slice(0, third);
    return prefix.endsWith(".json") ? prefix.slice(0, -5) : prefix;
  };
  const keyOf = (method: string, path: string) => `${method} ${prefixOf(path)} ${segmentCount(path)}`;
  const all: CompiledRoute[] = [];
  for (const route of routes) {
    const compiled = compile(route);
    all.push(compiled);
    const key = keyOf(route.method, route.path);
    const list = buckets.get(key) ?? [];
    list.push(compiled);
    buckets.set(key, list);
  }

  const paramsOf = (compiled: CompiledRoute, m: RegExpExecArray) => {
    const params: Record<string, string> = {};
    const names = compiled.names;
    for (let i = 0; i < names.length; i++) params[names[i]!] = safeDecode(m[i + 1]!);
    return params;
  };

  return {
    match(method: string, path: string): RouteMatch {
      for (const compiled of buckets.get(keyOf(method, path)) ?? []) {
        const m = compiled.pattern.exec(path);
        if (m) return { kind: "found", route: compiled.route, params: paramsOf(compiled, m) };
      }
      // Slow path, only for errors: is there a route for this path under another method?
      const allowed = all.filter((c) => c.pattern.test(path)).map((c) => c.route.method);
      return allowed.length > 0 ? { kind: "wrong-method", allowed: [...new Set(allowed)] } : { kind: "none" };
    },
  };
}

function safeDecode(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
