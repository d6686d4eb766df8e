// When the server refuses the page: the admin token it needs (none given, or a wrong one), or a Host name it does not answer.
import { useState } from "preact/hooks";
import { token } from "./api.js";
import { html } from "./html.js";

/** A refusal the token can cure: none was sent (401), or the one sent is not the server's (403 naming it). */
const aboutToken = (problem) => problem.status === 401 || /admin token/i.test(problem.message);

function TokenForm({ onDone, retry }) {
  const [value, setValue] = useState("");
  return html`<form onSubmit=${(e) => {
    e.preventDefault();
    token.set(value.trim());
    onDone();
  }}>
    <label for="token-input">Admin token</label>
    <input id="token-input" type="password" autocomplete="off" value=${value} onInput=${(e) => setValue(e.currentTarget.value)} />
    <button type="submit">${retry ? "Try this token" : "Use token"}</button>
  </form>`;
}

/** What the page shows instead of a section while the server refuses it, with how to get in. */
export function AccessProblem({ problem, onDone }) {
  const given = token.get() !== "";
  if (!aboutToken(problem)) {
    return html`<section class="token card" aria-labelledby="refused-h">
      <h2 id="refused-h">The sandbox refused this page</h2>
      <p class="error" role="alert">${problem.status}: ${problem.message}</p>
      <p>The page itself loads from any address; its reads are checked. Start the server as the message says, then try again.</p>
      <button type="button" onClick=${onDone}>Try again</button>
    </section>`;
  }
  // Not labelled by its heading: the field alone is "Admin token".
  return html`<section class="token card">
    <h2>Admin token</h2>
    ${
      given
        ? html`<p class="error" role="alert">The admin token you gave was refused (${problem.status}): ${problem.message}</p>
          <p>Give the token the server was started with: <code>--admin-token</code> or <code>VOICE_SANDBOX_ADMIN_TOKEN</code>, or with <code>--generate-admin-token</code> (the Docker image) the line <code>admin token (generated, shown once …)</code> the server printed at start.</p>`
        : html`<p>This sandbox has an admin token. Enter it to see its state (kept for this tab only).</p>`
    }
    <${TokenForm} onDone=${onDone} retry=${given} />
  </section>`;
}
