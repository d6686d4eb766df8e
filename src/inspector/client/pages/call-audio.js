// The browser phone on a live call: hear what the caller hears (volume, mute, a level meter) and speak into it with the microphone.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../html.js";
import { openCallAudio } from "../phone-audio.js";

/** `autoListen`: starts listening at once (a call the page just answered). */
export function CallAudio({ sid, autoListen = false }) {
  const line = useRef(null);
  const [state, setState] = useState("off");
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [level, setLevel] = useState(0);
  const [mic, setMic] = useState("off");
  const [pushToTalk, setPushToTalk] = useState(false);
  useEffect(() => {
    if (autoListen) void listen();
    return () => line.current?.close();
  }, []);
  useEffect(() => {
    if (!line.current) return undefined;
    const timer = setInterval(() => setLevel(line.current?.level() ?? 0), 100);
    return () => clearInterval(timer);
  }, [state === "off"]);
  useEffect(() => line.current?.setVolume(muted ? 0 : volume), [volume, muted, state]);
  useEffect(() => line.current?.setTalking(!pushToTalk && mic === "on"), [pushToTalk, mic]);

  const listen = async () => {
    line.current?.close();
    line.current = openCallAudio(sid, setState);
    await line.current.resume();
  };
  const hangUpAudio = () => {
    line.current?.close();
    line.current = null;
    setState("off");
    setMic("off");
  };
  const toggleMic = async () => {
    if (!line.current) return;
    if (mic === "on" || mic === "muted") {
      line.current.stopMic();
      setMic("off");
      return;
    }
    try {
      setMic("asking");
      await line.current.startMic();
      setMic("on");
    } catch (error) {
      setMic(`refused: ${error.message}`);
    }
  };
  const talk = (down) => line.current?.setTalking(down && mic === "on");
  const open = state !== "off";
  return html`<section class="card call-audio" aria-labelledby=${`audio-h-${sid}`}>
    <h2 id=${`audio-h-${sid}`}>Browser phone</h2>
    <div class="buttons">
      ${
        open
          ? html`<button type="button" class="secondary" onClick=${hangUpAudio}>Stop listening</button>`
          : html`<button type="button" onClick=${listen}>Listen</button>`
      }
      <label>Volume <input type="range" min="0" max="1" step="0.05" value=${volume} disabled=${!open}
        onInput=${(e) => setVolume(Number(e.currentTarget.value))} /></label>
      <label><input type="checkbox" checked=${muted} disabled=${!open} onChange=${(e) => setMuted(e.currentTarget.checked)} /> Mute</label>
      <label>Level <meter min="0" max="0.5" value=${level} data-level=${level.toFixed(4)} aria-label="Call level"></meter></label>
    </div>
    <div class="buttons">
      <button type="button" disabled=${!open} onClick=${toggleMic}>${mic === "on" ? "Microphone off" : "Microphone on"}</button>
      <label><input type="checkbox" checked=${pushToTalk} disabled=${mic !== "on"} onChange=${(e) => setPushToTalk(e.currentTarget.checked)} /> Push to talk</label>
      ${
        pushToTalk && mic === "on"
          ? html`<button type="button" class="secondary" onPointerDown=${() => talk(true)} onPointerUp=${() => talk(false)} onPointerLeave=${() => talk(false)}>Hold to talk</button>`
          : null
      }
    </div>
    <p class="note" role="status" aria-live="polite">Audio: ${state}${mic !== "off" ? ` · microphone ${mic}` : ""}</p>
  </section>`;
}
