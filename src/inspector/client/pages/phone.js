// A phone: ring one of the sandbox's numbers from any caller ID and act as the caller (and see why a call ended); text
// a number and read the reply; set what each number runs.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";
import { isLive } from "../format.js";
import { html } from "../html.js";
import { useLive } from "../live.js";
import { useOverview } from "../overview.js";
import { CallAudio } from "./call-audio.js";
import { CallControls } from "./call-controls.js";
import { Heard, useCall } from "./call-page.js";
import { StatusBadge } from "./calls.js";
import { HeldPhone } from "./held-phone.js";
import { Thread } from "./messages.js";
import { NumberSettings } from "./numbers.js";

/** What to do about an alert the phone shows, when its message alone does not say. */
const remedy = (alert) =>
  alert.code === 11200 && alert.message.includes("no URL is configured")
    ? "The number has no Voice URL: set one under Numbers below, then ring again."
    : null;

/** Why the call went as it did: the alerts it raised (a markup fetch that failed, a verb refused). */
function CallAlerts({ alerts }) {
  if (alerts.length === 0) return null;
  return html`<div class="call-alerts" role="alert">
    <h3>Alerts</h3>
    <ul>
      ${alerts.map(
        (a) =>
          html`<li class=${a.level === "warning" ? "warning" : "error"}><strong>${a.code}</strong> ${a.message}${remedy(a) ? html`<br /><span>${remedy(a)}</span>` : null}</li>`,
      )}
    </ul>
  </div>`;
}

function ActiveCall({ sid }) {
  const { data } = useCall(sid);
  if (!data) return html`<p aria-busy="true">Dialling…</p>`;
  const { call } = data;
  return html`<div class="active-call" aria-label="Current call">
    <p><${StatusBadge} status=${call.status} /> ${call.from} → ${call.to} · <a href=${`#/calls/${call.sid}`}>timeline</a></p>
    ${isLive(call.status) ? html`<${CallControls} sid=${call.sid} />` : html`<p>The call has ended (${call.status}).</p>`}
    ${isLive(call.status) ? html`<${CallAudio} sid=${call.sid} key=${call.sid} />` : null}
    <${CallAlerts} alerts=${data.alerts} />
    <h3>What the app says</h3>
    <div aria-live="polite"><${Heard} heard=${data.heard} /></div>
  </div>`;
}

function NumberChoice({ id, numbers, value, onChange, what }) {
  return html`<label for=${id}>${what}</label>
    <select id=${id} value=${value} onChange=${(e) => onChange(e.currentTarget.value)}>
      ${numbers.map((n) => html`<option value=${n.number}>${n.number} · ${n.friendly_name}${n[what === "Number to call" ? "voice_url" : "sms_url"] ? "" : " (no URL set)"}</option>`)}
    </select>`;
}

function SmsThread({ a, b }) {
  const thread = [a, b].sort().join(" ");
  const list = useLive(
    () => api("GET", `/__sandbox/ui/api/conversations?${new URLSearchParams({ thread })}`),
    [thread],
    (event, data) => event === "change" && data.tables.includes("messages"),
  );
  return list.data ? html`<${Thread} messages=${list.data.messages} mine=${new Set([b])} />` : null;
}

export function PhonePage() {
  const overview = useOverview();
  const numbers = overview.data?.numbers ?? [];
  const [to, setTo] = useState("");
  const [from, setFrom] = useState("+15005550006");
  const [callSid, setCallSid] = useState(null);
  const [smsTo, setSmsTo] = useState("");
  const [smsFrom, setSmsFrom] = useState("+15005550006");
  const [body, setBody] = useState("");
  const [problem, setProblem] = useState("");
  const [sent, setSent] = useState(null);
  useEffect(() => {
    if (!to && numbers[0]) setTo(numbers[0].number);
    if (!smsTo && numbers[0]) setSmsTo(numbers[0].number);
  }, [numbers.length]);

  const ring = async (e) => {
    e.preventDefault();
    setProblem("");
    try {
      const call = await api("POST", "/__sandbox/calls/inbound", { from, to });
      setCallSid(call.sid);
    } catch (error) {
      setProblem(error.message);
    }
  };
  const text = async (e) => {
    e.preventDefault();
    setProblem("");
    try {
      await api("POST", "/__sandbox/messages/inbound", { from: smsFrom, to: smsTo, body });
      setSent({ a: smsFrom, b: smsTo });
      setBody("");
    } catch (error) {
      setProblem(error.message);
    }
  };
  const clock = overview.data?.clock;

  return html`
    <h1>Phone</h1>
    ${clock?.mode === "virtual" ? html`<p class="note">The clock is virtual: calls move when time does. Use <a href="#/controls">Controls</a> to advance it.</p>` : null}
    ${problem ? html`<p class="error" role="alert">${problem}</p>` : null}
    <div class="columns">
      <section class="card phone" aria-labelledby="call-h">
        <h2 id="call-h">Call</h2>
        <form onSubmit=${ring}>
          <${NumberChoice} id="call-to" numbers=${numbers} value=${to} onChange=${setTo} what="Number to call" />
          <label for="call-from">Caller ID</label>
          <input id="call-from" value=${from} onInput=${(e) => setFrom(e.currentTarget.value)} inputmode="tel" autocomplete="off" />
          <button type="submit">Ring</button>
        </form>
        ${callSid ? html`<${ActiveCall} sid=${callSid} key=${callSid} />` : null}
      </section>
      <section class="card phone" aria-labelledby="sms-h">
        <h2 id="sms-h">Text</h2>
        <form onSubmit=${text}>
          <${NumberChoice} id="sms-to" numbers=${numbers} value=${smsTo} onChange=${setSmsTo} what="Number to text" />
          <label for="sms-from">From</label>
          <input id="sms-from" value=${smsFrom} onInput=${(e) => setSmsFrom(e.currentTarget.value)} inputmode="tel" autocomplete="off" />
          <label for="sms-body">Message</label>
          <textarea id="sms-body" rows="2" value=${body} onInput=${(e) => setBody(e.currentTarget.value)}></textarea>
          <button type="submit">Send</button>
        </form>
        ${sent ? html`<div aria-live="polite"><${SmsThread} a=${sent.a} b=${sent.b} /></div>` : null}
      </section>
    </div>
    <${HeldPhone} />
    <${NumberSettings} numbers=${numbers} />
  `;
}
