// Conversation metrics on the virtual clock, against agents built to a known latency, stop time and talk-over: exact values.
import { afterEach, describe, expect, it } from "vitest";
import type { PartyBehaviourInput } from "../../src/engine/calls/party-behaviour.js";
import { agentMetrics } from "../../src/index.js";
import { playAgentCall } from "../support/agent-call.js";
import { randomThink, startRelayAgent, startStreamAgent } from "../support/voice-agent-apps.js";

describe("conversation metrics on the virtual clock", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function call(twiml: string, caller: PartyBehaviourInput) {
    const { timeline, turns } = await playAgentCall(cleanups, twiml, caller);
    return { timeline, turns, start: timeline.find((e) => e.kind.endsWith(".started"))!.at };
  }

  it("a media-stream agent with a 200 ms lead-in that clears after five frames of the caller's voice", async () => {
    // However long it thinks (0-300 ms of real time), its answers start 220 ms after the caller's words
    // end (the first frame without their sound): one frame, then its 200 ms of lead-in silence.
    const agent = await startStreamAgent({
      think: randomThink(300),
      leadInFrames: 10,
      answerFrames: 25,
      clearAfterFrames: 5,
    });
    cleanups.push(() => agent.close());
    const { turns, start } = await call(
      `<Response><Connect><Stream url="${agent.url()}"/></Connect></Response>`,
      {
        steps: [
          { say: "hello there", for: "1s" },
          // 300 ms after the agent's answer starts playing: 100 ms into its voice, the caller talks over it.
          { agent: "talking", after: "300ms", say: "stop", for: "600ms" },
          { say: "thanks", for: "500ms" },
          { hangup: true },
        ],
      },
    );
    const at = (ms: number) => start + ms;
    expect(turns).toEqual([
      {
        n: 1,
        by: "speech",
        startedAt: at(1000),
        // "hello there" sounds for 840 ms of its second; the silence after it is the end of the turn.
        endedAt: at(1840),
        owed: true,
        answered: true,
        late: false,
        responseMs: 220,
        // Its voice sounded from 2060 until the caller started at 2180.
        speakingMs: 120,
        talkOverMs: 0,
        bargeIn: null,
        silencesMs: [220],
      },
      {
        n: 2,
        by: "speech",
        startedAt: at(2180),
        endedAt: at(2680),
        owed: true,
        answered: true,
        late: false,
        responseMs: 220,
        // The caller's fifth loud frame (2260-2280) reached the agent, whose clear stopped its voice at 2280.
        speakingMs: 100 + 500,
        talkOverMs: 100,
        bargeIn: { stopMs: 100, cut: true },
        // The answer's gap, then the second after it played before the caller spoke again.
        silencesMs: [220, 1020],
      },
      {
        n: 3,
        by: "speech",
        startedAt: at(4420),
        endedAt: at(4860),
        owed: true,
        answered: true,
        late: false,
        responseMs: 220,
        speakingMs: 500,
        talkOverMs: 0,
        bargeIn: null,
        silencesMs: [220, 1020],
      },
    ]);
    expect(agentMetrics(turns)).toEqual({
      turns: 3,
      owed: 3,
      answered: 3,
      unanswered: 0,
      late: 0,
      responseMs: { count: 3, min: 220, p50: 220, p95: 220, p99: 220, max: 220 },
      speakingMs: 1220,
      bargeIns: 1,
      bargeInStopMs: { count: 1, min: 100, p50: 100, p95: 100, p99: 100, max: 100 },
      talkOverMs: 100,
      talkOverMaxMs: 100,
      longestSilenceMs: 1020,
      silencesMs: [220, 220, 1020, 220, 1020],
      backchannels: 0,
      backchannelStops: 0,
    });
  });

  it("an agent that talks on over the caller: the barge-in stops only when its audio runs out", async () => {
    const agent = await startStreamAgent({ answerFrames: 50 });
    cleanups.push(() => agent.close());
    const { turns } = await call(`<Response><Connect><Stream url="${agent.url()}"/></Connect></Response>`, {
      steps: [
        { say: "hello", for: "500ms" },
        { agent: "talking", after: "200ms", say: "wait", for: "400ms" },
        { hangup: true },
      ],
    });
    // Its answer plays for a second from a frame after the words; the caller speaks over it 200 ms after
    // its talk began (at the end of its first frame), its word sounding 360 ms; the agent answers those
    // words too, its second answer queued behind the first, so its voice stops only 1780 ms later.
    expect(turns[1]).toMatchObject({ startedAt: turns[0]!.endedAt! + 240, talkOverMs: 360 });
    expect(turns[1]!.bargeIn).toEqual({ stopMs: 1780, cut: false });
    // The caller's second words ended with the agent still talking: it owed nothing, and answered anyway.
    expect(turns[1]).toMatchObject({ owed: false, answered: true, responseMs: null });
  });

  it("a relay agent: its words come at once in sandbox time; the interrupted greeting stops at once", async () => {
    const agent = await startRelayAgent({ think: randomThink(300) });
    cleanups.push(() => agent.close());
    const greeting = "Welcome to the test line how can I help";
    const { turns, start } = await call(
      `<Response><Connect><ConversationRelay url="${agent.url()}" welcomeGreeting="${greeting}"/></Connect></Response>`,
      {
        steps: [
          { agent: "talking", after: "500ms", say: "billing please", for: "1s" },
          { say: "thanks", for: "500ms" },
          { hangup: true },
        ],
      },
    );
    const at = (ms: number) => start + ms;
    expect(turns).toEqual([
      {
        n: 1,
        by: "speech",
        startedAt: at(500),
        endedAt: at(1500),
        owed: true,
        answered: true,
        late: false,
        responseMs: 0,
        // "You said billing please": four words, 1600 ms.
        speakingMs: 1600,
        talkOverMs: 0,
        bargeIn: { stopMs: 0, cut: true },
        silencesMs: [1000],
      },
      {
        n: 2,
        by: "speech",
        startedAt: at(4100),
        endedAt: at(4600),
        owed: true,
        answered: true,
        late: false,
        responseMs: 0,
        speakingMs: 1200,
        talkOverMs: 0,
        bargeIn: null,
        silencesMs: [1000],
      },
    ]);
  });
});
