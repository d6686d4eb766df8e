// A phone the page holds (a client: name or a number): a call to it rings here, with the caller shown, to answer or decline.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../html.js";
import { protocols, socketUrl } from "../phone-audio.js";
import { CallAudio } from "./call-audio.js";

/** A short two-tone ring, played while a call rings the page (stopped when it is answered, declined or ends). */
function startRinging() {
  try {
    const context = new AudioContext();
    const gain = context.createGain();
    gain.gain.value = 0.08;
    gain.connect(context.destination);
    for (const hz of [440, 480]) {
      const tone = context.createOscillator();
      tone.frequency.value = hz;
      tone.connect(gain);
      tone.start();
    }
    // Two seconds on, four off, as a North American ring.
    const timer = setInterval(() => {
      gain.gain.value = gain.gain.value > 0 ? 0 : 0.08;
    }, 2000);
    return () => {
      clearInterval(timer);
      void context.close();
    };
  } catch {
    return () => undefined;
  }
}

export function HeldPhone() {
  const [address, setAddress] = useState("client:alice");
  const [state, setState] = useState("off");
  const [ringing, setRinging] = useState(null);
  const [onCall, setOnCall] = useState(null);
  const [note, setNote] = useState("");
  const socket = useRef(null);
  const bell = useRef(null);
  const quiet = () => {
    bell.current?.();
    bell.current = null;
  };
  useEffect(
    () => () => {
      quiet();
      socket.current?.close();
    },
    [],
  );
  const send = (type, callSid) => socket.current?.send(JSON.stringify({ type, callSid }));

  const hold = (e) => {
    e.preventDefault();
    socket.current?.close();
    const ws = new WebSocket(
      socketUrl(`/__sandbox/ui/api/phones/${encodeURIComponent(address.trim())}`),
      protocols(),
    );
    socket.current = ws;
    setState("connecting");
    ws.onclose = (event) => {
      if (socket.current !== ws) return;
      quiet();
      setState(`off (${event.reason || "refused: another tab holds it, or the address is not one to hold"})`);
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "holding") setState(`holding ${message.address}`);
      if (message.type === "ring") {
        setRinging(message);
        setNote("");
        bell.current ??= startRinging();
      }
      if (message.type === "answered") {
        quiet();
        setRinging(null);
        setOnCall(message.callSid);
      }
      if (message.type === "ended") {
        quiet();
        setRinging((r) => (r?.callSid === message.callSid ? null : r));
        setOnCall((c) => (c === message.callSid ? null : c));
        setNote(`Call ${message.callSid} ended (${message.status}).`);
      }
      if (message.type === "error") setNote(message.message);
    };
  };
  const release = () => {
    const ws = socket.current;
    socket.current = null;
    ws?.close();
    quiet();
    setState("off");
    setRinging(null);
  };
  const holding = state.startsWith("holding");
  return html`<section class="card held-phone" aria-labelledby="held-h">
    <h2 id="held-h">Be called</h2>
    <p class="muted">Hold a client name or a number: when an app calls it (calls create, ${"<Dial>"}), this page rings.</p>
    <form class="inline" onSubmit=${hold}>
      <label for="held-address">Address</label>
      <input id="held-address" value=${address} onInput=${(e) => setAddress(e.currentTarget.value)} autocomplete="off" disabled=${holding} />
      ${holding ? html`<button type="button" class="secondary" onClick=${release}>Let go</button>` : html`<button type="submit">Hold</button>`}
    </form>
    <p role="status" aria-live="polite">Phone: ${state}</p>
    ${
      ringing
        ? html`<div class="ringing" role="alert">
          <p><strong>Ringing:</strong> ${ringing.callerName ? `${ringing.callerName} ` : ""}${ringing.from} → ${ringing.to}</p>
          <div class="buttons">
            <button type="button" onClick=${() => send("answer", ringing.callSid)}>Answer</button>
            <button type="button" class="danger" onClick=${() => {
              quiet();
              send("decline", ringing.callSid);
            }}>Decline</button>
          </div>
        </div>`
        : null
    }
    ${
      onCall
        ? html`<div class="on-call">
          <p>On call <a href=${`#/calls/${onCall}`}>${onCall}</a> <button type="button" class="danger" onClick=${() => send("hangup", onCall)}>Hang up</button></p>
          <${CallAudio} sid=${onCall} key=${onCall} autoListen=${true} />
        </div>`
        : null
    }
    <p class="note" aria-live="polite">${note}</p>
  </section>`;
}
