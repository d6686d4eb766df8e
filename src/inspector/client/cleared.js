// Search and "clear" for a list: the search term, and a mark hiding what the list held when it was cleared (kept for the tab).
import { useState } from "preact/hooks";
import { html } from "./html.js";

const keyOf = (list) => `voice-sandbox.cleared.${list}`;

function readMark(list) {
  try {
    const mark = JSON.parse(sessionStorage.getItem(keyOf(list)) ?? "null");
    return mark && Number.isInteger(mark.at) && Array.isArray(mark.sids) ? mark : null;
  } catch {
    return null;
  }
}

/**
 * `[mark, clear, showAll]`: `clear(serverMark)` hides everything up to the mark the server sent with the list
 * (its newest row's time and the rows made then); `showAll()` drops it.
 */
export function useCleared(list) {
  const [mark, setMark] = useState(() => readMark(list));
  const clear = (serverMark) => {
    if (!serverMark) return;
    sessionStorage.setItem(keyOf(list), JSON.stringify(serverMark));
    setMark(serverMark);
  };
  const showAll = () => {
    sessionStorage.removeItem(keyOf(list));
    setMark(null);
  };
  return [mark, clear, showAll];
}

/** The list query's part for a search and a mark. */
export const searchParams = (q, mark) => ({
  ...(q ? { q } : {}),
  ...(mark ? { since: String(mark.at), ...(mark.sids.length ? { hide: mark.sids.join(",") } : {}) } : {}),
});

/** A search box (sid or number, applied on Enter or the button) with the list's Clear and Show all. */
export function SearchBar({ id, what, placeholder, onSearch, mark, onClear, onShowAll }) {
  const [draft, setDraft] = useState("");
  return html`<form class="search inline" role="search" aria-label=${`Search ${what}`} onSubmit=${(e) => {
    e.preventDefault();
    onSearch(draft.trim());
  }}>
    <label for=${id}>Search</label>
    <input id=${id} type="search" value=${draft} placeholder=${placeholder} size="28" onInput=${(e) => {
      setDraft(e.currentTarget.value);
      // Emptied (the field's own clear button included): the whole list again.
      if (e.currentTarget.value === "") onSearch("");
    }} />
    <button type="submit" class="secondary">Search</button>
    ${
      mark
        ? html`<button type="button" class="secondary" onClick=${onShowAll}>Show all ${what}</button>`
        : html`<button type="button" class="secondary" onClick=${onClear}>Clear list</button>`
    }
  </form>`;
}
