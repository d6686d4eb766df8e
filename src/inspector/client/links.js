// Stored values are data: a URL the sandbox stored becomes a link only when it is http(s); anything else
// (javascript:, data:, file:, a relative path) is shown as the text it is.
import { html } from "./html.js";

/** The URL's normalised form when it is an absolute http(s) URL, else null. */
export function webUrl(value) {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** A link with `label` to an http(s) URL, or the label and the stored value as text. */
export function StoredLink({ url, label }) {
  const href = webUrl(url);
  if (href !== null) return html`<a href=${href} rel="noopener noreferrer">${label}</a>`;
  return html`<span class="unlinked">${label} <code>${String(url)}</code></span>`;
}
