// The caller's line on a media stream: noise on the caller's frames, frames lost (their sequence numbers skipped), jitter; all seeded.
import { afterEach, describe, expect, it } from "vitest";
import type { PartyBehaviourInput } from "../../src/engine/calls/party-behaviour.js";
import { createLine } from "../../src/engine/media-streams/stream-line.js";
import { createSandbox, parseScenario } from "../../src/index.js";
import { type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { placeWithTwiml } from "../support/stream-world.js";
import { silenceFrame } from "../support/voice-agent-apps.js";

const callee = "+14155550123";

describe("the caller's line", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The inbound media messages a listening app got, and the stream's end entry. */
  async function frames(party: PartyBehaviourInput, clock: "virtual" | "real" = "virtual") {
    const app = await startStreamApp();
    cleanups.push(() => app.close());
    const sandbox = createSandbox({ clock });
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0, hangupAfter: "3s", ...party });
    const sid = await placeWithTwiml(
      sandbox,
      callee,
      `<Response><Start><Stream url="${app.url()}"/></Start><Pause length="4"/></Response>`,
    );
    if (clock === "virtual") await sandbox.clock.runUntilIdle();
    else await new Promise((resolve) => setTimeout(resolve, 3500));
    await sandbox.settle();
    const media = app.messages("media") as StreamMessage[];
    const ended = sandbox.calls.timeline(sid).find((e) => e.kind === "stream.ended")!;
    return { media, ended, all: app.messages() };
  }

  it("lost frames are not sent: their sequence numbers and chunks are skipped, timestamps stay on the chunk", async () => {
    const clean = await frames({ steps: [{ say: "hello there", for: "1s" }] });
    const lossy = await frames({ line: { drop: 0.25, seed: 7 }, steps: [{ say: "hello there", for: "1s" }] });
    const dropped = Number(lossy.ended.detail.lineDropped);
    expect(dropped).toBeGreaterThan(0);
    expect(lossy.media.length).toBe(clean.media.length - dropped);
    for (const m of lossy.media) expect(Number(m.media.timestamp)).toBe((Number(m.media.chunk) - 1) * 20);
    // The frames that did arrive are the clean run's, under the same sequence numbers and chunks: the lost
    // ones left gaps in both.
    const byChunk = new Map(clean.media.map((m) => [m.media.chunk, [m.sequenceNumber, m.media.payload]]));
    for (const m of lossy.media)
      expect([m.sequenceNumber, m.media.payload]).toEqual(byChunk.get(m.media.chunk));
    const seqs = lossy.media.map((m) => Number(m.sequenceNumber));
    expect(seqs.some((seq, i) => i > 0 && seq - seqs[i - 1]! > 1)).toBe(true);
    expect(clean.ended.detail.lineDropped).toBeUndefined();
  });

  it("noise goes on every caller frame, silence too; the same seed gives the same frames, another seed others", async () => {
    const party = (seed: number): PartyBehaviourInput => ({
      line: { noise: -40, drop: 0.1, seed },
      steps: [{ say: "hello", for: "500ms" }],
    });
    const one = await frames(party(3));
    const again = await frames(party(3));
    const other = await frames(party(4));
    expect(one.media.some((m) => m.media.payload === silenceFrame)).toBe(false);
    expect(again.media.map((m) => [m.sequenceNumber, m.media.payload])).toEqual(
      one.media.map((m) => [m.sequenceNumber, m.media.payload]),
    );
    expect(other.media.map((m) => m.media.payload)).not.toEqual(one.media.map((m) => m.media.payload));
    const quiet = await frames({ steps: [{ say: "hello", for: "500ms" }] });
    expect(quiet.media.filter((m) => m.media.payload === silenceFrame).length).toBeGreaterThan(0);
  });

  it("jitter (real clock): frames come late and bunched but in order, timestamps unchanged, the stop after them", async () => {
    const { all } = await frames(
      { line: { jitter: "200ms", seed: 2 }, steps: [{ say: "hi", for: "400ms" }] },
      "real",
    );
    const media = all.filter((m) => m.event === "media");
    expect(media.length).toBeGreaterThan(20);
    const chunks = media.map((m) => Number(m.media.chunk));
    expect(chunks).toEqual([...chunks].sort((a, b) => a - b));
    for (const m of media) expect(Number(m.media.timestamp)).toBe((Number(m.media.chunk) - 1) * 20);
    const seqs = all.filter((m) => m.sequenceNumber !== undefined).map((m) => Number(m.sequenceNumber));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(all.at(-1)?.event).toBe("stop");
  });

  it("the line's delays are seeded and within the jitter", () => {
    const delays = (seed: number) => {
      const line = createLine({ jitter: 120, seed });
      return Array.from({ length: 50 }, () => line.delayMs());
    };
    expect(delays(9)).toEqual(delays(9));
    expect(delays(9)).not.toEqual(delays(10));
    expect(delays(9).every((ms) => ms >= 0 && ms < 120)).toBe(true);
  });

  it("a bad line is refused with where and why", () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.reset());
    expect(() => sandbox.calls.setParty(callee, { line: { drop: 1.5 } })).toThrow(
      /drop is the share of frames lost, from 0 to 1/,
    );
    expect(() => sandbox.calls.setParty(callee, { line: { noise: 6 } })).toThrow(/noise is a level in dBFS/);
    expect(() => sandbox.calls.setParty(callee, { line: { jitter: "5s" } })).toThrow(
      /jitter is at most 1000 ms/,
    );
    expect(() => sandbox.calls.setParty(callee, { line: { nosie: -30 } as never })).toThrow(/nosie/);
    const yaml = (line: string) =>
      `name: t\nsteps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100", line: ${line} }\n`;
    const problem = (text: string) => {
      try {
        parseScenario(text, "s.yaml");
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problem(yaml("{ drop: -0.1 }"))).toMatch(/^s\.yaml:3:\d+: .*drop is the share of frames lost/);
    expect(problem(yaml("{ hiss: 1 }"))).toMatch(/^s\.yaml:3:\d+: .*hiss/);
  });
});
