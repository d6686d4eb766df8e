// One webhook delivery: what was sent (URL, parameters, signature), what came back, how long it took; and resend.
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { timeOf } from "../format.js";
import { html } from "../html.js";

export function Params({ params, label }) {
  const entries = Object.entries(params ?? {});
  if (entries.length === 0) return html`<p class="muted">No parameters.</p>`;
  return html`<dl class="params" aria-label=${label}>
    ${entries.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
  </dl>`;
}

export function WebhookRow({ delivery: d }) {
  const [resent, setResent] = useState(null);
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      const answer = await api("POST", `/__sandbox/webhooks/${d.id}/resend`, {});
      setResent({
        ok: true,
        text: `Resent as ${answer.delivery.id}: ${answer.delivery.status ?? answer.delivery.error} (${answer.delivery.outcome})`,
      });
    } catch (error) {
      setResent({ ok: false, text: `Resend failed: ${error.message}` });
    } finally {
      setBusy(false);
    }
  };
  return html`<li class=${`delivery ${d.outcome === "success" ? "" : "failed"}`}>
    <details>
      <summary>
        <span class="badge">${d.kind}</span>
        <span class="mono">${d.method} ${d.url}</span>
        <span class=${`answer ${d.outcome}`}>${d.status ?? "no answer"}${d.attempt > 1 ? ` · attempt ${d.attempt}` : ""}</span>
        <span class="muted">${d.latency_ms} ms · ${timeOf(d.sent_at)}</span>
      </summary>
      <div class="delivery-body">
        <h4>Request parameters</h4>
        <${Params} params=${d.params} label="Request parameters" />
        <p><strong>Signature</strong> <code>${d.signature}</code></p>
        <p><strong>Idempotency token</strong> <code>${d.idempotency_token}</code></p>
        <h4>Answer</h4>
        <p>${d.status === null ? d.error : `HTTP ${d.status}`}${d.error && d.status !== null ? ` (${d.error})` : ""}${d.next_attempt_at ? ` · retry at ${timeOf(d.next_attempt_at)}` : ""}</p>
        ${d.response_body ? html`<pre class="document">${d.response_body}</pre>` : null}
      </div>
    </details>
    <button type="button" class="secondary" disabled=${busy} onClick=${resend} aria-label=${`Resend ${d.kind} to ${d.url}`}>Resend</button>
    ${resent ? html`<p class=${resent.ok ? "note" : "error"} role="status">${resent.text}</p>` : null}
  </li>`;
}
