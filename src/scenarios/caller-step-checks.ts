// After playing: the caller steps that never happened on a <Connect> call, and the expect_heard steps.
import { isTerminalCallStatus } from "../domain/call.js";
import { callContext } from "./expectations/context.js";
import { mismatches } from "./expectations/match.js";
import { heardItems } from "./expectations/records.js";
import { matchesMark, partyEntries } from "./party-timeline.js";
import { type PlayState, stepFailure } from "./play-state.js";

/**
 * On a call connected to a WebSocket app (`<Connect>`), caller steps that never happened (the app closed
 * early, so the call moved on or ended) are failures naming when and how the call ended. Elsewhere a step
 * left over is allowed, as it always was; a hang-up that did not happen is no loss anywhere.
 */
export function checkUnplayedSteps(state: PlayState): void {
  const { core, observer } = state;
  for (const [id, script] of state.scripts) {
    const sid = observer.ids.get(id);
    if (!sid) continue;
    const connected = core.calls
      .timeline(sid)
      .some((e) => e.kind === "verb.start" && e.detail.verb === "Connect");
    if (!connected) continue;
    const entries = partyEntries(core, sid);
    let from = 0;
    for (const [index, mark] of script.marks) {
      const found = entries.findIndex((e, i) => i >= from && matchesMark(e, mark));
      if (found !== -1) {
        from = found + 1;
        continue;
      }
      if (mark.kind === "party.hangup") continue;
      const step = state.loaded.scenario.steps[index]!;
      const call = core.store.calls.get(sid);
      const ended =
        call && isTerminalCallStatus(call.status) && call.end_time !== null
          ? `the call ended ${call.status} at ${observer.offset(call.end_time)} first`
          : "the call never got to it before the scenario's time ran out";
      state.failures.push({
        ...stepFailure(state.loaded, index, step, `call ${id}: this caller step never happened: ${ended}`),
        call: callContext(state.check, id, sid),
      });
    }
  }
}

/** expect_heard steps: the call heard it, before the caller's next step on that call happened. */
export function checkHeardSteps(state: PlayState): void {
  const { core, observer, check } = state;
  const claimed = new Map<string, number>();
  state.loaded.scenario.steps.forEach((step, index) => {
    const expected = step.expect_heard;
    if (!expected) return;
    const { call: id, ...what } = expected;
    const sid = observer.ids.get(id);
    const path = ["steps", index, "expect_heard"];
    const where = check.where(path);
    if (!sid) {
      state.failures.push({ where, path: path.join("."), message: `call ${id} never started` });
      return;
    }
    const heard = heardItems(check, sid);
    const from = claimed.get(id) ?? 0;
    const found = heard.findIndex((h, i) => i >= from && mismatches(what, h).length === 0);
    if (found === -1) {
      state.failures.push({
        where,
        path: path.join("."),
        message: `call ${id} did not hear ${JSON.stringify(what)}${from > 0 ? " after what the steps before expected" : ""}`,
        expected: what,
        actual: heard,
        call: callContext(check, id, sid),
      });
      return;
    }
    claimed.set(id, found + 1);
    // The caller's next step in the file must not have happened before this was heard.
    const script = state.scripts.get(id);
    const next = [...(script?.marks.entries() ?? [])].find(([i]) => i > index)?.[1];
    if (!next) return;
    const entry = partyEntries(core, sid).find((e) => matchesMark(e, next));
    const heardAt = core.calls.heard(sid)[found]!.at;
    if (entry && entry.at < heardAt)
      state.failures.push({
        where,
        path: path.join("."),
        message: `call ${id} heard ${JSON.stringify(what)} at ${observer.offset(heardAt)}, after the caller's next step (${next.kind}) at ${observer.offset(entry.at)}`,
        expected: what,
        actual: heard,
        call: callContext(check, id, sid),
      });
  });
}
