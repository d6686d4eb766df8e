// The calls list: newest first, filtered by account, status, a sid or a number, clearable, kept current by the live feed.
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { SearchBar, searchParams, useCleared } from "../cleared.js";
import { dateTime, price, seconds } from "../format.js";
import { html } from "../html.js";
import { tableChanged, useLive } from "../live.js";
import { useOverview } from "../overview.js";

const statuses = ["queued", "ringing", "in-progress", "completed", "busy", "no-answer", "failed", "canceled"];

export function StatusBadge({ status }) {
  return html`<span class=${`badge status-${status}`}>${status}</span>`;
}

export function CallsPage() {
  const [account, setAccount] = useState("");
  const [status, setStatus] = useState("");
  const [q, setQ] = useState("");
  const [mark, clear, showAll] = useCleared("calls");
  const overview = useOverview();
  const query = new URLSearchParams({
    ...(account ? { account } : {}),
    ...(status ? { status } : {}),
    ...searchParams(q, mark),
  });
  const list = useLive(
    () => api("GET", `/__sandbox/ui/api/calls?${query}`),
    [account, status, q, mark],
    tableChanged("calls"),
  );
  const narrowed = q !== "" || mark !== null;

  return html`
    <h1>Calls</h1>
    <div class="filters" role="group" aria-label="Filter calls">
      <label>Account
        <select value=${account} onChange=${(e) => setAccount(e.currentTarget.value)}>
          <option value="">All accounts</option>
          ${(overview.data?.accounts ?? []).map((a) => html`<option value=${a.sid}>${a.name} (${a.sid.slice(0, 8)}…)</option>`)}
        </select>
      </label>
      <label>Status
        <select value=${status} onChange=${(e) => setStatus(e.currentTarget.value)}>
          <option value="">Any status</option>
          ${statuses.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <span class="muted" aria-live="polite">${list.data ? `${list.data.total} call${list.data.total === 1 ? "" : "s"}${mark ? " since the list was cleared" : ""}` : ""}</span>
    </div>
    <${SearchBar} id="calls-q" what="calls" placeholder="a call sid or a number" onSearch=${setQ}
      mark=${mark} onClear=${() => clear(list.data?.mark)} onShowAll=${showAll} />
    ${list.error ? html`<p class="error" role="alert">${list.error.message}</p>` : null}
    <div class="table-wrap">
      <table class="list">
        <caption class="visually-hidden">Calls, newest first</caption>
        <thead><tr><th scope="col">Status</th><th scope="col">Direction</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Duration</th><th scope="col">Price</th><th scope="col">Started</th></tr></thead>
        <tbody>
          ${(list.data?.calls ?? []).map(
            (c) => html`<tr>
              <td><${StatusBadge} status=${c.status} /></td>
              <td>${c.direction}${c.parent_call_sid ? html` <span class="muted">(leg)</span>` : null}</td>
              <td><a href=${`#/calls/${c.sid}`} aria-label=${`Call from ${c.from} to ${c.to}, ${c.status}`}>${c.from}</a></td>
              <td>${c.to}</td>
              <td>${seconds(c.duration)}</td>
              <td>${price(c.price, c.price_unit)}</td>
              <td>${dateTime(c.created_at)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      ${
        list.data && list.data.calls.length === 0
          ? narrowed
            ? html`<p class="empty">No calls${q ? ` match “${q}”` : ""}${mark ? " since the list was cleared" : ""}.</p>`
            : html`<p class="empty">No calls yet. Ring a number from the <a href="#/phone">phone</a>.</p>`
          : null
      }
    </div>
  `;
}
