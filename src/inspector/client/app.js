// The inspector's shell: navigation, the admin token prompt, the live feed's state, and the page for the address.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { feed, token } from "./api.js";
import { html } from "./html.js";
import { CallPage } from "./pages/call-page.js";
import { CallsPage } from "./pages/calls.js";
import { ControlsPage } from "./pages/controls.js";
import { MessagesPage } from "./pages/messages.js";
import { PhonePage } from "./pages/phone.js";
import { RequestsPage } from "./pages/requests.js";
import { WebhooksPage } from "./pages/webhooks.js";

const sections = [
  ["calls", "Calls"],
  ["messages", "Messages"],
  ["webhooks", "Webhooks"],
  ["requests", "Requests"],
  ["phone", "Phone"],
  ["controls", "Controls"],
];

const currentRoute = () => {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  return { section: parts[0] ?? "calls", id: parts[1] ?? null };
};

function TokenPrompt({ onDone }) {
  const [value, setValue] = useState("");
  return html`<form class="token card" onSubmit=${(e) => {
    e.preventDefault();
    token.set(value.trim());
    onDone();
  }}>
    <h2>Admin token</h2>
    <p>This sandbox has an admin token. Enter it to see its state (kept for this tab only).</p>
    <label for="token-input">Admin token</label>
    <input id="token-input" type="password" autocomplete="off" value=${value} onInput=${(e) => setValue(e.currentTarget.value)} />
    <button type="submit">Use token</button>
  </form>`;
}

function Page({ route }) {
  switch (route.section) {
    case "calls":
      return route.id ? html`<${CallPage} sid=${route.id} />` : html`<${CallsPage} />`;
    case "messages":
      return html`<${MessagesPage} />`;
    case "webhooks":
      return html`<${WebhooksPage} />`;
    case "requests":
      return html`<${RequestsPage} />`;
    case "phone":
      return html`<${PhonePage} />`;
    case "controls":
      return html`<${ControlsPage} />`;
    default:
      return html`<p>No such page. <a href="#/calls">Go to calls</a>.</p>`;
  }
}

function App() {
  const [route, setRoute] = useState(currentRoute());
  const [needsToken, setNeedsToken] = useState(false);
  const [live, setLive] = useState(false);
  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    addEventListener("hashchange", onHash);
    const offToken = token.onNeeded(() => setNeedsToken(true));
    const offStatus = feed.onStatus(setLive);
    feed.start();
    return () => {
      removeEventListener("hashchange", onHash);
      offToken();
      offStatus();
    };
  }, []);
  useEffect(() => {
    const name = sections.find(([key]) => key === route.section)?.[1] ?? "Inspector";
    document.title = `${name} · voice-sandbox inspector`;
    document.getElementById("main")?.focus({ preventScroll: true });
  }, [route.section, route.id]);

  return html`
    <a class="skip" href="#main" onClick=${(e) => {
      e.preventDefault();
      document.getElementById("main")?.focus();
    }}>Skip to content</a>
    <header class="top">
      <span class="brand">voice-sandbox <span class="muted">inspector</span></span>
      <nav aria-label="Sections">
        <ul>
          ${sections.map(
            ([key, label]) =>
              html`<li><a href=${`#/${key}`} aria-current=${route.section === key ? "page" : undefined}>${label}</a></li>`,
          )}
        </ul>
      </nav>
      <span class=${`feed ${live ? "on" : "off"}`} role="status">${live ? "Live" : "Connecting…"}</span>
    </header>
    <main id="main" tabindex="-1">
      ${needsToken ? html`<${TokenPrompt} onDone=${() => setNeedsToken(false)} />` : html`<${Page} route=${route} />`}
    </main>
  `;
}

render(html`<${App} />`, document.getElementById("app"));
