// `{ sid_of: name }` in an expectation, read when it is checked: the sid the name stands for at that moment.
import type { CheckContext, Entry } from "./context.js";
import { SidRef } from "./match.js";

const isSidOf = (v: unknown): v is { sid_of: string } =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  Object.keys(v).length === 1 &&
  typeof (v as { sid_of?: unknown }).sid_of === "string";

/** The value with every `{ sid_of: name }` in it replaced by the sid it stands for (a SidRef). */
export function resolveRefs(ctx: CheckContext, value: unknown): unknown {
  if (isSidOf(value)) return new SidRef(value.sid_of, ctx.observer.sidOf(value.sid_of) ?? null);
  if (Array.isArray(value)) return value.map((v) => resolveRefs(ctx, v));
  if (typeof value === "object" && value !== null && !(value instanceof SidRef)) {
    const out: Entry = {};
    for (const [key, v] of Object.entries(value)) out[key] = resolveRefs(ctx, v);
    return out;
  }
  return value;
}

export const resolveEntry = (ctx: CheckContext, entry: Entry): Entry => resolveRefs(ctx, entry) as Entry;
