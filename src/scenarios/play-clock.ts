// Moves a scenario's virtual clock: to a step's time, then on to the end, hanging up calls whose cue has come.
import { isOver, matchesMark, partyEntries } from "./party-timeline.js";
import type { PlayState } from "./play-state.js";

/** While a hang-up waits for the caller's previous step, time moves in steps this long to look for it. */
const watchTickMs = 100;

/** Schedules the hang-ups whose awaited caller step has happened. */
function serviceWatches(state: PlayState): void {
  const { core, watches } = state;
  for (let i = watches.length - 1; i >= 0; i--) {
    const watch = watches[i]!;
    const sid = state.observer.ids.get(watch.callId);
    if (!sid) continue;
    const entry = partyEntries(core, sid).find((e) => matchesMark(e, watch.after));
    if (!entry) {
      // The call ended before the step this hang-up follows: nothing left to hang up.
      if (isOver(core, sid)) watches.splice(i, 1);
      continue;
    }
    watches.splice(i, 1);
    const at = entry.at + watch.after.lengthMs + watch.delayMs;
    const hangup = () => {
      if (!isOver(core, sid)) core.calls.hangup(sid);
    };
    if (at <= core.clock.now()) hangup();
    else core.clock.schedule(at, hangup);
  }
}

/** Moves the clock to `time`, in small steps while a hang-up is waiting for its cue. */
export async function advanceTo(state: PlayState, time: number): Promise<void> {
  const { core } = state;
  while (core.clock.now() < time) {
    const step =
      state.watches.length > 0 ? Math.min(watchTickMs, time - core.clock.now()) : time - core.clock.now();
    await core.clock.advance(step);
    serviceWatches(state);
  }
  serviceWatches(state);
  await core.settle();
}

/** After the last step: plays on until nothing is left to happen, or the scenario's time limit. */
export async function drain(state: PlayState): Promise<void> {
  const { core, limit } = state;
  for (;;) {
    const now = core.clock.now();
    if (now >= limit || core.clock.pending() === 0) break;
    if (state.watches.length > 0) {
      await core.clock.advance(Math.min(watchTickMs, limit - now));
      serviceWatches(state);
    } else {
      await core.clock.runUntilIdle(limit - now);
    }
  }
  await core.settle();
}
