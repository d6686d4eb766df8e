// Checks a list of records against a list expectation: in order with others between, or exactly, with counts.
import type { ScenarioFailure } from "../result.js";
import {
  type CheckContext,
  describeMismatches,
  dotted,
  type Entry,
  listForm,
  matches,
  type Path,
  plural,
  withoutCount,
} from "./context.js";
import { closest, matchInOrder, mismatches, project } from "./match.js";

/** What a list check needs: the records, how entries read (call ids to sids), words for messages. */
export interface Sequence {
  /** Where the list is written, e.g. ["expect", "webhooks"]. */
  path: Path;
  /** How it reads in a message: `webhooks`, `call c1 heard`, `call c1's child legs`. */
  label: string;
  actual: Entry[];
  /** The entry with `call: id` replaced by the record's field; null when that call never started. */
  translate(entry: Entry): Entry | null;
  /** The call to show with a failure. */
  call?: ScenarioFailure["call"] | undefined;
  /** How a non-matching entry is reported in the ordered (non-exact) form. */
  notFound?(i: number, from: number, entries: Entry[], candidates: Entry[]): string;
}

/** The sequence's failures for a list written as `[...]` or `{ exactly: [...] }`, with `count` expanded. */
export function checkSequence(ctx: CheckContext, seq: Sequence, value: unknown): ScenarioFailure[] {
  const { entries, exact, at } = listForm(value);
  const base = [...seq.path, ...at];
  const fail = (path: Path, message: string, extra: Partial<ScenarioFailure> = {}): ScenarioFailure[] => [
    {
      where: ctx.where(path),
      path: dotted(path),
      message,
      ...extra,
      ...(seq.call && !extra.call ? { call: seq.call } : {}),
    },
  ];
  if (entries.length === 0) {
    if (seq.actual.length === 0) return [];
    return fail(base, `expected no ${seq.label}, found ${seq.actual.length}`, {
      expected: [],
      actual: seq.actual,
    });
  }
  const translated: Entry[] = [];
  for (const [i, entry] of entries.entries()) {
    const t = seq.translate(withoutCount(entry));
    if (t === null) return fail([...base, i, "call"], `call ${String(entry.call)} never started`);
    translated.push(t);
  }
  // `count: n` stands for n entries in a row.
  const expanded: { entry: Entry; index: number }[] = [];
  translated.forEach((entry, index) => {
    for (let k = 0; k < Number(entries[index]!.count ?? 1); k++) expanded.push({ entry, index });
  });
  const shown = (index: number) => withoutCount(entries[index]!);

  if (exact) {
    for (let k = 0; k < Math.max(expanded.length, seq.actual.length); k++) {
      const want = expanded[k];
      const got = seq.actual[k];
      if (!want) {
        return fail(
          base,
          `${seq.label}: ${plural(seq.actual.length - expanded.length, "more record")} than the ${expanded.length} expected, starting with ${seq.label}[${k}]`,
          {
            expected: entries,
            actual: seq.actual.slice(k, k + 3),
          },
        );
      }
      if (!got)
        return fail(
          [...base, want.index],
          `${seq.label}[${k}] not found: there ${seq.actual.length === 1 ? "is" : "are"} only ${seq.actual.length}`,
          {
            expected: shown(want.index),
          },
        );
      const found = mismatches(want.entry, got);
      if (found.length > 0)
        return fail(
          [...base, want.index],
          `${seq.label}[${k}] does not match: ${describeMismatches(found)}`,
          {
            expected: shown(want.index),
            actual: {
              ...(typeof got.at === "string" ? { at: got.at } : {}),
              ...(project(got, want.entry) as object),
            },
          },
        );
    }
  } else {
    const result = matchInOrder(
      expanded.map((e) => e.entry),
      seq.actual,
      matches,
    );
    if (!result.ok) {
      const { index } = expanded[result.missing]!;
      const candidates = seq.actual.slice(result.from);
      const nth = expanded.slice(0, result.missing).filter((e) => e.index === index).length;
      const counted =
        entries[index]!.count !== undefined ? ` (match ${nth + 1} of ${String(entries[index]!.count)})` : "";
      const message = seq.notFound
        ? seq.notFound(index, result.from, entries.map(withoutCount), candidates)
        : `${seq.label}[${index}] not found${counted}`;
      return fail([...base, index], message + (seq.notFound ? counted : ""), {
        expected: shown(index),
        actual: closest(translated[index], candidates).map((c) => ({
          ...(typeof c.at === "string" ? { at: c.at } : {}),
          ...(project(c, translated[index]) as object),
        })),
      });
    }
  }
  // An entry with a count matches no other record anywhere in the list.
  const failures: ScenarioFailure[] = [];
  translated.forEach((entry, index) => {
    const count = entries[index]!.count;
    if (count === undefined) return;
    const all = seq.actual.filter((a) => matches(entry, a));
    if (all.length !== Number(count))
      failures.push(
        ...fail(
          [...base, index, "count"],
          `${seq.label}[${index}] matches ${plural(all.length, "record")}, expected exactly ${String(count)}`,
          {
            expected: shown(index),
            actual: all.map((c) => ({
              ...(typeof c.at === "string" ? { at: c.at } : {}),
              ...(project(c, entry) as object),
            })),
          },
        ),
      );
  });
  return failures;
}
