// Messages as conversations: one thread per pair of numbers, bubbles on each side, status and segments under each;
// filtered by account, status, a sid or a number, and clearable.
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { SearchBar, searchParams, useCleared } from "../cleared.js";
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

const statuses = [
  "queued",
  "sending",
  "sent",
  "failed",
  "delivered",
  "undelivered",
  "receiving",
  "received",
  "accepted",
  "scheduled",
  "read",
  "partially_delivered",
  "canceled",
];

export function MessagesPage() {
  const [account, setAccount] = useState("");
  const [status, setStatus] = useState("");
  const [thread, setThread] = useState("");
  const [q, setQ] = useState("");
  const [mark, clear, showAll] = useCleared("messages");
  const overview = useOverview();
  const query = new URLSearchParams({
    ...(account ? { account } : {}),
    ...(status ? { status } : {}),
    ...(thread ? { thread } : {}),
    ...searchParams(q, mark),
  });
  const list = useLive(
    () => api("GET", `/__sandbox/ui/api/conversations?${query}`),
    [account, status, thread, q, mark],
    tableChanged("messages"),
  );
  const mine = new Set((overview.data?.numbers ?? []).map((n) => n.number));
  const current = list.data?.thread;
  // A new filter shows its own first conversation, not one it may have left out.
  const narrow = (set) => (value) => {
    set(value);
    setThread("");
  };
  const narrowed = q !== "" || mark !== null || status !== "";
  return html`
    <h1>Messages</h1>
    <div class="filters" role="group" aria-label="Filter messages">
      <label>Account
        <select value=${account} onChange=${(e) => narrow(setAccount)(e.currentTarget.value)}>
          <option value="">All accounts</option>
          ${(overview.data?.accounts ?? []).map((a) => html`<option value=${a.sid}>${a.name}</option>`)}
        </select>
      </label>
      <label>Status
        <select value=${status} onChange=${(e) => narrow(setStatus)(e.currentTarget.value)}>
          <option value="">Any status</option>
          ${statuses.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
    </div>
    <${SearchBar} id="messages-q" what="messages" placeholder="a message sid or a number" onSearch=${narrow(setQ)}
      mark=${mark} onClear=${() => {
        setThread("");
        clear(list.data?.mark);
      }} onShowAll=${showAll} />
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
        ${
          list.data && list.data.conversations.length === 0
            ? narrowed
              ? html`<p class="empty">No messages${q ? ` match “${q}”` : ""}${status ? ` with status ${status}` : ""}${mark ? " since the list was cleared" : ""}.</p>`
              : html`<p class="empty">No messages yet. Text a number from the <a href="#/phone">phone</a>.</p>`
            : null
        }
      </nav>
      <section aria-label="Conversation">${list.data ? html`<${Thread} messages=${list.data.messages} mine=${mine} />` : null}</section>
    </div>
  `;
}
