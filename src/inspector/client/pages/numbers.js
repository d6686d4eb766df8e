// The sandbox's numbers and what a call or a text to each runs: its Voice URL and SMS URL, set through the account API.
import { useEffect, useState } from "preact/hooks";
import { accountPost } from "../api.js";
import { html } from "../html.js";

function NumberForm({ number }) {
  const [voice, setVoice] = useState(number.voice_url ?? "");
  const [sms, setSms] = useState(number.sms_url ?? "");
  const [note, setNote] = useState(null);
  const [busy, setBusy] = useState(false);
  // Changed elsewhere (the API, a reset): the form follows.
  useEffect(() => setVoice(number.voice_url ?? ""), [number.voice_url]);
  useEffect(() => setSms(number.sms_url ?? ""), [number.sms_url]);
  const id = number.sid;
  const save = async (e) => {
    e.preventDefault();
    setBusy(true);
    try {
      await accountPost(number.account_sid, `/IncomingPhoneNumbers/${number.sid}.json`, {
        VoiceUrl: voice.trim(),
        SmsUrl: sms.trim(),
      });
      setNote({ ok: true, text: `Saved ${number.number}` });
    } catch (error) {
      setNote({ ok: false, text: `Not saved: ${error.message}` });
    } finally {
      setBusy(false);
    }
  };
  return html`<li class="number-form"><form onSubmit=${save} aria-labelledby=${`number-${id}`}>
    <p id=${`number-${id}`}><strong>${number.number}</strong> <span class="muted">${number.friendly_name}</span></p>
    <label for=${`voice-${id}`}>Voice URL <span class="visually-hidden">of ${number.number}</span></label>
    <input id=${`voice-${id}`} type="url" value=${voice} placeholder="https://your-app.example/voice" onInput=${(e) => setVoice(e.currentTarget.value)} />
    <label for=${`sms-${id}`}>SMS URL <span class="visually-hidden">of ${number.number}</span></label>
    <input id=${`sms-${id}`} type="url" value=${sms} placeholder="https://your-app.example/sms" onInput=${(e) => setSms(e.currentTarget.value)} />
    <button type="submit" disabled=${busy} aria-label=${`Save the URLs of ${number.number}`}>Save</button>
    ${note ? html`<p class=${note.ok ? "note" : "error"} role="status">${note.text}</p>` : null}
  </form></li>`;
}

/** Every number an account holds, each with its two URLs to edit (empty: none). */
export function NumberSettings({ numbers }) {
  return html`<section class="card" aria-labelledby="numbers-h">
    <h2 id="numbers-h">Numbers</h2>
    <p class="muted">Where a call or a text to each number goes: your app's URLs (empty: none; a call then ends with alert 11200). Saved with <code>POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}.json</code>, as your app would.</p>
    ${numbers.length === 0 ? html`<p class="muted">No account holds a number.</p>` : null}
    <ul class="numbers">${numbers.map((n) => html`<${NumberForm} number=${n} key=${n.sid} />`)}</ul>
  </section>`;
}
