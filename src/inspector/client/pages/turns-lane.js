// A call's turns with its voice agent: the caller's speech, the agent's latency, its speaking and barge-ins on the call's time, and every figure as text.
import { api } from "../api.js";
import { offset } from "../format.js";
import { html } from "../html.js";
import { useLive } from "../live.js";

/** A silence this long or longer counts as dead air in the lane (the scenario's own bound may differ). */
export const longSilenceMs = 2000;
const rows = ["Caller", "Latency", "Agent", "Barge-in"];
const width = 1000;
const left = 90;
const rowHeight = 24;
const top = 6;

/** Loads the call's turns, and again when the feed names the call (a turn is a timeline entry, not a stored row). */
const useTurns = (sid) =>
  useLive(
    () => api("GET", `/__sandbox/ui/api/calls/${sid}/turns`),
    [sid],
    (event, data) => (event === "timeline" || event === "change") && data.sids.includes(sid),
  );

export const ms = (value) => (value === null || value === undefined ? "—" : `${value} ms`);

/** What became of the caller's turn, in words. */
export const outcome = (turn) =>
  turn.late
    ? "answered late"
    : turn.answered
      ? "answered"
      : turn.owed
        ? "not answered"
        : turn.responseMs !== null
          ? "answered"
          : "no answer owed";

/** The turn's spans and points on the call's time, each with what it is in words. */
function marksOf(turn) {
  const marks = [];
  const ended = turn.endedAt ?? turn.startedAt;
  const caller = turn.by === "dtmf" ? `pressed ${turn.said ?? "keys"}` : "spoke";
  marks.push({ row: "Caller", at: turn.startedAt, end: ended, text: `turn ${turn.n}: caller ${caller}` });
  if (turn.responseMs !== null) {
    const answer = ended + turn.responseMs;
    marks.push({
      row: "Latency",
      at: ended,
      end: answer,
      text: `turn ${turn.n}: response ${ms(turn.responseMs)}`,
    });
    if (turn.speakingMs > 0)
      marks.push({
        row: "Agent",
        at: answer,
        end: answer + turn.speakingMs,
        text: `turn ${turn.n}: agent spoke ${ms(turn.speakingMs)} in all`,
      });
  }
  if (turn.bargeIn)
    marks.push({
      row: "Barge-in",
      at: turn.startedAt,
      end: turn.bargeIn.stopMs === null ? undefined : turn.startedAt + turn.bargeIn.stopMs,
      text: `turn ${turn.n}: barge-in, agent ${turn.bargeIn.stopMs === null ? "had not stopped" : `stopped in ${ms(turn.bargeIn.stopMs)}`}${turn.bargeIn.cut ? " (cut)" : ""}`,
    });
  return marks;
}

function LanePicture({ turns, start, sid }) {
  const marks = turns.flatMap(marksOf);
  const end = Math.max(start + 1000, ...marks.map((m) => m.end ?? m.at));
  const span = Math.max(end - start, 1);
  const x = (at) => left + ((at - start) / span) * (width - left - 10);
  const height = top + rows.length * rowHeight + 22;
  return html`<figure class="timeline turns-picture">
    <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-labelledby="turns-title turns-desc" preserveAspectRatio="none">
      <title id="turns-title">Agent turns of call ${sid}</title>
      <desc id="turns-desc">${turns.length} turns over ${offset(span)}; each turn's figures are in the table below.</desc>
      ${rows.map(
        (name, i) => html`<g>
          <rect x="0" y=${top + i * rowHeight} width=${width} height=${rowHeight} class=${i % 2 ? "lane odd" : "lane"} />
          <text x="6" y=${top + i * rowHeight + 16} class="lane-name">${name}</text>
        </g>`,
      )}
      <text x=${left} y=${height - 5} class="tick-label">${offset(0)}</text>
      <text x=${width - 10} y=${height - 5} class="tick-label" text-anchor="end">${offset(span)}</text>
      ${marks.map((m) => {
        const y = top + rows.indexOf(m.row) * rowHeight + 5;
        const cls = `mark turn-${m.row.toLowerCase()}`;
        if (m.end !== undefined && m.end > m.at)
          return html`<g class=${cls}><title>${`${offset(m.at - start)} ${m.text}`}</title>
            <rect x=${x(m.at)} y=${y} width=${Math.max(x(m.end) - x(m.at), 3)} height=${rowHeight - 10} rx="3" />
          </g>`;
        return html`<g class=${cls}><title>${`${offset(m.at - start)} ${m.text}`}</title>
          <circle cx=${x(m.at)} cy=${y + 7} r="5" />
        </g>`;
      })}
    </svg>
    <figcaption class="muted">Each turn from the caller's words: the gap before the agent's first sound, then its speaking time in all.</figcaption>
  </figure>`;
}

/** The figures over the call's turns, as a list of terms. */
function Figures({ metrics }) {
  const long = metrics.silencesMs.filter((s) => s >= longSilenceMs).length;
  const items = [
    ["Turns", String(metrics.turns)],
    ["Answered", `${metrics.answered} of ${metrics.owed} owed`],
    ["Not answered", String(metrics.unanswered)],
    ["Response latency p50", ms(metrics.responseMs.p50)],
    ["Response latency p95", ms(metrics.responseMs.p95)],
    ["Barge-ins", String(metrics.bargeIns)],
    ["Max barge-in stop", ms(metrics.bargeInStopMs.max)],
    ["Talk-over", ms(metrics.talkOverMs)],
    ["Longest silence", ms(metrics.longestSilenceMs)],
    [`Silences of ${longSilenceMs / 1000} s or more`, String(long)],
  ];
  return html`<dl class="figures" aria-label="Turn figures of the call">
    ${items.map(([term, value]) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`)}
  </dl>`;
}

function TurnRow({ turn, start }) {
  const long = turn.silencesMs.filter((s) => s >= longSilenceMs);
  const barge = turn.bargeIn
    ? `${turn.bargeIn.stopMs === null ? "not stopped" : ms(turn.bargeIn.stopMs)}${turn.bargeIn.cut ? " (cut)" : ""}`
    : "—";
  return html`<tr>
    <th scope="row">Turn ${turn.n}</th>
    <td>${turn.by === "dtmf" ? "keys" : "speech"}</td>
    <td>${turn.said === null ? html`<span class="muted">—</span>` : html`<q class="said">${turn.said}</q>`}</td>
    <td>${offset(turn.startedAt - start)} – ${turn.endedAt === null ? "…" : offset(turn.endedAt - start)}</td>
    <td>${ms(turn.responseMs)}</td>
    <td>${ms(turn.speakingMs)}</td>
    <td>${barge}</td>
    <td>${ms(turn.talkOverMs)}</td>
    <td>${long.length === 0 ? "none" : long.map(ms).join(", ")}</td>
    <td>${outcome(turn)}</td>
  </tr>`;
}

/** The lane, for a call whose timeline shows a `<Connect>` app; nothing for any other call. */
export function TurnsLane({ sid }) {
  const { data } = useTurns(sid);
  if (!data?.agent) return null;
  const { turns, metrics, start } = data;
  const columns = [
    "Turn",
    "By",
    "Caller said",
    "Caller's turn",
    "Response latency",
    "Agent speaking",
    "Barge-in stop",
    "Talk-over",
    "Long silences",
    "Outcome",
  ];
  return html`<section class="card turns" aria-labelledby="turns-h">
    <h2 id="turns-h">Agent turns</h2>
    <p class="note" role="status" aria-live="polite">${metrics.turns === 1 ? "1 turn" : `${metrics.turns} turns`} so far${data.total > turns.length ? ` (the first ${turns.length} listed)` : ""}.</p>
    <${Figures} metrics=${metrics} />
    ${
      turns.length === 0
        ? html`<p class="muted">No turn yet: the caller has not spoken to the agent.</p>`
        : html`
      <${LanePicture} turns=${turns} start=${start} sid=${sid} />
      <div class="table-wrap" tabindex="0" role="group" aria-label="Agent turns table (scrolls sideways on a narrow screen)"><table class="list turns-table">
        <caption class="visually-hidden">Agent turns, one row per caller turn</caption>
        <thead><tr>${columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
        <tbody>${turns.map((turn) => html`<${TurnRow} turn=${turn} start=${start} key=${turn.n} />`)}</tbody>
      </table></div>`
    }
  </section>`;
}
