// The browser phone's microphone tap: the input resampled to 8 kHz, posted to the page in blocks (an AudioWorklet, loaded from this server).
const targetRate = 8000;

class MicTap extends AudioWorkletProcessor {
  constructor() {
    super();
    this.step = sampleRate / targetRate;
    this.position = 0;
    this.previous = 0;
  }

  process(inputs) {
    const input = inputs[0]?.[0];
    if (!input) return true;
    const out = [];
    // Linear interpolation between the input's samples at 8 kHz instants; `position` carries across blocks.
    while (this.position < input.length) {
      const i = Math.floor(this.position);
      const frac = this.position - i;
      const a = i === 0 ? this.previous : input[i - 1];
      const b = input[i];
      out.push(a + (b - a) * frac);
      this.position += this.step;
    }
    this.position -= input.length;
    this.previous = input[input.length - 1];
    if (out.length > 0) this.port.postMessage(Float32Array.from(out));
    return true;
  }
}

registerProcessor("mic-tap", MicTap);
