// One call: its timeline as a picture and as a list, what the caller heard, markup, legs, recordings, webhooks, charges.
import { api } from "../api.js";
import { clockTime, dateTime, isLive, offset, price, seconds } from "../format.js";
import { html } from "../html.js";
import { useLive } from "../live.js";
import { CallAudio } from "./call-audio.js";
import { CallControls } from "./call-controls.js";
import { StatusBadge } from "./calls.js";
import { ConversationAudio, hadAgent } from "./conversation-audio.js";
import { Recording } from "./recording.js";
import { TimelinePicture } from "./timeline-picture.js";
import { TurnsLane } from "./turns-lane.js";
import { Params, WebhookRow } from "./webhook-row.js";

/** Loads the call page's data, and again when the feed names this call, anything of it, or its timeline. */
export const useCall = (sid) =>
  useLive(
    () => api("GET", `/__sandbox/ui/api/calls/${sid}`),
    [sid],
    (event, data) =>
      event === "webhooks" || ((event === "change" || event === "timeline") && data.sids.includes(sid)),
  );

/** What the app's markup said to the caller, as text. */
export function Heard({ heard }) {
  if (heard.length === 0) return html`<p class="muted">Nothing yet.</p>`;
  return html`<ol class="heard">
    ${heard.map((h) => html`<li><span class="muted">${clockTime(h.at)}</span> ${h.kind === "say" ? html`<q>${h.text}</q>` : h.kind === "play" ? `♪ ${h.url}` : h.kind === "digits" ? `tones ${h.text}` : h.kind}</li>`)}
  </ol>`;
}

export function CallPage({ sid }) {
  const { data, error } = useCall(sid);
  if (error && !data) return html`<p class="error" role="alert">${error.message}</p>`;
  if (!data) return html`<p aria-busy="true">Loading call…</p>`;
  const { call } = data;
  const start = call.created_at;
  const markups = data.webhooks.filter((w) => w.kind === "voice-markup");
  const callbacks = data.webhooks.filter((w) => w.kind !== "voice-markup");
  return html`
    <p><a href="#/calls">← All calls</a></p>
    <h1>Call <span class="mono">${call.sid}</span></h1>
    <div class="summary card">
      <${StatusBadge} status=${call.status} />
      <span>${call.direction}</span>
      <span><strong>From</strong> ${call.from}</span>
      <span><strong>To</strong> ${call.to}</span>
      <span><strong>Duration</strong> ${seconds(call.duration)}</span>
      <span><strong>Price</strong> ${price(call.price, call.price_unit)}</span>
      <span><strong>Created</strong> ${dateTime(call.created_at)}</span>
      ${data.parent ? html`<span><strong>Parent</strong> <a href=${`#/calls/${data.parent.sid}`}>${data.parent.sid}</a></span>` : null}
    </div>
    ${isLive(call.status) ? html`<${CallControls} sid=${call.sid} />` : null}
    ${isLive(call.status) ? html`<${CallAudio} sid=${call.sid} key=${call.sid} />` : null}
    <h2>Timeline</h2>
    <${TimelinePicture} detail=${data} />
    <${TurnsLane} sid=${call.sid} key=${call.sid} />
    <details class="card">
      <summary>Every event (${data.timeline.length})</summary>
      <div class="table-wrap"><table class="list timeline-table">
        <caption class="visually-hidden">Timeline events</caption>
        <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Detail</th></tr></thead>
        <tbody>${data.timeline.map((e) => html`<tr><td>${offset(e.at - start)}</td><td>${e.kind}</td><td class="mono">${JSON.stringify(e.detail)}</td></tr>`)}</tbody>
      </table></div>
    </details>
    <div class="columns">
      <section aria-labelledby="heard-h"><h2 id="heard-h">What the caller heard</h2><${Heard} heard=${data.heard} /></section>
      <section aria-labelledby="legs-h"><h2 id="legs-h">Legs, conferences, queues</h2>
        ${data.children.length === 0 && data.conferences.length === 0 ? html`<p class="muted">No other legs or rooms.</p>` : null}
        <ul>
          ${data.children.map((c) => html`<li>Leg <a href=${`#/calls/${c.sid}`}>${c.to}</a> <${StatusBadge} status=${c.status} /></li>`)}
          ${data.conferences.map((p) => html`<li>Conference ${p.conference ?? p.conference_sid}: ${p.status ?? ""}${p.muted ? " (muted)" : ""}</li>`)}
          ${data.timeline.filter((e) => e.kind.startsWith("queue.")).map((e) => html`<li>${e.kind} ${e.detail.queue ?? ""}</li>`)}
        </ul>
      </section>
    </div>
    ${data.alerts.length ? html`<section aria-labelledby="alerts-h"><h2 id="alerts-h">Alerts</h2><ul>${data.alerts.map((a) => html`<li class="error">${a.code}: ${a.message}</li>`)}</ul></section>` : null}
    <section aria-labelledby="markup-h">
      <h2 id="markup-h">Markup fetched</h2>
      ${markups.length === 0 ? html`<p class="muted">None.</p>` : null}
      <ol class="markups">
        ${markups.map(
          (m) => html`<li class="card">
            <p><span class="mono">${m.method} ${m.url}</span> → <strong>${m.status ?? m.error}</strong> <span class="muted">${offset(Date.parse(m.sent_at) - start)} · ${m.latency_ms} ms</span></p>
            <details><summary>Request parameters (${Object.keys(m.params ?? {}).length})</summary><${Params} params=${m.params} label="Markup request parameters" /></details>
            ${m.response_body ? html`<figure class="returned"><figcaption>Returned markup${m.status ? ` (HTTP ${m.status})` : ""}</figcaption><pre class="document">${m.response_body}</pre></figure>` : html`<p class="muted">No markup returned.</p>`}
          </li>`,
        )}
      </ol>
    </section>
    ${hadAgent(data.timeline) ? html`<${ConversationAudio} sid=${call.sid} key=${call.sid} />` : null}
    <section aria-labelledby="rec-h">
      <h2 id="rec-h">Recordings</h2>
      ${data.recordings.length === 0 ? html`<p class="muted">None.</p>` : data.recordings.map((r) => html`<${Recording} recording=${r} key=${r.sid} />`)}
    </section>
    <section aria-labelledby="hooks-h">
      <h2 id="hooks-h">Webhooks</h2>
      ${callbacks.length === 0 ? html`<p class="muted">None.</p>` : null}
      <ul class="deliveries">${callbacks.map((d) => html`<${WebhookRow} delivery=${d} key=${`${d.id}-${d.attempt}`} />`)}</ul>
    </section>
    <section aria-labelledby="charges-h">
      <h2 id="charges-h">Charges</h2>
      <table class="list">
        <caption class="visually-hidden">Charges</caption>
        <thead><tr><th scope="col">Item</th><th scope="col">Sid</th><th scope="col">Price</th></tr></thead>
        <tbody>${data.charges.map((c) => html`<tr><td>${c.item}</td><td class="mono">${c.sid}</td><td>${price(c.price, c.price_unit)}</td></tr>`)}</tbody>
      </table>
    </section>
  `;
}
