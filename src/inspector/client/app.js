// The inspector's shell: navigation, what the server refused (token, Host), the live feed's state, and the page for the address.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { AccessProblem } from "./access.js";
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
  // The server's refusal ({ status, message }) while it refuses the page, else null.
  const [access, setAccess] = useState(null);
  const [live, setLive] = useState(false);
  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    addEventListener("hashchange", onHash);
    // The same refusal again (the feed retries each second) keeps the form as it is.
    const offToken = token.onRefused((problem) =>
      setAccess((now) =>
        now && now.status === problem.status && now.message === problem.message ? now : problem,
      ),
    );
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
      ${access ? html`<${AccessProblem} problem=${access} onDone=${() => setAccess(null)} />` : html`<${Page} route=${route} />`}
    </main>
  `;
}

render(html`<${App} />`, document.getElementById("app"));
