// The call state machine as a pure table: (status, event) -> next status and the effects to run, as data.
import type { CallStatus, CallStatusEvent } from "../../domain/call.js";

export type CallEvent =
  /** Dialling starts: Twilio's `initiated` callback; the status stays `queued` until the callee rings. */
  | "initiate"
  | "ring"
  | "answer"
  | "busy"
  | "no-answer"
  | "fail"
  /** REST Status=canceled, or a parent leg giving up on a ringing child. */
  | "cancel"
  /** REST Status=completed, Hangup, end of markup, either party hanging up, TimeLimit. */
  | "hangup";

export type CallEffect =
  | { type: "status-callback"; event: CallStatusEvent }
  | { type: "consult-callee" }
  | { type: "start-markup" }
  | { type: "terminal" };

export interface Transition {
  status: CallStatus;
  effects: CallEffect[];
}

const live: CallStatus[] = ["queued", "ringing"];
const terminal = (status: CallStatus): Transition => ({ status, effects: [{ type: "terminal" }] });

/**
 * The next state, or null when the event does not apply (terminal calls ignore everything, so duplicate
 * or late events are harmless; an answered call ignores `cancel`, as Twilio leaves it alone).
 */
export function transition(status: CallStatus, event: CallEvent): Transition | null {
  if (live.includes(status)) {
    switch (event) {
      case "initiate":
        return status === "queued"
          ? {
              status,
              effects: [{ type: "status-callback", event: "initiated" }, { type: "consult-callee" }],
            }
          : null;
      case "ring":
        return status === "queued"
          ? { status: "ringing", effects: [{ type: "status-callback", event: "ringing" }] }
          : null;
      case "answer":
        return {
          status: "in-progress",
          effects: [{ type: "status-callback", event: "answered" }, { type: "start-markup" }],
        };
      case "busy":
        return terminal("busy");
      case "no-answer":
        return terminal("no-answer");
      case "fail":
        return terminal("failed");
      // Twilio turns a hang-up request on a call that is not answered yet into a cancel.
      case "cancel":
      case "hangup":
        return terminal("canceled");
    }
  }
  if (status === "in-progress") {
    if (event === "hangup") return terminal("completed");
    if (event === "fail") return terminal("failed");
    return null;
  }
  return null;
}
