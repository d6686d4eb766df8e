// What a load run adds up as its calls end: the metrics, the counts, the failed calls and the thresholds' states.
import type { PlayedSandbox } from "../played-sandbox.js";
import type { ScenarioResult } from "../result.js";
import { type AgentThresholds, createLoadGates, type PlayedTurns } from "./gates.js";
import { createMetric, type Hdr } from "./histograms.js";
import type { LoadMetrics, LoadResult } from "./result.js";

/** The most failed calls a load run's result describes; the others are only counted. */
export const maxFailuresShown = 20;

/** Frames counted in the `stream.ended` entries of the play's calls. */
function frameCounts(core: PlayedSandbox, sids: readonly string[]): { late: number; dropped: number } {
  let late = 0;
  let dropped = 0;
  for (const sid of sids)
    for (const e of core.calls.timeline(sid))
      if (e.kind === "stream.ended") {
        late += Number(e.detail.lateFrames ?? 0);
        dropped += Number(e.detail.droppedFrames ?? 0);
      }
  return { late, dropped };
}

export const emptyCounts = (): LoadResult["counts"] => ({
  turns: 0,
  answered: 0,
  unanswered: 0,
  late: 0,
  bargeIns: 0,
  lateFrames: 0,
  droppedFrames: 0,
});

export type LoadTally = ReturnType<typeof createLoadTally>;

/** The run's running sums; `take` is given each play as it ends, with its number in the whole run. */
export function createLoadTally(h: Hdr, agent: AgentThresholds) {
  const gates = createLoadGates(agent, h);
  const metrics: Record<keyof LoadMetrics, ReturnType<typeof createMetric>> = {
    responseMs: createMetric(h, 11),
    bargeInStopMs: createMetric(h, 12),
    talkOverMs: createMetric(h, 13),
    longestSilenceMs: createMetric(h, 14),
    silenceMs: createMetric(h, 15),
    turns: createMetric(h, 16),
  };
  const counts = emptyCounts();
  const calls = { passed: 0, failed: 0, errored: 0 };
  const failures: LoadResult["failures"] = [];

  /** What one play adds to the run; the play's result and sandbox are let go of afterwards. */
  const take = (n: number, play: ScenarioResult, core: PlayedSandbox | undefined) => {
    const turnsByCall: Record<string, PlayedTurns[string]> = {};
    for (const [id, agentResult] of Object.entries(play.agents ?? {})) {
      turnsByCall[id] = agentResult.turns;
      const m = agentResult.metrics;
      metrics.turns.add(m.turns);
      metrics.talkOverMs.add(m.talkOverMs);
      metrics.longestSilenceMs.add(m.longestSilenceMs);
      for (const ms of m.silencesMs) metrics.silenceMs.add(ms);
      for (const t of agentResult.turns) {
        if (t.responseMs !== null) metrics.responseMs.add(t.responseMs);
        if (t.bargeIn?.stopMs != null) metrics.bargeInStopMs.add(t.bargeIn.stopMs);
      }
      counts.turns += m.turns;
      counts.answered += m.answered;
      counts.unanswered += m.unanswered;
      counts.late += m.late;
      counts.bargeIns += m.bargeIns;
    }
    gates.observe(turnsByCall, n);
    if (core) {
      const frames = frameCounts(core, Object.values(play.calls));
      counts.lateFrames += frames.late;
      counts.droppedFrames += frames.dropped;
      // A call the scenario's time limit cut short must not keep its agent's socket open.
      core.calls.reset();
      core.clock.dispose();
    }
    if (play.status === "passed") calls.passed++;
    else {
      if (play.status === "error") calls.errored++;
      else calls.failed++;
      if (failures.length < maxFailuresShown)
        failures.push({
          call: n,
          sid: Object.values(play.calls)[0] ?? null,
          message:
            play.error ?? (play.failures.map((f) => `${f.path}: ${f.message}`).join("; ") || play.status),
        });
    }
  };
  return { take, gates, metrics, counts, calls, failures };
}
