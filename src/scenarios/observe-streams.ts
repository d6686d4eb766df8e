// Media streams and ConversationRelay sessions of a call, read from its timeline as plain records for expectations.
import type { TimelineEntry } from "../engine/calls/call-runtime.js";

type Row = Record<string, unknown>;

/** A record and when it began (clock ms), so records of several calls can be put in one order. */
export interface Timed {
  startedAt: number;
  record: Row;
}

/** A stream status callback as the stream's record lists it. */
export interface StreamCallback {
  streamSid: string;
  event: string;
}

const text = (value: unknown) => (typeof value === "string" ? value : String(value ?? ""));

/**
 * Every media stream of the call, in the order they started: what the sandbox sent, what the app sent, the
 * marks echoed, the keys, how long the app's audio played (in all and each stretch), how it ended.
 */
export function streamRecords(
  callSid: string,
  timeline: readonly TimelineEntry[],
  callbacks: readonly StreamCallback[],
  at: (ms: number) => string,
): Timed[] {
  const bySid = new Map<string, Timed>();
  const of = (entry: TimelineEntry): Row => {
    const sid = text(entry.detail.sid);
    let timed = bySid.get(sid);
    if (!timed) {
      const row: Row = {
        at: at(entry.at),
        call_sid: callSid,
        sid,
        name: null,
        url: null,
        track: null,
        bidirectional: null,
        parameters: {},
        sent: [],
        received: [],
        marks: [],
        dtmf: "",
        played: 0,
        utterances: [],
        cleared: 0,
        ended_by: null,
        close_code: null,
        callbacks: callbacks.filter((c) => c.streamSid === sid).map((c) => c.event),
      };
      timed = { startedAt: entry.at, record: row };
      bySid.set(sid, timed);
    }
    return timed.record;
  };
  for (const entry of timeline) {
    if (!entry.kind.startsWith("stream.")) continue;
    const row = of(entry);
    const d = entry.detail;
    switch (entry.kind) {
      case "stream.started":
        Object.assign(row, {
          name: d.name ?? null,
          url: d.url,
          track: d.track,
          bidirectional: d.bidirectional,
          parameters: d.parameters ?? {},
        });
        break;
      case "stream.mark":
        (row.marks as string[]).push(text(d.name));
        break;
      case "stream.dtmf":
        row.dtmf = `${text(row.dtmf)}${text(d.digit)}`;
        break;
      case "stream.clear":
        row.cleared = Number(row.cleared) + 1;
        break;
      case "stream.played":
        (row.utterances as number[]).push(Number(d.ms));
        break;
      case "stream.closed":
        row.close_code = d.code;
        break;
      case "stream.ended":
        Object.assign(row, {
          url: row.url ?? d.url ?? null,
          played: d.playedMs,
          ended_by: d.endedBy,
          sent: d.sent ?? [],
          received: d.received ?? [],
        });
        break;
    }
  }
  return [...bySid.values()];
}

/**
 * Every ConversationRelay session of the call: what the agent said (each utterance as the caller heard it),
 * what the caller said and pressed as the app got it, interrupts, language changes, how it ended.
 */
export function relayRecords(
  callSid: string,
  timeline: readonly TimelineEntry[],
  at: (ms: number) => string,
): Timed[] {
  const rows: Timed[] = [];
  let open: Row | null = null;
  const start = (entry: TimelineEntry): Row => {
    const row: Row = {
      at: at(entry.at),
      call_sid: callSid,
      session_id: entry.detail.sessionId,
      url: entry.detail.url,
      status: null,
      said: [],
      prompts: [],
      dtmf: "",
      interrupts: [],
      plays: [],
      sent_digits: "",
      languages: [],
      handoff_data: null,
      parameters: entry.detail.parameters ?? {},
      duration: 0,
    };
    rows.push({ startedAt: entry.at, record: row });
    return row;
  };
  for (const entry of timeline) {
    const d = entry.detail;
    if (entry.kind === "relay.started") {
      open = start(entry);
      continue;
    }
    if (entry.kind === "relay.ended") {
      // A session that never opened has only its end.
      const row: Row = open && open.session_id === d.sessionId ? open : start(entry);
      Object.assign(row, {
        status: d.status,
        duration: d.durationSeconds,
        handoff_data: d.handoffData ?? null,
      });
      open = null;
      continue;
    }
    if (!open) continue;
    switch (entry.kind) {
      case "heard.say":
        (open.said as string[]).push(text(d.text));
        break;
      case "heard.play":
        (open.plays as string[]).push(text(d.url));
        break;
      case "heard.digits":
        open.sent_digits = `${text(open.sent_digits)}${text(d.text)}`;
        break;
      case "relay.prompt":
        (open.prompts as string[]).push(text(d.text));
        break;
      case "relay.dtmf":
        open.dtmf = `${text(open.dtmf)}${text(d.digit)}`;
        break;
      case "relay.interrupt":
        (open.interrupts as string[]).push(text(d.said));
        break;
      case "relay.language":
        (open.languages as string[]).push(text(d.ttsLanguage));
        break;
    }
  }
  return rows;
}
