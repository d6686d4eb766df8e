// Scripted callers against real agents: steps that wait for the agent's words or a mark, and backchannels that are no turn.
import { afterEach, describe, expect, it } from "vitest";
import type { PartyBehaviourInput } from "../../src/engine/calls/party-behaviour.js";
import { agentMetrics, createSandbox, type Transcriber } from "../../src/index.js";
import { agentCallee as callee, playAgentCall } from "../support/agent-call.js";
import { startRelayAgent, startStreamAgent } from "../support/voice-agent-apps.js";

const stream = (url: string) => `<Response><Connect><Stream url="${url}"/></Connect></Response>`;
const relay = (url: string, attrs = "") =>
  `<Response><Connect><ConversationRelay url="${url}"${attrs}/></Connect></Response>`;

describe("scripted callers (personas)", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function call(twiml: string, caller: PartyBehaviourInput, transcriber?: Transcriber) {
    const { timeline, turns } = await playAgentCall(
      cleanups,
      twiml,
      caller,
      transcriber ? { transcriber } : {},
    );
    const said = (text: string) => timeline.find((e) => e.kind === "party.say" && e.detail.text === text);
    return { timeline, turns, said };
  }

  it("a relay caller answers when the agent's words contain the cue (any case), while it still talks", async () => {
    const agent = await startRelayAgent({
      answer: (prompt) => (prompt === "hello" ? "Please tell me your Account Number now" : "Thank you"),
    });
    cleanups.push(() => agent.close());
    const { timeline, said } = await call(relay(agent.url()), {
      steps: [
        { say: "hello", for: "500ms" },
        { agent: { said: "account number" }, after: "500ms", say: "one two three", for: "900ms" },
        { hangup: true },
      ],
    });
    const question = timeline.find(
      (e) => e.kind === "heard.say" && /Account Number/.test(String(e.detail.text)),
    );
    expect(question).toBeDefined();
    // 500 ms after the words began to play: the agent (2.8 s of words) is still talking.
    expect(said("one two three")?.at).toBe(question!.at + 500);
    expect(timeline.filter((e) => e.kind === "party.cue")).toHaveLength(1);
  });

  it("a caller waits for words matching a pattern: { pattern, flags } or a RegExp, case as the flags say", async () => {
    const agent = await startRelayAgent({
      answer: (prompt) => (prompt === "hello" ? "Please give me your Account ID now" : "Thank you"),
    });
    cleanups.push(() => agent.close());
    const cued = async (said: unknown) =>
      call(relay(agent.url()), {
        hangupAfter: 20_000,
        steps: [
          { say: "hello", for: "500ms" },
          { agent: { said: said as never }, after: "500ms", say: "one two three", for: "900ms" },
          { hangup: true },
        ],
      });
    const written = await cued({ pattern: "account (number|id)", flags: "i" });
    expect(written.said("one two three")).toBeDefined();
    expect(written.timeline.find((e) => e.kind === "party.cue")?.detail).toEqual({
      said: { pattern: "account (number|id)", flags: "i" },
    });
    // A RegExp is kept as its pattern and flags (g dropped: it would make matching stateful).
    const regexp = await cued(/account (number|id)/gi);
    expect(regexp.said("one two three")?.at).toBe(written.said("one two three")!.at);
    expect(regexp.timeline.find((e) => e.kind === "party.cue")?.detail).toEqual({
      said: { pattern: "account (number|id)", flags: "i" },
    });
    // Without the i flag the case counts: "Account ID" does not match, and the caller waits on.
    expect((await cued({ pattern: "account (number|id)" })).said("one two three")).toBeUndefined();
    expect((await cued(/^account/i)).said("one two three")).toBeUndefined();
  });

  it("words that never come: the caller waits on, and says nothing", async () => {
    const agent = await startRelayAgent({ answer: () => "How can I help" });
    cleanups.push(() => agent.close());
    const { said } = await call(relay(agent.url()), {
      hangupAfter: 20_000,
      steps: [
        { say: "hello", for: "500ms" },
        { agent: { said: "account number" }, say: "one two three" },
      ],
    });
    expect(said("one two three")).toBeUndefined();
  });

  it("a media-stream caller answers a mark of that name, or the transcribed words", async () => {
    const agent = await startStreamAgent({ answerFrames: 50 });
    cleanups.push(() => agent.close());
    const marked = await call(stream(agent.url()), {
      steps: [
        { say: "hello", for: "500ms" },
        { agent: { mark: "answer-1" }, after: "200ms", say: "fine", for: "500ms" },
        { hangup: true },
      ],
    });
    const mark = marked.timeline.find((e) => e.kind === "stream.mark" && e.detail.name === "answer-1");
    expect(marked.said("fine")?.at).toBe(mark!.at + 200);

    const transcriber: Transcriber = { transcribe: () => "What is your ACCOUNT number" };
    const heard = await call(
      stream(agent.url()),
      {
        steps: [
          { say: "hello", for: "500ms" },
          { agent: { said: "account number" }, after: "300ms", say: "four five", for: "500ms" },
          { hangup: true },
        ],
      },
      transcriber,
    );
    const words = heard.timeline.find((e) => e.kind === "stream.said");
    expect(words?.detail.text).toBe("What is your ACCOUNT number");
    expect(heard.said("four five")?.at).toBe(words!.at + 300);
  });

  it("a backchannel is no turn and no barge-in; an agent that clears its audio for it is caught", async () => {
    const steps: PartyBehaviourInput["steps"] = [
      { say: "hello", for: "500ms" },
      { agent: "talking", after: "300ms", say: "uh-huh", for: "400ms", backchannel: true },
      { hangup: true },
    ];
    const polite = await startStreamAgent({ answerFrames: 100 });
    const jumpy = await startStreamAgent({ answerFrames: 100, clearAfterFrames: 5 });
    cleanups.push(
      () => polite.close(),
      () => jumpy.close(),
    );
    const calm = await call(stream(polite.url()), { steps });
    expect(calm.turns).toHaveLength(1);
    expect(calm.turns[0]).toMatchObject({ bargeIn: null, backchannels: 1, backchannelStops: 0 });
    expect(agentMetrics(calm.turns)).toMatchObject({
      turns: 1,
      bargeIns: 0,
      backchannels: 1,
      backchannelStops: 0,
    });

    const stopped = await call(stream(jumpy.url()), { steps });
    expect(stopped.turns).toHaveLength(1);
    expect(stopped.turns[0]).toMatchObject({ bargeIn: null, backchannels: 1, backchannelStops: 1 });
    expect(stopped.timeline.some((e) => e.kind === "agent.backchannel-stop")).toBe(true);
  });

  it("a relay agent: an interruptible one stops for a backchannel, one not interruptible talks on", async () => {
    const agent = await startRelayAgent({
      answer: () => "Let me explain our opening hours to you in detail today",
    });
    cleanups.push(() => agent.close());
    const steps: PartyBehaviourInput["steps"] = [
      { say: "hello", for: "500ms" },
      { agent: "talking", after: "500ms", say: "uh-huh", for: "400ms", backchannel: true },
      { hangup: true },
    ];
    const cut = await call(relay(agent.url()), { steps });
    expect(cut.turns).toHaveLength(1);
    expect(cut.turns[0]).toMatchObject({ bargeIn: null, backchannels: 1, backchannelStops: 1 });
    expect(cut.timeline.some((e) => e.kind === "relay.interrupt")).toBe(true);

    const on = await call(relay(agent.url(), ' interruptible="none"'), { steps });
    expect(on.turns).toHaveLength(1);
    expect(on.turns[0]).toMatchObject({ bargeIn: null, backchannels: 1, backchannelStops: 0 });
  });

  it('a caller that is a function: asked each time the relay agent stops, with its words; "" stays silent', async () => {
    const agent = await startRelayAgent({ think: () => 30 });
    cleanups.push(() => agent.close());
    const asked: { agentSaid: string; turn: number }[] = [];
    const { timeline, turns } = await call(relay(agent.url(), ' welcomeGreeting="Hi, how can I help"'), {
      respond: async (input) => {
        asked.push(input);
        // A model call would take real time; sandbox time waits for it.
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
        return input.turn === 1 ? "my order is late" : input.turn === 2 ? "" : undefined;
      },
    });
    expect(asked).toEqual([
      { agentSaid: "Hi, how can I help", turn: 1 },
      { agentSaid: "You said my order is late", turn: 2 },
    ]);
    const says = timeline.filter((e) => e.kind === "party.say").map((e) => e.detail.text);
    expect(says).toEqual(["my order is late"]);
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ answered: true });
    // Turn 2 ("") says nothing (and hangs up nothing): the agent, not spoken to, says no more.
    expect(timeline.some((e) => e.kind === "party.hangup")).toBe(false);
  });

  it("a function caller on a media stream with a transcriber: undefined hangs up; the same timeline run after run", async () => {
    const agent = await startStreamAgent({ think: () => Math.floor(Math.random() * 30) });
    cleanups.push(() => agent.close());
    let n = 0;
    const transcriber: Transcriber = { transcribe: () => `part ${++n}` };
    const run = async () => {
      n = 0;
      const asked: string[] = [];
      const result = await call(
        stream(agent.url()),
        {
          respond: async ({ agentSaid, turn }) => {
            asked.push(agentSaid);
            await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
            return turn === 1 ? "hello agent" : undefined;
          },
        },
        transcriber,
      );
      return { asked, kinds: result.timeline.map((e) => [e.at, e.kind]) };
    };
    const first = await run();
    // The stream opens with the agent silent: the caller is asked first with nothing said yet.
    expect(first.asked).toEqual(["", expect.stringMatching(/^part 1\b/)]);
    expect(
      first.kinds.filter(([, kind]) => kind === "party.say" || kind === "party.hangup").map(([, k]) => k),
    ).toEqual(["party.say", "party.hangup"]);
    expect((await run()).kinds).toEqual(first.kinds);
  });

  it("bad steps are refused with what is wrong", () => {
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.reset());
    expect(() => sandbox.calls.setParty(callee, { steps: [{ agent: { said: "" }, say: "x" }] })).toThrow(
      /said needs the words/,
    );
    expect(() =>
      sandbox.calls.setParty(callee, { steps: [{ agent: { heard: "x" } as never, say: "x" }] }),
    ).toThrow(/or \{ mark: /);
    expect(() =>
      sandbox.calls.setParty(callee, {
        steps: [{ agent: { said: { pattern: "account (number" } }, say: "x" }],
      }),
    ).toThrow(/said\.pattern is not a valid regular expression: .*account \(number/);
    expect(() =>
      sandbox.calls.setParty(callee, {
        steps: [{ agent: { said: { pattern: "a", flags: "gi" } }, say: "x" }],
      }),
    ).toThrow(/said\.flags are i, m, s and u/);
    expect(() => sandbox.calls.setParty(callee, { steps: [{ press: "1", backchannel: true }] })).toThrow(
      /backchannel is for a say step/,
    );
    expect(() => sandbox.calls.setParty(callee, { respond: "hi" as never })).toThrow(
      /respond must be a function/,
    );
  });
});
