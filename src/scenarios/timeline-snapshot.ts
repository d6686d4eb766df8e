// The full, deterministic timeline of a scenario's calls and messages, as text a snapshot file keeps and a diff reads.

import type { HandlerHost } from "./handler-host.js";
import type { Observer } from "./observe.js";
import type { PlayedSandbox } from "./played-sandbox.js";

interface Line {
  at: number;
  text: string;
}

const json = (value: unknown) => JSON.stringify(value);

/** Parameters sorted by name, so the text does not depend on the order they were sent in. */
const sortedParams = (params: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * Every call of the account (child legs too) and every message, each with what happened to it in time
 * order: statuses, verbs, what was heard and said, requests and callbacks with their parameters,
 * recordings and charges. Times are from the scenario's start; sids come from the seed.
 */
export function timelineSnapshot(core: PlayedSandbox, observer: Observer, host: HandlerHost): string {
  const deliveries = core.webhooks.deliveries;
  const ledger = core.store.ledger.where("account", observer.accountSid);
  const out: string[] = [];
  const section = (head: string, lines: Line[]) => {
    out.push(head);
    lines
      .map((line, i) => ({ ...line, i }))
      .sort((a, b) => a.at - b.at || a.i - b.i)
      .forEach((line) => {
        out.push(`  ${observer.offset(line.at)}  ${line.text}`);
      });
    out.push("");
  };
  const requestLines = (match: (d: (typeof deliveries)[number]) => boolean): Line[] =>
    deliveries.filter(match).map((d) => ({
      at: d.at,
      text: `${d.kind} ${d.method} ${host.relative(d.url)}${d.attempt > 1 ? ` (attempt ${d.attempt})` : ""} -> ${d.status ?? d.outcome} ${json(sortedParams(d.params))}`,
    }));
  const chargeLines = (sid: string): Line[] =>
    ledger
      .filter((e) => e.resource_sid === sid)
      .map((e) => ({
        at: e.created_at,
        text: `ledger ${e.kind} ${e.category} ${e.amount_cents} cents (balance ${e.balance_cents})`,
      }));

  for (const call of core.store.calls.where("account", observer.accountSid)) {
    const id = observer.idOf(call.sid);
    const lines: Line[] = core.calls
      .timeline(call.sid)
      .filter((e) => e.kind !== "markup.request")
      .map((e) => ({
        at: e.at,
        text: `${e.kind}${Object.keys(e.detail).length > 0 ? ` ${json(e.detail)}` : ""}`,
      }));
    lines.push(...requestLines((d) => d.callSid === call.sid));
    for (const r of core.store.recordings.where("call", call.sid))
      lines.push({
        at: r.start_time ?? r.created_at,
        text: `recording ${r.sid} ${r.source}, ${r.channels} channel(s): ${r.status}, ${r.duration ?? "?"} s`,
      });
    lines.push(...chargeLines(call.sid));
    section(
      `call ${id ? `${id} ` : ""}${call.sid} ${call.direction} ${call.from} -> ${call.to}: ${call.status}, ${call.duration ?? 0} s, price ${call.price ?? "none"}`,
      lines,
    );
  }
  for (const message of core.store.messages.where("account", observer.accountSid)) {
    section(
      `message ${message.sid} ${message.direction} ${message.from} -> ${message.to} ${json(message.body)}: ${message.status}, price ${message.price ?? "none"}`,
      [
        { at: message.created_at, text: `created ${message.status}` },
        ...requestLines((d) => d.messageSid === message.sid),
        ...chargeLines(message.sid),
      ],
    );
  }
  return `${out.join("\n").trimEnd()}\n`;
}
