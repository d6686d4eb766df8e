// A call's timeline as a picture: one lane per kind of thing that happened, on a shared time axis.
import { clockTime, offset } from "../format.js";
import { html } from "../html.js";

const laneNames = ["Status", "Markup", "Verbs", "Caller", "Heard", "Legs & rooms", "Recording", "Webhooks"];
const width = 1000;
const left = 120;
const laneHeight = 26;
const top = 8;

/** Turns the call's record, engine timeline and deliveries into marks: points and spans per lane. */
export function marksOf(detail) {
  const marks = [];
  const { call, timeline, webhooks, children } = detail;
  const statusChanges = [{ at: call.created_at, status: timeline.length === 0 ? call.status : "queued" }];
  const open = new Map();
  for (const entry of timeline) {
    const d = entry.detail ?? {};
    const [group] = entry.kind.split(".");
    if (entry.kind === "status") statusChanges.push({ at: entry.at, status: d.status });
    else if (entry.kind === "verb.start") open.set(`verb`, { at: entry.at, label: d.verb });
    else if (entry.kind === "verb.end") {
      const start = open.get("verb");
      open.delete("verb");
      if (start)
        marks.push({
          lane: "Verbs",
          at: start.at,
          end: entry.at,
          label: start.label,
          text: `${start.label} (${d.outcome})`,
        });
    } else if (entry.kind === "recording.start") open.set(`rec:${d.sid}`, entry.at);
    else if (entry.kind === "recording.end") {
      marks.push({
        lane: "Recording",
        at: open.get(`rec:${d.sid}`) ?? entry.at,
        end: entry.at,
        label: "rec",
        text: `recording ${d.sid} (${d.duration} s)`,
      });
      open.delete(`rec:${d.sid}`);
    } else if (entry.kind === "party.say") {
      marks.push({
        lane: "Caller",
        at: entry.at,
        end: entry.at + (d.ms ?? 0),
        label: "said",
        text: `said “${d.text}”`,
      });
    } else if (entry.kind === "party.press")
      marks.push({ lane: "Caller", at: entry.at, label: d.digits, text: `pressed ${d.digits}` });
    else if (entry.kind === "party.hangup")
      marks.push({ lane: "Caller", at: entry.at, label: "hung up", text: "hung up" });
    else if (group === "heard")
      marks.push({
        lane: "Heard",
        at: entry.at,
        label: d.kind,
        text: d.text ? `${d.kind}: “${d.text}”` : d.url ? `${d.kind}: ${d.url}` : d.kind,
      });
    else if (group === "markup")
      marks.push({
        lane: "Markup",
        at: entry.at,
        label: entry.kind === "markup.request" ? "GET/POST" : String(d.status ?? ""),
        text:
          entry.kind === "markup.request"
            ? `fetch ${d.method} ${d.url}`
            : `answer ${d.status ?? d.error ?? ""}`,
      });
    else if (["dial", "conference", "queue", "own-number", "whisper"].includes(group)) {
      marks.push({
        lane: "Legs & rooms",
        at: entry.at,
        label: entry.kind,
        text: `${entry.kind} ${describe(d)}`,
      });
    } else if (entry.kind === "alert")
      marks.push({
        lane: "Status",
        at: entry.at,
        label: "!",
        text: `alert ${d.code ?? ""} ${d.message ?? ""}`,
        alert: true,
      });
  }
  const end = Math.max(
    call.end_time ?? 0,
    ...timeline.map((e) => e.at),
    ...webhooks.map((w) => Date.parse(w.sent_at)),
    call.created_at + 1000,
  );
  statusChanges.forEach((change, i) => {
    const next = statusChanges[i + 1];
    const until = next ? next.at : (call.end_time ?? end);
    marks.push({
      lane: "Status",
      at: change.at,
      end: Math.max(until, change.at),
      label: change.status,
      text: `status ${change.status}`,
      status: change.status,
    });
  });
  for (const child of children)
    marks.push({
      lane: "Legs & rooms",
      at: child.created_at,
      label: "leg",
      text: `leg ${child.sid} to ${child.to}: ${child.status}`,
    });
  for (const w of webhooks) {
    if (w.kind === "voice-markup") continue;
    marks.push({
      lane: "Webhooks",
      at: Date.parse(w.sent_at),
      label: String(w.status ?? "×"),
      text: `${w.kind} → ${w.status ?? w.error}`,
      failed: w.outcome !== "success",
    });
  }
  return { marks, start: call.created_at, end };
}

const describe = (d) =>
  Object.entries(d)
    .filter(([, v]) => typeof v !== "object")
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");

export function TimelinePicture({ detail }) {
  const { marks, start, end } = marksOf(detail);
  const span = Math.max(end - start, 1);
  const x = (at) => left + ((at - start) / span) * (width - left - 10);
  const height = top + laneNames.length * laneHeight + 24;
  const ticks = 5;
  return html`
    <figure class="timeline">
      <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-labelledby="timeline-title timeline-desc" preserveAspectRatio="none">
        <title id="timeline-title">Timeline of call ${detail.call.sid}</title>
        <desc id="timeline-desc">${marks.length} events over ${offset(span)}; the same events are listed in the table below.</desc>
        ${laneNames.map(
          (name, i) => html`<g>
            <rect x="0" y=${top + i * laneHeight} width=${width} height=${laneHeight} class=${i % 2 ? "lane odd" : "lane"} />
            <text x="6" y=${top + i * laneHeight + 17} class="lane-name">${name}</text>
          </g>`,
        )}
        ${Array.from({ length: ticks + 1 }, (_, i) => {
          const at = start + (span * i) / ticks;
          return html`<g>
            <line x1=${x(at)} x2=${x(at)} y1=${top} y2=${top + laneNames.length * laneHeight} class="tick" />
            <text x=${x(at)} y=${height - 6} class="tick-label" text-anchor=${i === ticks ? "end" : i === 0 ? "start" : "middle"}>${offset(at - start)}</text>
          </g>`;
        })}
        ${marks.map((m) => {
          const lane = laneNames.indexOf(m.lane);
          const y = top + lane * laneHeight + 5;
          const cls = [
            "mark",
            m.status ? `status-${m.status}` : `lane-${lane}`,
            m.failed ? "failed" : "",
            m.alert ? "alert" : "",
          ].join(" ");
          if (m.end !== undefined && m.end > m.at) {
            const w = Math.max(x(m.end) - x(m.at), 3);
            return html`<g class=${cls}><title>${`${offset(m.at - start)} ${m.text}`}</title>
              <rect x=${x(m.at)} y=${y} width=${w} height=${laneHeight - 10} rx="3" />
              ${w > 40 ? html`<text x=${x(m.at) + 4} y=${y + 12} class="mark-label">${m.label}</text>` : null}
            </g>`;
          }
          return html`<g class=${cls}><title>${`${offset(m.at - start)} ${m.text}`}</title>
            <circle cx=${x(m.at)} cy=${y + 8} r="6" />
          </g>`;
        })}
      </svg>
      <figcaption class="muted">Started ${clockTime(start)} (sandbox clock). Hover a mark for what it is.</figcaption>
    </figure>
  `;
}
