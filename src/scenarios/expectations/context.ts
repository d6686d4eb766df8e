// What the expectation checks share: the context they read, how a list expectation is written, and how
// values read in a failure's message.
import type { HandlerHost } from "../handler-host.js";
import type { Observer } from "../observe.js";
import type { ScenarioFailure } from "../result.js";
import { mismatches } from "./match.js";

export interface CheckContext {
  observer: Observer;
  host: HandlerHost;
  where(path: readonly (string | number)[]): string | null;
}

export type Path = (string | number)[];
export type Entry = Record<string, unknown>;
export const show = (value: unknown) => (value === undefined ? "missing" : JSON.stringify(value));
export const dotted = (path: Path) => path.map(String).join(".");
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function callContext(ctx: CheckContext, id: string, sid: string): ScenarioFailure["call"] {
  return { id, sid, timeline: sliceTimeline(ctx.observer.timeline(sid)) };
}

/** At most 40 lines: the first 10 and the last 30, which hold the end of the call where most failures show. */
function sliceTimeline(lines: string[]): string[] {
  if (lines.length <= 40) return lines;
  return [...lines.slice(0, 10), `... ${lines.length - 40} more ...`, ...lines.slice(-30)];
}

export function describeMismatches(list: ReturnType<typeof mismatches>): string {
  return list
    .map((m) => `${m.path || "value"} is ${show(m.actual)}, expected ${show(m.expected)}`)
    .join("; ");
}

export const matches = (expected: Entry, actual: Entry) => mismatches(expected, actual).length === 0;

/** A list expectation as written: its entries, and whether it allows nothing else (`exactly`/`only`). */
export function listForm(value: unknown): { entries: Entry[]; exact: boolean; at: Path } {
  if (Array.isArray(value)) return { entries: value as Entry[], exact: false, at: [] };
  const form = value as { exactly?: Entry[]; only?: Entry[] };
  if (form.exactly) return { entries: form.exactly, exact: true, at: ["exactly"] };
  return { entries: form.only ?? [], exact: true, at: ["only"] };
}

export const withoutCount = ({ count: _count, ...rest }: Entry) => rest;
