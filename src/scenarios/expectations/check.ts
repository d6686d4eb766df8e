// Checks an expectation block against what the sandbox observed; each failure names where it is written and why.
import type { HandlerHost } from "../handlers.js";
import type { Observer } from "../observe.js";
import type { ScenarioFailure } from "../result.js";
import type { Expectation } from "../schema.js";
import { closest, matchInOrder, mismatches, project } from "./match.js";

export interface CheckContext {
  observer: Observer;
  host: HandlerHost;
  where(path: readonly (string | number)[]): string | null;
}

type Path = (string | number)[];
const show = (value: unknown) => (value === undefined ? "missing" : JSON.stringify(value));
const dotted = (path: Path) => path.map(String).join(".");

/** Which field of each list's records a `call: id` stands for. */
const callField = {
  recordings: "call_sid",
  transcriptions: "call_sid",
  messages: "call_sid",
  webhooks: "call_sid",
  requests: "call_sid",
  ledger: "resource_sid",
  events: "resource_sid",
  alerts: "call_sid",
} as const;
type ListName = keyof typeof callField;

export function callContext(ctx: CheckContext, id: string, sid: string): ScenarioFailure["call"] {
  return { id, sid, timeline: sliceTimeline(ctx.observer.timeline(sid)) };
}

/** At most 40 lines: the first 10 and the last 30, which hold the end of the call where most failures show. */
function sliceTimeline(lines: string[]): string[] {
  if (lines.length <= 40) return lines;
  return [...lines.slice(0, 10), `... ${lines.length - 40} more ...`, ...lines.slice(-30)];
}

function describeMismatches(list: ReturnType<typeof mismatches>): string {
  return list
    .map((m) => `${m.path || "value"} is ${show(m.actual)}, expected ${show(m.expected)}`)
    .join("; ");
}

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
    const sid = ctx.observer.ids.get(id);
    if (!sid) {
      failures.push({
        where: ctx.where(path),
        path: dotted(path),
        message: `call ${id} never started`,
      });
      continue;
    }
    const { children, ...fields } = expected as Record<string, unknown> & { children?: unknown[] };
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
      const result = matchInOrder(children, actual, (e, a) => mismatches(e, a).length === 0);
      if (!result.ok) {
        const at = [...path, "children", result.missing];
        failures.push({
          where: ctx.where(at),
          path: dotted(at),
          message: `call ${id}: no child leg ${result.missing > 0 ? "after the one matched before it " : ""}matches ${show(children[result.missing])} (${actual.length} legs in all)`,
          expected: children[result.missing],
          actual: actual.map((leg) =>
            pickKeys(leg, { to: 1, status: 1, duration: 1, ...(children[result.missing] as object) }),
          ),
          call: callContext(ctx, id, sid),
        });
      }
    }
  }
  return failures;
}

function actualList(ctx: CheckContext, list: ListName): Record<string, unknown>[] {
  const o = ctx.observer;
  switch (list) {
    case "recordings":
      return o.recordings();
    case "transcriptions":
      return o.transcriptions();
    case "messages":
      return o.messages();
    case "webhooks":
      return o.requests("callbacks");
    case "requests":
      return o.requests("markup");
    case "ledger":
      return o.ledger();
    case "events":
      return o.events();
    case "alerts":
      return o.alerts();
  }
}

function checkList(
  ctx: CheckContext,
  list: ListName,
  entries: readonly Record<string, unknown>[],
  base: Path,
): ScenarioFailure[] {
  const actual = actualList(ctx, list);
  const path = [...base, list];
  if (entries.length === 0) {
    if (actual.length === 0) return [];
    return [
      {
        where: ctx.where(path),
        path: dotted(path),
        message: `expected no ${list}, found ${actual.length}`,
        expected: [],
        actual,
      },
    ];
  }
  // `call: c1` stands for the call's sid in the list's own field.
  const translated: (Record<string, unknown> | null)[] = entries.map((entry) => {
    const { call, ...rest } = entry;
    if (call === undefined) return rest;
    const sid = ctx.observer.ids.get(String(call));
    return sid ? { ...rest, [callField[list]]: sid } : null;
  });
  const missingCall = translated.indexOf(null);
  if (missingCall !== -1) {
    const at = [...path, missingCall, "call"];
    return [
      {
        where: ctx.where(at),
        path: dotted(at),
        message: `call ${String(entries[missingCall]!.call)} never started`,
      },
    ];
  }
  const expected = translated as Record<string, unknown>[];
  const result = matchInOrder(expected, actual, (e, a) => mismatches(e, a).length === 0);
  if (result.ok) return [];
  const i = result.missing;
  const at = [...path, i];
  const candidates = actual.slice(result.from);
  const after =
    i > 0 ? ` after the one ${list}[${i - 1}] matched (entry ${result.from} of ${actual.length})` : "";
  const callId = entries[i]!.call === undefined ? undefined : String(entries[i]!.call);
  const sid = callId ? ctx.observer.ids.get(callId) : undefined;
  return [
    {
      where: ctx.where(at),
      path: dotted(at),
      message: `${list}[${i}] not found${after}: ${candidates.length} candidate${candidates.length === 1 ? "" : "s"}, none matches ${show(entries[i])}`,
      expected: entries[i],
      // The closest candidates, cut to the compared fields (plus when and where, for requests).
      actual: closest(expected[i], candidates).map((c) => ({
        ...(typeof c.at === "string" ? { at: c.at } : {}),
        ...(project(c, expected[i]) as object),
      })),
      ...(callId && sid ? { call: callContext(ctx, callId, sid) } : {}),
    },
  ];
}

/** What a call's party heard, in the expectation's terms: say text, play URL (as a path when ours), digits. */
export function heardItems(ctx: CheckContext, sid: string): Record<string, unknown>[] {
  return ctx.observer.heard(sid).map((h) => {
    if (h.kind === "say") return { say: h.text, at: h.at };
    if (h.kind === "play") return { play: ctx.host.relative(String(h.url)), at: h.at };
    if (h.kind === "digits") return { digits: h.text, at: h.at };
    return { [String(h.kind)]: true, at: h.at };
  });
}

function checkHeard(
  ctx: CheckContext,
  heard: NonNullable<Expectation["heard"]>,
  base: Path,
): ScenarioFailure[] {
  const failures: ScenarioFailure[] = [];
  for (const [id, expected] of Object.entries(heard)) {
    const path = [...base, "heard", id];
    const sid = ctx.observer.ids.get(id);
    if (!sid) {
      failures.push({ where: ctx.where(path), path: dotted(path), message: `call ${id} never started` });
      continue;
    }
    const actual = heardItems(ctx, sid);
    const result = matchInOrder(expected, actual, (e, a) => mismatches(e, a).length === 0);
    if (!result.ok) {
      const at = [...path, result.missing];
      failures.push({
        where: ctx.where(at),
        path: dotted(at),
        message: `call ${id} did not hear ${show(expected[result.missing])}${result.missing > 0 ? " after the entries before it" : ""}`,
        expected: expected[result.missing],
        actual,
        call: callContext(ctx, id, sid),
      });
    }
  }
  return failures;
}

export function checkExpectation(ctx: CheckContext, expect: Expectation, base: Path): ScenarioFailure[] {
  const failures: ScenarioFailure[] = [];
  if (expect.calls) failures.push(...checkCalls(ctx, expect.calls, base));
  for (const list of Object.keys(callField) as ListName[]) {
    const entries = expect[list as keyof Expectation] as Record<string, unknown>[] | undefined;
    if (entries) failures.push(...checkList(ctx, list, entries, base));
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
  return failures;
}
