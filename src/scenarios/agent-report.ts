// What a scenario's result says of its <Connect> agents: each call's turns and metrics, the real waits apart, and one line of them.
import { type AgentMetrics, agentMetrics } from "../engine/media-streams/agent-metrics.js";
import type { Observer } from "./observe.js";
import type { PlayedSandbox } from "./played-sandbox.js";
import type { ScenarioResult } from "./result.js";

/** Every call of the scenario whose agent had turns: its turns (times from the scenario's start) and their metrics. */
export function agentResults(
  core: PlayedSandbox,
  observer: Observer,
  origin: number,
): Pick<ScenarioResult, "agents" | "thinkMs"> {
  const agents: NonNullable<ScenarioResult["agents"]> = {};
  const thinkMs: NonNullable<ScenarioResult["thinkMs"]> = {};
  for (const [id, sid] of observer.ids) {
    const turns = observer.agentTurns(sid);
    if (turns.length === 0) continue;
    agents[id] = {
      metrics: agentMetrics(turns),
      turns: turns.map((t) => ({
        ...t,
        startedAt: t.startedAt - origin,
        endedAt: t.endedAt === null ? null : t.endedAt - origin,
      })),
    };
    thinkMs[id] = core.calls.streams.agentWaits(sid);
  }
  return Object.keys(agents).length > 0 ? { agents, thinkMs } : {};
}

const ms = (value: number | null) => (value === null ? "-" : `${value} ms`);

/** One line of a call's agent metrics, for the terminal and JUnit reports (sandbox time: the same run after run). */
export function agentLine(id: string, m: AgentMetrics): string {
  const parts = [
    `${m.turns} turn${m.turns === 1 ? "" : "s"} (${m.answered} answered${m.unanswered > 0 ? `, ${m.unanswered} not` : ""}${m.late > 0 ? `, ${m.late} late` : ""})`,
    `response p50 ${ms(m.responseMs.p50)} p95 ${ms(m.responseMs.p95)} p99 ${ms(m.responseMs.p99)} max ${ms(m.responseMs.max)}`,
    `speaking ${ms(m.speakingMs)}`,
    `barge-ins ${m.bargeIns}${m.bargeInStopMs.max !== null ? ` (stop max ${ms(m.bargeInStopMs.max)})` : ""}`,
    `talk-over ${ms(m.talkOverMs)}`,
    `longest silence ${ms(m.longestSilenceMs)}`,
  ];
  return `agent ${id}: ${parts.join(", ")}`;
}
