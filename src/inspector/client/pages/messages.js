// Messages as conversations: one thread per pair of numbers, bubbles on each side, status and segments under each.
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { dateTime } from "../format.js";
import { html } from "../html.js";
import { StoredLink } from "../links.js";
import { tableChanged, useLive } from "../live.js";
import { useOverview } from "../overview.js";

/** A thread's messages; `mine` is the set of the sandbox's own numbers (shown on the right). */
export function Thread({ messages, mine }) {
  if (messages.length === 0) return html`<p class="muted">No messages.</p>`;
  return html`<ol class="thread" aria-label="Messages, oldest first">
    ${messages.map((m) => {
      const own = mine.has(m.from);
      return html`<li class=${`bubble ${own ? "own" : "other"}`}>
        <span class="visually-hidden">${m.from} wrote:</span>
        <p>${m.body}</p>
        ${m.media_urls.map((u) => html`<${StoredLink} url=${u} label="attachment" /> `)}
        <p class="meta">${m.from} → ${m.to} · ${m.status}${m.error_code ? ` (${m.error_code})` : ""} · ${m.num_segments} segment${m.num_segments === 1 ? "" : "s"} · ${m.encoding} · ${dateTime(m.created_at)}</p>
      </li>`;
    })}
  </ol>`;
}

export function MessagesPage() {
  const [account, setAccount] = useState("");
  const [thread, setThread] = useState("");
  const overview = useOverview();
  const query = new URLSearchParams({ ...(account ? { account } : {}), ...(thread ? { thread } : {}) });
  const list = useLive(
    () => api("GET", `/__sandbox/ui/api/conversations?${query}`),
    [account, thread],
    tableChanged("messages"),
  );
  const mine = new Set((overview.data?.numbers ?? []).map((n) => n.number));
  const current = list.data?.thread;
  return html`
    <h1>Messages</h1>
    <div class="filters">
      <label>Account
        <select value=${account} onChange=${(e) => {
          setAccount(e.currentTarget.value);
          setThread("");
        }}>
          <option value="">All accounts</option>
          ${(overview.data?.accounts ?? []).map((a) => html`<option value=${a.sid}>${a.name}</option>`)}
        </select>
      </label>
    </div>
    ${list.error ? html`<p class="error" role="alert">${list.error.message}</p>` : null}
    <div class="messenger">
      <nav aria-label="Conversations">
        <ul class="conversations">
          ${(list.data?.conversations ?? []).map(
            (
              c,
            ) => html`<li><button type="button" class=${c.thread === current ? "selected" : ""} aria-pressed=${c.thread === current} onClick=${() => setThread(c.thread)}>
              <strong>${c.numbers.join(" ↔ ")}</strong>
              <span class="muted">${c.count} · ${c.last.body.slice(0, 40)}</span>
            </button></li>`,
          )}
        </ul>
        ${list.data && list.data.conversations.length === 0 ? html`<p class="empty">No messages yet. Text a number from the <a href="#/phone">phone</a>.</p>` : null}
      </nav>
      <section aria-label="Conversation">${list.data ? html`<${Thread} messages=${list.data.messages} mine=${mine} />` : null}</section>
    </div>
  `;
}
