// Checks an expectation block against what the sandbox observed; each failure names where it is written and why.
import type { HandlerHost } from "../handler-host.js";
import type { Observer } from "../observe.js";
import type { ScenarioFailure } from "../result.js";
import type { Expectation } from "../schema/expectations.js";
import { closest, matchInOrder, mismatches, project } from "./match.js";

export interface CheckContext {
  observer: Observer;
  host: HandlerHost;
  where(path: readonly (string | number)[]): string | null;
}

type Path = (string | number)[];
type Entry = Record<string, unknown>;
const show = (value: unknown) => (value === undefined ? "missing" : JSON.stringify(value));
const dotted = (path: Path) => path.map(String).join(".");
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

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
  streams: "call_sid",
  relays: "call_sid",
} as const;
type ListName = keyof typeof callField;
export const listNames = Object.keys(callField) as ListName[];

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

const matches = (expected: Entry, actual: Entry) => mismatches(expected, actual).length === 0;

/** A list expectation as written: its entries, and whether it allows nothing else (`exactly`/`only`). */
export function listForm(value: unknown): { entries: Entry[]; exact: boolean; at: Path } {
  if (Array.isArray(value)) return { entries: value as Entry[], exact: false, at: [] };
  const form = value as { exactly?: Entry[]; only?: Entry[] };
  if (form.exactly) return { entries: form.exactly, exact: true, at: ["exactly"] };
  return { entries: form.only ?? [], exact: true, at: ["only"] };
}

/** What a list check needs: the records, how entries read (call ids to sids), words for messages. */
interface Sequence {
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

const withoutCount = ({ count: _count, ...rest }: Entry) => rest;

/** The sequence's failures for a list written as `[...]` or `{ exactly: [...] }`, with `count` expanded. */
function checkSequence(ctx: CheckContext, seq: Sequence, value: unknown): ScenarioFailure[] {
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

/** `call: c1` in a list entry, as the sid in the list's own field; null when that call never started. */
function translator(ctx: CheckContext, field: string) {
  return (entry: Entry): Entry | null => {
    const { call, ...rest } = entry;
    if (call === undefined) return rest;
    const sid = ctx.observer.ids.get(String(call));
    return sid ? { ...rest, [field]: sid } : null;
  };
}

function entryCall(ctx: CheckContext, entries: unknown): ScenarioFailure["call"] | undefined {
  // The call named by the list's entries, when they all name the same one.
  const ids = new Set(
    listForm(entries)
      .entries.map((e) => e.call)
      .filter((c) => c !== undefined)
      .map(String),
  );
  if (ids.size !== 1) return undefined;
  const id = [...ids][0]!;
  const sid = ctx.observer.ids.get(id);
  return sid ? callContext(ctx, id, sid) : undefined;
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
    const { children, ...fields } = expected as Record<string, unknown> & { children?: unknown };
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
            translate: (e) => e,
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

function actualList(ctx: CheckContext, list: ListName): Entry[] {
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
    case "streams":
      return o.streams();
    case "relays":
      return o.relays();
  }
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

/** What a call's party heard, in the expectation's terms: say text, play URL (as a path when ours), digits. */
export function heardItems(ctx: CheckContext, sid: string): Entry[] {
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

/** `never`: no record of the list matches an entry (after the first record matching its `after`). */
function checkNever(
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
    check([...path, "calls"], "never.calls", ctx.observer.calls(), never.calls as Entry[], (e) => e);
  for (const list of listNames) {
    const entries = never[list] as Entry[] | undefined;
    if (!entries) continue;
    check([...path, list], `never.${list}`, actualList(ctx, list), entries, translator(ctx, callField[list]));
  }
  for (const [id, entries] of Object.entries(never.heard ?? {})) {
    const sid = ctx.observer.ids.get(id);
    if (!sid) continue;
    check(
      [...path, "heard", id],
      `call ${id} heard`,
      heardItems(ctx, sid),
      entries as Entry[],
      (e) => e,
      callContext(ctx, id, sid),
    );
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
