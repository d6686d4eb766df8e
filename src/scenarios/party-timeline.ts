// A call's party in its timeline: the entries that show it acting, and which of them is a scripted caller step.
import { isTerminalCallStatus } from "../domain/call.js";
import type { PartyMark } from "./caller-script.js";
import type { PlayedSandbox } from "./played-sandbox.js";

export const isOver = (core: PlayedSandbox, sid: string) => {
  const call = core.store.calls.get(sid);
  return !call || isTerminalCallStatus(call.status);
};

/** Timeline entries of a call that show its party acting, in order. */
export const partyEntries = (core: PlayedSandbox, sid: string) =>
  core.calls.timeline(sid).filter((e) => e.kind.startsWith("party."));

export function matchesMark(
  entry: { kind: string; detail: Record<string, unknown> },
  mark: PartyMark,
): boolean {
  if (entry.kind !== mark.kind) return false;
  if (mark.kind === "party.say") return entry.detail.text === mark.text;
  if (mark.kind === "party.press") return entry.detail.digits === mark.digits;
  return true;
}
