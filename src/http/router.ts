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

export function createRouter(routes: AnyRoute[]) {
  // Bucket routes by their first two path segments so a lookup only tries a handful of patterns.
  const buckets = new Map<string, CompiledRoute[]>();
  const bucketOf = (path: string) => path.split("/", 3).join("/");
  for (const route of routes) {
    const key = bucketOf(route.path);
    const list = buckets.get(key) ?? [];
    list.push(compile(route));
    buckets.set(key, list);
  }

  return {
    match(method: string, path: string): RouteMatch {
      const candidates = buckets.get(bucketOf(path));
      if (!candidates) return { kind: "none" };
      const allowed: string[] = [];
      for (const compiled of candidates) {
        const m = compiled.pattern.exec(path);
        if (!m) continue;
        if (compiled.route.method !== method) {
          allowed.push(compiled.route.method);
          continue;
        }
        const params: Record<string, string> = {};
        compiled.names.forEach((name, i) => {
          params[name] = safeDecode(m[i + 1]!);
        });
        return { kind: "found", route: compiled.route, params };
      }
      return allowed.length > 0 ? { kind: "wrong-method", allowed: [...new Set(allowed)] } : { kind: "none" };
    },
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
