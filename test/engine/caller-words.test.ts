// A live caller's words (a browser phone's microphone): each utterance, found by its loudness, goes to the sandbox's transcriber, and its words are the caller's speech.
import { afterEach, describe, expect, it } from "vitest";
import { type AgentAudio, createSandbox, type Sandbox } from "../../src/index.js";
import { appBase, callee, placeWithTwiml } from "../support/stream-world.js";

/** A frame of a loud square wave, and one of silence (mu-law). */
const loud = () => Uint8Array.from({ length: 160 }, (_, i) => (i % 8 < 4 ? 0x00 : 0x80));
const quiet = () => new Uint8Array(160).fill(0xff);

const gather = `<Response><Gather input="speech" action="${appBase}/said" timeout="5"><Say>How can I help?</Say></Gather><Say>Nothing heard</Say></Response>`;

describe("a live caller's words", () => {
  const sandboxes: Sandbox[] = [];
  afterEach(() => {
    for (const sandbox of sandboxes.splice(0)) sandbox.reset();
  });

  /** A sandbox whose transcriber answers `words` for each utterance; the app's actions kept. */
  function world(words: string | null) {
    const utterances: AgentAudio[] = [];
    const transcribe = (u: AgentAudio) => {
      utterances.push(u);
      return words ?? "";
    };
    const sandbox = createSandbox(words === null ? {} : { transcriber: { transcribe } });
    sandboxes.push(sandbox);
    const actions: Record<string, string>[] = [];
    sandbox.webhooks.register(`${appBase}/`, (request) => {
      actions.push(request.params);
      return "<Response><Hangup/></Response>";
    });
    return { sandbox, utterances, actions };
  }

  /** `frames` said 20 ms apart (those after the call ended are not taken). */
  async function speak(sandbox: Sandbox, sid: string, frames: Uint8Array[]) {
    for (const frame of frames) {
      sandbox.calls.audio.speak(sid, frame);
      await sandbox.clock.advance(20);
    }
  }
  const answered = async (sandbox: Sandbox) => {
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0 });
    const sid = await placeWithTwiml(sandbox, callee, gather);
    await sandbox.clock.advance(1000);
    expect(sandbox.store.calls.get(sid)!.status).toBe("in-progress");
    return sid;
  };

  it("hands an utterance to the transcriber once the caller has been quiet 700 ms, and its words answer the Gather", async () => {
    const { sandbox, utterances, actions } = world("book a table for two");
    const sid = await answered(sandbox);
    const spokeAt = sandbox.clock.now();
    await speak(sandbox, sid, [...Array.from({ length: 50 }, loud), ...Array.from({ length: 50 }, quiet)]);
    await sandbox.clock.runUntilIdle();

    expect(utterances).toHaveLength(1);
    const [utterance] = utterances;
    expect(utterance).toMatchObject({ speaker: "caller", callSid: sid, streamSid: null, sampleRate: 8000 });
    expect(utterance!.startedAt).toBe(spokeAt);
    // A second of speech, then the quiet up to the 700 ms that end it.
    expect(utterance!.durationMs).toBeGreaterThanOrEqual(1700);
    expect(utterance!.durationMs).toBeLessThan(1760);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ CallSid: sid, SpeechResult: "book a table for two" });
    const kinds = sandbox.calls.timeline(sid).map((e) => e.kind);
    expect(kinds.indexOf("caller.speech-start")).toBeLessThan(kinds.indexOf("caller.said"));
  });

  it("hands over nothing for quiet frames, nor without a transcriber, and the Gather times out", async () => {
    for (const transcriber of ["never used", null]) {
      const { sandbox, utterances, actions } = world(transcriber);
      const sid = await answered(sandbox);
      const frames = transcriber === null ? Array.from({ length: 50 }, loud) : [];
      await speak(sandbox, sid, [...frames, ...Array.from({ length: 100 }, quiet)]);
      await sandbox.clock.advance(10_000);
      expect(utterances).toEqual([]);
      expect(actions.filter((a) => a.SpeechResult !== undefined)).toEqual([]);
      expect(sandbox.calls.timeline(sid).some((e) => e.kind === "caller.said")).toBe(false);
    }
  });

  it("notes a transcriber that fails, and the call goes on", async () => {
    const sandbox = createSandbox({
      transcriber: {
        transcribe: () => {
          throw new Error("model not loaded");
        },
      },
    });
    sandboxes.push(sandbox);
    const actions: Record<string, string>[] = [];
    sandbox.webhooks.register(`${appBase}/`, (request) => {
      actions.push(request.params);
      return "<Response><Hangup/></Response>";
    });
    const sid = await answered(sandbox);
    await speak(sandbox, sid, [...Array.from({ length: 25 }, loud), ...Array.from({ length: 40 }, quiet)]);
    await sandbox.clock.advance(1000);
    const failed = sandbox.calls.timeline(sid).find((e) => e.kind === "caller.transcription-failed");
    expect(failed?.detail).toEqual({ error: "model not loaded" });
    // The Gather still listens: typed words answer it.
    sandbox.calls.speak(sid, "a table please");
    await sandbox.clock.advance(10_000);
    expect(actions).toMatchObject([{ CallSid: sid, SpeechResult: "a table please" }]);
    expect(sandbox.store.calls.get(sid)!.status).toBe("completed");
  });
});
