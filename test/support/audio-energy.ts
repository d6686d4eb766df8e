// Loudness of audio samples, for tests that look for speech (energy) and silence in recordings and stream frames.

/** Root mean square of `samples` (16-bit PCM values). */
export function rms(samples: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

/** RMS of each 20 ms window (160 samples at 8 kHz), in order. */
export function windowRms(samples: Int16Array): number[] {
  const windows: number[] = [];
  for (let at = 0; at + 160 <= samples.length; at += 160) windows.push(rms(samples.subarray(at, at + 160)));
  return windows;
}
