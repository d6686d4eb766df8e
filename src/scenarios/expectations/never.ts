// Checks a `never` block: no record matches an entry (after the first record that matches its `after`).
import type { ScenarioFailure } from "../result.js";
import type { Expectation } from "../schema/expectations.js";
import {
  type CheckContext,
  callContext,
  dotted,
  type Entry,
  matches,
  type Path,
  plural,
  show,
} from "./context.js";
import { project } from "./match.js";
import { actualList, callField, heardItems, listNames, namesRingback, translator } from "./records.js";
import { resolveEntry } from "./refs.js";

/** `never`: no record of the list matches an entry (after the first record matching its `after`). */
export function checkNever(
  ctx: CheckContext,
  never: NonNullable<Expectation["never"]>,
  base: Path,
): ScenarioFailure[] {
  const failures: ScenarioFailure[] = [];
  const check = (
    path: Path,
    label: string,
    actual: Entry[],
    entries: Entry[],
    translate: (e: Entry) => Entry | null,
    call?: ScenarioFailure["call"],
  ) => {
    entries.forEach((raw, i) => {
      const { after, ...entry } = raw as Entry & { after?: Entry };
      const wanted = translate(entry);
      const mark = after === undefined ? null : translate(after);
      // A call that never started did nothing: nothing about it can have happened.
      if (wanted === null || (after !== undefined && mark === null)) return;
      const from = mark === null ? 0 : actual.findIndex((a) => matches(mark, a)) + 1;
      if (from === 0 && mark !== null) return;
      const hits = actual.slice(from).filter((a) => matches(wanted, a));
      if (hits.length === 0) return;
      const at = [...path, i];
      failures.push({
        where: ctx.where(at),
        path: dotted(at),
        message: `${label}: ${plural(hits.length, "record")} ${after ? "after the one matching `after` " : ""}match${hits.length === 1 ? "es" : ""} ${show(entry)}, expected none`,
        expected: raw,
        actual: hits.slice(0, 3).map((c) => ({
          ...(typeof c.at === "string" ? { at: c.at } : {}),
          ...(project(c, wanted) as object),
        })),
        ...(call ? { call } : {}),
      });
    });
  };
  const path = [...base, "never"];
  if (never.calls)
    check([...path, "calls"], "never.calls", ctx.observer.calls(), never.calls as Entry[], (e) =>
      resolveEntry(ctx, e),
    );
  for (const list of listNames) {
    const entries = never[list] as Entry[] | undefined;
    if (!entries) continue;
    check([...path, list], `never.${list}`, actualList(ctx, list), entries, translator(ctx, callField[list]));
  }
  for (const [id, entries] of Object.entries(never.heard ?? {})) {
    const sid = ctx.observer.sidOf(id);
    if (!sid) continue;
    check(
      [...path, "heard", id],
      `call ${id} heard`,
      heardItems(ctx, sid, namesRingback(entries)),
      entries as Entry[],
      (e) => e,
      callContext(ctx, id, sid),
    );
  }
  return failures;
}
