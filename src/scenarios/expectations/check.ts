// Checks an expectation block against what the sandbox observed; each failure names where it is written and why.
import type { ScenarioFailure } from "../result.js";
import type { Expectation } from "../schema/expectations.js";
import { checkAgent } from "./agent.js";
import {
  type CheckContext,
  callContext,
  describeMismatches,
  dotted,
  listForm,
  matches,
  type Path,
  plural,
  show,
  withoutCount,
} from "./context.js";
import { closest, mismatches } from "./match.js";
import { checkNever } from "./never.js";
import {
  actualList,
  callField,
  entryCall,
  heardItems,
  type ListName,
  listNames,
  namesRingback,
  translator,
} from "./records.js";
import { resolveEntry } from "./refs.js";
import { checkSequence } from "./sequence.js";

function pickKeys(actual: Record<string, unknown> | undefined, expected: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(expected)) out[key] = actual?.[key];
  return out;
}

function checkCalls(
  ctx: CheckContext,
  calls: NonNullable<Expectation["calls"]>,
  base: Path,
): ScenarioFailure[] {
  const failures: ScenarioFailure[] = [];
  for (const [id, expected] of Object.entries(calls)) {
    const path = [...base, "calls", id];
    const sid = ctx.observer.sidOf(id);
    if (!sid) {
      failures.push({
        where: ctx.where(path),
        path: dotted(path),
        message: `call ${id} never started`,
      });
      continue;
    }
    const { children, ...written } = expected as Record<string, unknown> & { children?: unknown };
    const fields = resolveEntry(ctx, written);
    const row = ctx.observer.call(sid);
    const found = mismatches(fields, row);
    if (found.length > 0) {
      const first = found[0]!.path.split(/[.[]/)[0]!;
      failures.push({
        where: ctx.where([...path, first]),
        path: dotted([...path, first]),
        message: `call ${id}: ${describeMismatches(found)}`,
        expected: fields,
        actual: pickKeys(row, fields),
        call: callContext(ctx, id, sid),
      });
    }
    if (children) {
      const actual = ctx.observer.children(sid);
      failures.push(
        ...checkSequence(
          ctx,
          {
            path: [...path, "children"],
            label: `call ${id}'s child legs`,
            actual,
            translate: (e) => resolveEntry(ctx, e),
            call: callContext(ctx, id, sid),
            notFound: (i, from, entries) =>
              `call ${id}: no child leg ${i > 0 ? "after the one matched before it " : ""}matches ${show(entries[i])} (${actual.length} legs in all${from > 0 ? `, searched from leg ${from}` : ""})`,
          },
          children,
        ),
      );
    }
  }
  return failures;
}

function checkList(ctx: CheckContext, list: ListName, value: unknown, base: Path): ScenarioFailure[] {
  const actual = actualList(ctx, list);
  const translate = translator(ctx, callField[list]);
  return checkSequence(
    ctx,
    {
      path: [...base, list],
      label: list,
      actual,
      translate,
      call: entryCall(ctx, value),
      notFound: (i, from, entries, candidates) => {
        const after =
          i > 0 ? ` after the one ${list}[${i - 1}] matched (entry ${from} of ${actual.length})` : "";
        const wanted = translate(entries[i]!);
        const near = wanted === null ? undefined : closest(wanted, candidates, 1)[0];
        // What differs in the closest record says more than the list of candidates.
        const differs =
          near && wanted ? `; the closest differs: ${describeMismatches(mismatches(wanted, near))}` : "";
        return `${list}[${i}] not found${after}: ${plural(candidates.length, "candidate")}, none matches ${show(entries[i])}${differs}`;
      },
    },
    value,
  );
}

function checkHeard(
  ctx: CheckContext,
  heard: NonNullable<Expectation["heard"]>,
  base: Path,
): ScenarioFailure[] {
  const failures: ScenarioFailure[] = [];
  for (const [id, expected] of Object.entries(heard)) {
    const path = [...base, "heard", id];
    const sid = ctx.observer.sidOf(id);
    if (!sid) {
      failures.push({ where: ctx.where(path), path: dotted(path), message: `call ${id} never started` });
      continue;
    }
    const actual = heardItems(ctx, sid, namesRingback(expected));
    const call = callContext(ctx, id, sid);
    // What was heard is short: show all of it rather than the closest entries.
    for (const failure of checkSequence(
      ctx,
      {
        path,
        label: `call ${id} heard`,
        actual,
        translate: (e) => e,
        call,
        notFound: (i, _from, entries) =>
          `call ${id} did not hear ${show(entries[i])}${i > 0 ? " after the entries before it" : ""}`,
      },
      expected,
    ))
      failures.push(failure.message.startsWith(`call ${id} did not hear`) ? { ...failure, actual } : failure);
  }
  return failures;
}

export function checkExpectation(ctx: CheckContext, expect: Expectation, base: Path): ScenarioFailure[] {
  const failures: ScenarioFailure[] = [];
  if (expect.calls) failures.push(...checkCalls(ctx, expect.calls, base));
  for (const list of listNames) {
    const value = expect[list];
    if (value) failures.push(...checkList(ctx, list, value, base));
  }
  if (expect.heard) failures.push(...checkHeard(ctx, expect.heard, base));
  if (expect.balance_cents !== undefined) {
    const actual = ctx.observer.balanceCents();
    if (actual !== expect.balance_cents) {
      const path = [...base, "balance_cents"];
      failures.push({
        where: ctx.where(path),
        path: dotted(path),
        message: `balance is ${actual} cents, expected ${expect.balance_cents}`,
        expected: expect.balance_cents,
        actual,
      });
    }
  }
  if (expect.agent) failures.push(...checkAgent(ctx, expect.agent, base));
  if (expect.never) failures.push(...checkNever(ctx, expect.never, base));
  return failures;
}

/**
 * Strict alerts: every alert must be named by an `alerts` entry of some expectation (or its code allowed),
 * so a document that breaks at run time fails the scenario even when no one thought to look.
 */
export function checkUnexpectedAlerts(
  ctx: CheckContext,
  expectations: readonly Expectation[],
  allowed: true | readonly number[] | undefined,
): ScenarioFailure[] {
  if (allowed === true) return [];
  const translate = translator(ctx, callField.alerts);
  const entries = expectations.flatMap((e) =>
    e.alerts === undefined ? [] : listForm(e.alerts).entries.map((x) => translate(withoutCount(x))),
  );
  const failures: ScenarioFailure[] = [];
  for (const alert of ctx.observer.alerts()) {
    if (allowed?.includes(Number(alert.code))) continue;
    if (entries.some((e) => e !== null && matches(e, alert))) continue;
    const sid = String(alert.call_sid);
    const id = ctx.observer.idOf(sid);
    failures.push({
      where: null,
      path: "alerts",
      message: `unexpected alert ${String(alert.code)} (${String(alert.level)}) at ${String(alert.at)}${id ? ` on call ${id}` : ""}: ${String(alert.message)}; expect it under alerts, or list its code in allow_alerts`,
      actual: alert,
      ...(ctx.observer.call(sid) ? { call: callContext(ctx, id ?? sid, sid) } : {}),
    });
  }
  return failures;
}
