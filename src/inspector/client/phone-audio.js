// The browser phone's audio: a call's WebSocket of 20 ms mu-law frames, played as they come and fed from the microphone.
import { token } from "./api.js";

const frameBytes = 160;
const rate = 8000;
/** How far ahead of the audio clock the first frame is scheduled: room for the network's jitter. */
const leadSeconds = 0.08;

const decodeTable = Float32Array.from({ length: 256 }, (_, byte) => {
  const u = ~byte & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return (u & 0x80 ? 0x84 - t : t - 0x84) / 32768;
});

/** One sample (-1..1) as G.711 mu-law. */
function encodeSample(value) {
  let pcm = Math.max(-32635, Math.min(32635, Math.round(value * 32767)));
  const sign = pcm < 0 ? 0x80 : 0;
  if (sign) pcm = -pcm;
  pcm += 0x84;
  let exponent = 7;
  for (let mask = 0x4000; (pcm & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (pcm >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** The admin token as a subprotocol: a browser cannot set an Authorization header on a WebSocket. */
export function protocols() {
  const value = token.get();
  if (!value) return ["voice-sandbox"];
  const bytes = new TextEncoder().encode(value);
  const encoded = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  return ["voice-sandbox", `voice-sandbox.bearer.${encoded}`];
}

export const socketUrl = (path) =>
  `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;

/**
 * Opens a call's audio: `onState` hears "connecting", "open", "closed: <reason>". Returns controls: volume,
 * mute, the level now (0..1, what the call plays), the microphone on and off, and close.
 */
export function openCallAudio(sid, onState) {
  const context = new AudioContext();
  const gain = context.createGain();
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  // The meter reads the call's audio before the volume: a muted phone still shows that the call is talking.
  analyser.connect(gain);
  gain.connect(context.destination);
  let playAt = 0;
  const ws = new WebSocket(socketUrl(`/__sandbox/ui/api/calls/${sid}/audio`), protocols());
  ws.binaryType = "arraybuffer";
  onState("connecting");
  ws.onopen = () => onState("open");
  ws.onclose = (event) => {
    onState(`closed: ${event.reason || (event.code === 1006 ? "refused or lost" : `code ${event.code}`)}`);
    stopMic();
  };
  ws.onmessage = (event) => {
    if (!(event.data instanceof ArrayBuffer)) return;
    const bytes = new Uint8Array(event.data);
    const buffer = context.createBuffer(1, bytes.length, rate);
    const samples = buffer.getChannelData(0);
    for (let i = 0; i < bytes.length; i++) samples[i] = decodeTable[bytes[i]];
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(analyser);
    const now = context.currentTime;
    if (playAt < now) playAt = now + leadSeconds;
    source.start(playAt);
    playAt += buffer.duration;
  };

  let mic = null;
  let talking = true;
  let pending = [];
  const send = (floats) => {
    if (!talking || ws.readyState !== WebSocket.OPEN) return;
    for (const value of floats) pending.push(encodeSample(value));
    while (pending.length >= frameBytes) {
      ws.send(Uint8Array.from(pending.slice(0, frameBytes)));
      pending = pending.slice(frameBytes);
    }
  };
  async function startMic() {
    if (mic) return;
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: false, autoGainControl: false },
    });
    await context.audioWorklet.addModule("/__sandbox/ui/assets/mic-worklet.js");
    const source = context.createMediaStreamSource(stream);
    const tap = new AudioWorkletNode(context, "mic-tap");
    tap.port.onmessage = (event) => send(event.data);
    source.connect(tap);
    mic = { stream, source, tap };
  }
  function stopMic() {
    if (!mic) return;
    mic.source.disconnect();
    mic.tap.disconnect();
    for (const track of mic.stream.getTracks()) track.stop();
    mic = null;
    pending = [];
  }
  const levels = new Float32Array(analyser.fftSize);
  return {
    resume: () => context.resume(),
    setVolume(value) {
      gain.gain.value = value;
    },
    /** The call's level now: the RMS of the last few milliseconds, 0..1. */
    level() {
      analyser.getFloatTimeDomainData(levels);
      let sum = 0;
      for (const v of levels) sum += v * v;
      return Math.sqrt(sum / levels.length);
    },
    startMic,
    stopMic,
    /** Push-to-talk and the microphone's mute: while false, nothing the microphone hears is sent. */
    setTalking(value) {
      talking = value;
      if (!value) pending = [];
    },
    close() {
      stopMic();
      ws.close(1000, "closed by the page");
      void context.close();
    },
  };
}
