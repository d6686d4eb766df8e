// Controls: the clock (advance, run until idle, real or virtual), reset, snapshot download, faults, and scenario runs.
import { useState } from "preact/hooks";
import { api, download } from "../api.js";
import { dateTime } from "../format.js";
import { html } from "../html.js";
import { useLive } from "../live.js";

const faultExample =
  '{"path": "/2010-04-01/Accounts/*/Messages.json", "method": "POST", "status": 503, "count": 1}';

function useAction() {
  const [note, setNote] = useState(null);
  const run = async (what, action) => {
    try {
      const result = await action();
      setNote({ ok: true, text: what });
      return result;
    } catch (error) {
      setNote({ ok: false, text: `${what}: ${error.message}` });
      return undefined;
    }
  };
  const view = note ? html`<p class=${note.ok ? "note" : "error"} role="status">${note.text}</p>` : null;
  return [run, view];
}

function ClockControls() {
  const clock = useLive(
    () => api("GET", "/__sandbox/clock"),
    [],
    (event) => event === "change",
  );
  const [by, setBy] = useState("5s");
  const [run, note] = useAction();
  const c = clock.data;
  return html`<section class="card" aria-labelledby="clock-h">
    <h2 id="clock-h">Clock</h2>
    ${c ? html`<p aria-live="polite"><strong>${dateTime(Date.parse(c.now))}</strong> · ${c.mode} · ${c.pending_timers} timers pending</p>` : null}
    <form class="inline" onSubmit=${async (e) => {
      e.preventDefault();
      await run(`Advanced by ${by}`, () => api("POST", "/__sandbox/clock/advance", { by }));
      void clock.reload();
    }}>
      <label for="advance-by">Advance by</label>
      <input id="advance-by" value=${by} onInput=${(e) => setBy(e.currentTarget.value)} size="6" />
      <button type="submit">Advance</button>
    </form>
    <div class="buttons">
      <button type="button" onClick=${async () => {
        await run("Ran until idle", () => api("POST", "/__sandbox/clock/run_until_idle", {}));
        void clock.reload();
      }}>Run until idle</button>
      <button type="button" class="secondary" onClick=${async () => {
        const mode = c?.mode === "virtual" ? "real" : "virtual";
        await run(`Clock is now ${mode}`, () => api("POST", "/__sandbox/clock", { mode }));
        void clock.reload();
      }}>Switch to ${c?.mode === "virtual" ? "real" : "virtual"} time</button>
    </div>
    ${note}
  </section>`;
}

function StateControls() {
  const [run, note] = useAction();
  const [link, setLink] = useState(null);
  return html`<section class="card" aria-labelledby="state-h">
    <h2 id="state-h">State</h2>
    <div class="buttons">
      <button type="button" class="danger" onClick=${() => {
        if (confirm("Reset the sandbox to its fixtures? Calls, messages and logs are dropped.")) {
          void run("Reset to the fixtures", () => api("POST", "/__sandbox/reset", { to: "fixtures" }));
        }
      }}>Reset to fixtures</button>
      <button type="button" class="secondary" onClick=${() =>
        run("Snapshot ready", async () => {
          const blob = await download("/__sandbox/state");
          if (link) URL.revokeObjectURL(link);
          setLink(URL.createObjectURL(blob));
        })}>Take snapshot</button>
      ${link ? html`<a class="button" href=${link} download="voice-sandbox-snapshot.json">Download snapshot</a>` : null}
    </div>
    ${note}
  </section>`;
}

function FaultControls() {
  const faults = useLive(
    () => api("GET", "/__sandbox/faults"),
    [],
    () => false,
  );
  const [text, setText] = useState(faultExample);
  const [run, note] = useAction();
  const list = faults.data?.faults ?? [];
  return html`<section class="card" aria-labelledby="faults-h">
    <h2 id="faults-h">Faults</h2>
    <ul>
      ${list.map(
        (f) => html`<li><code>${JSON.stringify(f)}</code>
        <button type="button" class="secondary" onClick=${async () => {
          await run(`Removed ${f.id}`, () => api("DELETE", `/__sandbox/faults/${f.id}`));
          void faults.reload();
        }}>Remove</button></li>`,
      )}
    </ul>
    ${list.length === 0 ? html`<p class="muted">No faults injected.</p>` : null}
    <form onSubmit=${async (e) => {
      e.preventDefault();
      await run("Fault added", () => api("POST", "/__sandbox/faults", JSON.parse(text)));
      void faults.reload();
    }}>
      <label for="fault-body">Fault (JSON, as POST /__sandbox/faults takes it)</label>
      <textarea id="fault-body" rows="3" class="mono" value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea>
      <button type="submit">Add fault</button>
    </form>
    ${note}
  </section>`;
}

function ScenarioControls() {
  const [yaml, setYaml] = useState("");
  const [result, setResult] = useState(null);
  const [run, note] = useAction();
  return html`<section class="card" aria-labelledby="scenario-h">
    <h2 id="scenario-h">Scenario</h2>
    <label for="scenario-file">Scenario file</label>
    <input id="scenario-file" type="file" accept=".yaml,.yml,application/yaml" onChange=${async (e) => {
      const file = e.currentTarget.files?.[0];
      if (file) setYaml(await file.text());
    }} />
    <label for="scenario-text">Scenario YAML</label>
    <textarea id="scenario-text" rows="6" class="mono" value=${yaml} onInput=${(e) => setYaml(e.currentTarget.value)}></textarea>
    <button type="button" onClick=${async () => {
      setResult(
        await run("Scenario played", () => api("POST", "/__sandbox/scenarios", yaml, "application/yaml")),
      );
    }}>Run scenario</button>
    ${note}
    ${
      result
        ? html`<div class=${`result ${result.status}`} role="status">
          <p><strong>${result.name}</strong>: ${result.status} · ${result.simulatedMs} ms simulated</p>
          ${result.error ? html`<p class="error">${result.error}</p>` : null}
          <ul>${result.failures.map((f) => html`<li class="error">${f.where ? `${f.where}: ` : ""}${f.path} ${f.message}</li>`)}</ul>
        </div>`
        : null
    }
  </section>`;
}

export function ControlsPage() {
  return html`
    <h1>Controls</h1>
    <div class="columns">
      <${ClockControls} />
      <${StateControls} />
      <${FaultControls} />
      <${ScenarioControls} />
    </div>
  `;
}
