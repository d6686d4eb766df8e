// Acting as the caller on a live call: press keys, say words, hang up (the engine does what a real caller would cause).
import { useState } from "preact/hooks";
import { api } from "../api.js";
import { html } from "../html.js";

const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"];

export function CallControls({ sid }) {
  const [words, setWords] = useState("");
  const [note, setNote] = useState("");
  const act = async (what, run) => {
    try {
      await run();
      setNote(what);
    } catch (error) {
      setNote(`${what} failed: ${error.message}`);
    }
  };
  const press = (key) =>
    act(`Pressed ${key}`, () => api("POST", `/__sandbox/calls/${sid}/input`, { press: key }));
  return html`<section class="controls card" aria-label="Caller controls">
    <div class="keypad" role="group" aria-label="Keypad">
      ${keys.map((key) => html`<button type="button" onClick=${() => press(key)} aria-label=${`Press ${key}`}>${key}</button>`)}
    </div>
    <form class="say" onSubmit=${(e) => {
      e.preventDefault();
      if (!words.trim()) return;
      const text = words.trim();
      setWords("");
      void act(`Said “${text}”`, () => api("POST", `/__sandbox/calls/${sid}/input`, { say: text }));
    }}>
      <label for=${`say-${sid}`}>Say</label>
      <input id=${`say-${sid}`} value=${words} onInput=${(e) => setWords(e.currentTarget.value)} placeholder="words the caller speaks" />
      <button type="submit">Speak</button>
    </form>
    <button type="button" class="danger" onClick=${() => act("Hung up", () => api("POST", `/__sandbox/ui/api/calls/${sid}/hangup`))}>Hang up</button>
    <p class="note" role="status" aria-live="polite">${note}</p>
  </section>`;
}
