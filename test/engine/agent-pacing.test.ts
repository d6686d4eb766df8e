// Agent-paced virtual time: while a <Connect> app owes the call an answer, the caller and the hang-up wait for it.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PartyBehaviourInput } from "../../src/engine/calls/party-behaviour.js";
import { createSandbox } from "../../src/index.js";
import { placeWithTwiml } from "../support/stream-world.js";
import { randomThink, startRelayAgent, startStreamAgent } from "../support/voice-agent-apps.js";

const callee = "+14155550123";
/** Three turns of words, a key between them, then the caller hangs up: each untimed, a second after the agent stops. */
const caller: PartyBehaviourInput = {
  ringAfter: 0,
  answerAfter: 0,
  steps: [{ say: "one two" }, { say: "three four" }, { press: "1" }, { say: "five six" }, { hangup: true }],
};

describe("agent-paced virtual time", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function call(twiml: string) {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(callee, caller);
    const sid = await placeWithTwiml(sandbox, callee, twiml);
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    return { timeline: sandbox.calls.timeline(sid), waits: sandbox.calls.streams.agentWaits(sid) };
  }

  it("a media-stream agent that thinks 0-300 ms of real time answers every turn, and the timeline is the same run after run", async () => {
    const agent = await startStreamAgent({ think: randomThink(300) });
    cleanups.push(() => agent.close());
    const twiml = `<Response><Connect><Stream url="${agent.url()}"/></Connect></Response>`;
    const first = await call(twiml);
    const second = await call(twiml);
    expect(agent.answered).toBe(6);
    const turns = first.timeline.filter((e) => e.kind === "agent.turn").map((e) => e.detail);
    expect(turns.map((t) => [t.by, t.owed, t.answered])).toEqual([
      ["speech", true, true],
      ["speech", true, true],
      ["dtmf", false, false],
      ["speech", true, true],
    ]);
    expect(first.timeline.some((e) => e.kind === "agent.unanswered")).toBe(false);
    // The real waits differ run to run (they are kept apart from the timeline); the timeline does not.
    expect(first.waits.filter((ms) => ms !== null)).toHaveLength(3);
    expect(second.timeline).toEqual(first.timeline);
  });

  it("an agent that streams its answer in parts as it makes it: the answer plays whole, as on a real call", async () => {
    // 600 ms of audio in three parts 60 ms of real time apart: it keeps ahead of a frame every 20 ms.
    const agent = await startStreamAgent({
      think: randomThink(200),
      answerFrames: 30,
      streamParts: 3,
      streamGapMs: 60,
    });
    cleanups.push(() => agent.close());
    const twiml = `<Response><Connect><Stream url="${agent.url()}"/></Connect></Response>`;
    const first = await call(twiml);
    const second = await call(twiml);
    const played = first.timeline.filter((e) => e.kind === "stream.played").map((e) => e.detail.ms);
    expect(played).toEqual([600, 600, 600]);
    expect(second.timeline).toEqual(first.timeline);
  });

  it("a relay agent that thinks 0-300 ms and sends its tokens 20 ms apart answers every turn, the same run after run", async () => {
    const agent = await startRelayAgent({ think: randomThink(300), tokenGapMs: 20 });
    cleanups.push(() => agent.close());
    const twiml = `<Response><Connect><ConversationRelay url="${agent.url()}" welcomeGreeting="Hi there" dtmfDetection="true"/></Connect></Response>`;
    const first = await call(twiml);
    const second = await call(twiml);
    const said = first.timeline.filter((e) => e.kind === "heard.say").map((e) => e.detail.text);
    expect(said).toEqual([
      "Hi there",
      "You said one two",
      "You said three four",
      "You pressed 1",
      "You said five six",
    ]);
    expect(first.waits.filter((ms) => ms !== null)).toHaveLength(4);
    expect(second.timeline).toEqual(first.timeline);
  });

  it("on the real clock nothing waits: the agent's turns are recorded as they come, in real ms", async () => {
    const agent = await startStreamAgent({ think: randomThink(100) });
    cleanups.push(() => agent.close());
    const sandbox = createSandbox({ clock: "real" });
    cleanups.push(() => {
      sandbox.reset();
      sandbox.clock.switchTo("virtual");
    });
    sandbox.calls.setParty(callee, {
      ringAfter: 0,
      answerAfter: 0,
      steps: [{ say: "hello there" }, { hangup: true }],
    });
    const sid = await placeWithTwiml(
      sandbox,
      callee,
      `<Response><Connect><Stream url="${agent.url()}"/></Connect></Response>`,
    );
    await vi.waitFor(() => expect(sandbox.store.calls.get(sid)?.status).toBe("completed"), {
      timeout: 15_000,
    });
    const turns = sandbox.calls
      .timeline(sid)
      .filter((e) => e.kind === "agent.turn")
      .map((e) => e.detail);
    expect(turns).toEqual([expect.objectContaining({ n: 1, owed: true, answered: true })]);
    // Its 15 frames of silence come 20 ms apart on this clock: its answer cannot start sooner.
    expect(Number(turns[0]!.responseMs)).toBeGreaterThanOrEqual(300);
    expect(sandbox.calls.streams.agentWaits(sid)).toEqual([]);
  });
});
