// The webhook delivery log, newest first: request, signature, answer and timing of each attempt, with resend.
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { html } from "../html.js";
import { useLive } from "../live.js";
import { WebhookRow } from "./webhook-row.js";

const kinds = [
  "voice-markup",
  "call-status",
  "recording-status",
  "transcription",
  "message-status",
  "sms-markup",
  "stream-status",
];

export function WebhooksPage() {
  const [kind, setKind] = useState("");
  const query = new URLSearchParams({ limit: "200", ...(kind ? { kind } : {}) });
  const log = useLive(
    () => api("GET", `/__sandbox/webhooks?${query}`),
    [kind],
    (event) => event === "webhooks",
  );
  const deliveries = [...(log.data?.deliveries ?? [])].reverse();
  return html`
    <h1>Webhooks</h1>
    <div class="filters">
      <label>Kind
        <select value=${kind} onChange=${(e) => setKind(e.currentTarget.value)}>
          <option value="">Every kind</option>
          ${kinds.map((k) => html`<option value=${k}>${k}</option>`)}
        </select>
      </label>
      ${log.data ? html`<span class="muted">${log.data.total} attempts · ${log.data.queued} queued · ${log.data.in_flight} in flight · ${log.data.waiting_retry} waiting to retry</span>` : null}
    </div>
    ${log.error ? html`<p class="error" role="alert">${log.error.message}</p>` : null}
    <ul class="deliveries">${deliveries.map((d) => html`<${WebhookRow} delivery=${d} key=${`${d.id}-${d.attempt}`} />`)}</ul>
    ${log.data && deliveries.length === 0 ? html`<p class="empty">No deliveries yet.</p>` : null}
  `;
}
