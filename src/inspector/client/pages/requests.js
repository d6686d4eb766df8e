// The request journal, newest first: method, path, parameters and body, the answer with its error code, latency and any fault.
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { html } from "../html.js";
import { useLive } from "../live.js";
import { Params } from "./webhook-row.js";

export function RequestsPage() {
  const [surface, setSurface] = useState("");
  const [status, setStatus] = useState("");
  const query = new URLSearchParams({
    limit: "200",
    ...(surface ? { surface } : {}),
    ...(status ? { status } : {}),
  });
  const journal = useLive(
    () => api("GET", `/__sandbox/requests?${query}`),
    [surface, status],
    (event) => event === "requests",
  );
  const entries = [...(journal.data?.requests ?? [])].reverse();
  return html`
    <h1>Requests</h1>
    <div class="filters">
      <label>Surface
        <select value=${surface} onChange=${(e) => setSurface(e.currentTarget.value)}>
          <option value="">Every surface</option>
          <option value="account">account API</option>
          <option value="carrier">carrier API</option>
          <option value="admin">admin API</option>
        </select>
      </label>
      <label>Status
        <select value=${status} onChange=${(e) => setStatus(e.currentTarget.value)}>
          <option value="">Any status</option>
          <option value="2xx">2xx</option>
          <option value="4xx">4xx</option>
          <option value="5xx">5xx</option>
        </select>
      </label>
    </div>
    ${journal.error ? html`<p class="error" role="alert">${journal.error.message}</p>` : null}
    <ul class="requests">
      ${entries.map(
        (r) => html`<li class=${r.status >= 400 ? "failed" : ""}>
          <details>
            <summary>
              <span class="mono">${r.method} ${r.path}</span>
              <span class=${`answer ${r.status >= 400 ? "http-error" : "success"}`}>${r.status}${r.error_code ? ` · ${r.error_code}` : ""}</span>
              <span class="muted">${r.surface} · ${r.latency_ms} ms · ${r.at.slice(11, 23)}${r.fault ? ` · fault ${r.fault.id}` : ""}</span>
            </summary>
            <div class="delivery-body">
              <p><strong>Account</strong> ${r.account_sid ?? "—"}</p>
              <h4>Query parameters</h4>
              <${Params} params=${Object.fromEntries(new URLSearchParams(r.query))} label="Query parameters" />
              <h4>Request body</h4>
              ${r.request_body ? html`<pre class="document">${r.request_body}</pre>` : html`<p class="muted">None.</p>`}
              <h4>Answer${r.error_code ? ` (error ${r.error_code})` : ""}</h4>
              ${r.response_body ? html`<pre class="document">${r.response_body}</pre>` : html`<p class="muted">No body kept.</p>`}
            </div>
          </details>
        </li>`,
      )}
    </ul>
    ${journal.data && entries.length === 0 ? html`<p class="empty">No requests recorded.</p>` : null}
  `;
}
