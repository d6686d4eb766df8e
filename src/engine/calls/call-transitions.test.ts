// The call state machine as a table: every (status, event) pair, the next status and the effects in order.
import { describe, expect, it } from "vitest";
import { type CallStatus, callStatuses, terminalCallStatuses } from "../../domain/call.js";
import { type CallEffect, type CallEvent, transition } from "./call-transitions.js";

const events: CallEvent[] = ["initiate", "ring", "answer", "busy", "no-answer", "fail", "cancel", "hangup"];
const end: CallEffect[] = [{ type: "terminal" }];

/** Every pair that changes something; any pair not listed does not apply (null). */
const table: [CallStatus, CallEvent, CallStatus, CallEffect[]][] = [
  [
    "queued",
    "initiate",
    "queued",
    [{ type: "status-callback", event: "initiated" }, { type: "consult-callee" }],
  ],
  ["queued", "ring", "ringing", [{ type: "status-callback", event: "ringing" }]],
  [
    "queued",
    "answer",
    "in-progress",
    [{ type: "status-callback", event: "answered" }, { type: "start-markup" }],
  ],
  ["queued", "busy", "busy", end],
  ["queued", "no-answer", "no-answer", end],
  ["queued", "fail", "failed", end],
  ["queued", "cancel", "canceled", end],
  // Twilio turns a hang-up of a call not answered yet into a cancel.
  ["queued", "hangup", "canceled", end],
  [
    "ringing",
    "answer",
    "in-progress",
    [{ type: "status-callback", event: "answered" }, { type: "start-markup" }],
  ],
  ["ringing", "busy", "busy", end],
  ["ringing", "no-answer", "no-answer", end],
  ["ringing", "fail", "failed", end],
  ["ringing", "cancel", "canceled", end],
  ["ringing", "hangup", "canceled", end],
  ["in-progress", "hangup", "completed", end],
  ["in-progress", "fail", "failed", end],
];

describe("call transitions", () => {
  it.each(table)("%s + %s -> %s", (from, event, to, effects) => {
    expect(transition(from, event)).toEqual({ status: to, effects });
  });

  const listed = new Set(table.map(([from, event]) => `${from} ${event}`));
  const ignored = callStatuses.flatMap((from) =>
    events.filter((event) => !listed.has(`${from} ${event}`)).map((event) => [from, event] as const),
  );
  it.each(ignored)("%s + %s does not apply", (from, event) => {
    expect(transition(from, event)).toBeNull();
  });

  it("ignores everything once terminal, so duplicate and late events are harmless", () => {
    for (const status of terminalCallStatuses)
      for (const event of events) expect(transition(status, event)).toBeNull();
  });

  it("ends every call in exactly one terminal effect", () => {
    for (const [, , to, effects] of table) {
      const terminal = effects.filter((e) => e.type === "terminal").length;
      expect(terminal).toBe(terminalCallStatuses.includes(to) ? 1 : 0);
    }
  });
});
