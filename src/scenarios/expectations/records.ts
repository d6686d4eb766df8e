// The records each list expectation is checked against, and how an entry's `call: id` reads in them.
import type { ScenarioFailure } from "../result.js";
import { type CheckContext, callContext, type Entry, listForm } from "./context.js";
import { resolveEntry } from "./refs.js";

/** Which field of each list's records a `call: id` stands for. */
export const callField = {
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
export type ListName = keyof typeof callField;
export const listNames = Object.keys(callField) as ListName[];

/** `call: c1` in a list entry, as the sid in the list's own field; null when that call never started. */
export function translator(ctx: CheckContext, field: string) {
  return (entry: Entry): Entry | null => {
    const { call, ...rest } = resolveEntry(ctx, entry);
    if (call === undefined) return rest;
    const sid = ctx.observer.sidOf(String(call));
    return sid ? { ...rest, [field]: sid } : null;
  };
}

export function entryCall(ctx: CheckContext, entries: unknown): ScenarioFailure["call"] | undefined {
  // The call named by the list's entries, when they all name the same one.
  const ids = new Set(
    listForm(entries)
      .entries.map((e) => e.call)
      .filter((c) => c !== undefined)
      .map(String),
  );
  if (ids.size !== 1) return undefined;
  const id = [...ids][0]!;
  const sid = ctx.observer.sidOf(id);
  return sid ? callContext(ctx, id, sid) : undefined;
}

export function actualList(ctx: CheckContext, list: ListName): Entry[] {
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

/** Whether a heard expectation names the ringback: only then is it listed among what was heard. */
export const namesRingback = (entries: unknown): boolean =>
  listForm(entries).entries.some((e) => e.ringback !== undefined);

/**
 * What a call's party heard, in the expectation's terms: say text, play URL (as a path when ours), digits,
 * beep, and (`ringback`, for expectations that name it) the ringback of each Dial with its tone.
 */
export function heardItems(ctx: CheckContext, sid: string, ringback = false): Entry[] {
  const heard = ringback ? ctx.observer.heardWithRingback(sid) : ctx.observer.heard(sid);
  return heard.map((h) => {
    if (h.kind === "say") return { say: h.text, at: h.at };
    if (h.kind === "play") return { play: ctx.host.relative(String(h.url)), at: h.at };
    if (h.kind === "digits") return { digits: h.text, at: h.at };
    if (h.kind === "ringback") return { ringback: true, ...(h.tone ? { tone: h.tone } : {}), at: h.at };
    return { [String(h.kind)]: true, at: h.at };
  });
}
