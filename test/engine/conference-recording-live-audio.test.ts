// A conference's own recording holds a participant's live audio (a browser phone's microphone) where it was said, and not while muted.
import { describe, expect, it } from "vitest";
import { recordingSamples } from "../../src/engine/recordings/recording-audio.js";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

/** A frame of a loud square wave: mu-law 0x00 and 0x80 are the two extremes. */
const loudFrame = () => Uint8Array.from({ length: 160 }, (_, i) => (i % 8 < 4 ? 0x00 : 0x80));
const energy = (samples: Int16Array, fromMs: number, toMs: number) => {
  let sum = 0;
  for (let i = fromMs * 8; i < toMs * 8; i++) sum += Math.abs(samples[i] ?? 0);
  return sum / Math.max(1, (toMs - fromMs) * 8);
};

describe("a conference recording and live audio", () => {
  const h = useEngine();
  const sandbox = () => h.door.sandbox;

  it("keeps a participant's live audio where it was said, and none of what it said muted", async () => {
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      '<Response><Dial><Conference beep="false" waitUrl="" record="record-from-start">room</Conference></Dial></Response>',
    );
    const ring = (from: string) =>
      sandbox().calls.ring({ from, to: fixtures.acme.mainNumber, caller: { hangupAfter: "20s" } }).sid;
    const a = ring("+14155550201");
    ring("+14155550202");
    await sandbox().clock.advance(2000);
    const conferenceSid = sandbox().store.participants.findOne("call", a)!.conference_sid;
    const recordingSid = sandbox().store.conferences.get(conferenceSid)!.recording_sid!;
    const startedAt = sandbox().store.recordings.get(recordingSid)!.start_time;

    // A second of live audio from a, then a second more while a is muted.
    const speakFor = async (ms: number) => {
      for (let t = 0; t < ms; t += 20) {
        expect(sandbox().calls.audio.speak(a, loudFrame())).toBe(true);
        await sandbox().clock.advance(20);
      }
    };
    const spokenAt = sandbox().clock.now() - startedAt;
    await speakFor(1000);
    const participant = sandbox().store.participants.findOne("call", a)!;
    sandbox().calls.conferences.update(participant, { muted: true });
    await sandbox().clock.advance(1000);
    const mutedAt = sandbox().clock.now() - startedAt;
    await speakFor(1000);
    await h.run();

    const recording = sandbox().store.recordings.get(recordingSid)!;
    expect(recording.status).toBe("completed");
    const live = recording.speech.filter((s) => s.audio !== undefined);
    expect(live.map((s) => [s.channel, s.start_ms, s.end_ms])).toEqual([[1, spokenAt, spokenAt + 1000]]);
    const [samples] = await recordingSamples(recording);
    expect(energy(samples!, spokenAt, spokenAt + 1000)).toBeGreaterThan(5000);
    expect(energy(samples!, mutedAt, mutedAt + 1000)).toBe(0);
  });
});
