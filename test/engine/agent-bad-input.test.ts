// Agents that misbehave: never answer, answer too late, flood, send odd marks, close mid-turn. Reported, never a stall or a crash.
import { afterEach, describe, expect, it } from "vitest";
import type { PartyBehaviourInput } from "../../src/engine/calls/party-behaviour.js";
import { createSandbox, type Sandbox, type TurnRecord } from "../../src/index.js";
import { type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { placeWithTwiml } from "../support/stream-world.js";
import { silenceFrame, startStreamAgent, voiceFrame } from "../support/voice-agent-apps.js";

const callee = "+14155550123";
const other = "+14155550124";
const stream = (url: string) =>
  `<Response><Connect><Stream url="${url}"/></Connect><Say>After the agent</Say></Response>`;
const twoTurns: PartyBehaviourInput = {
  ringAfter: 0,
  answerAfter: 0,
  steps: [{ say: "hello there" }, { say: "are you there" }, { hangup: true }],
};

describe("agents that misbehave", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const sandboxOf = (options: Parameters<typeof createSandbox>[0] = {}) => {
    const sandbox = createSandbox({ agentTurnTimeout: "300ms", ...options });
    cleanups.push(() => sandbox.reset());
    return sandbox;
  };
  const app = async (
    onMessage: (message: StreamMessage, send: (m: object) => void, close: () => void) => void,
  ) => {
    const started = await startStreamApp((message, connection) =>
      onMessage(
        message,
        (m) => {
          if (connection.socket.readyState === connection.socket.OPEN)
            connection.send({ ...m, streamSid: message.streamSid });
        },
        () => connection.socket.close(),
      ),
    );
    cleanups.push(() => started.close());
    return started;
  };
  const run = async (sandbox: Sandbox) => {
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
  };
  const turnsOf = (sandbox: Sandbox, sid: string) =>
    sandbox.calls
      .timeline(sid)
      .filter((e) => e.kind === "agent.turn")
      .map((e) => e.detail as unknown as TurnRecord);
  const kinds = (sandbox: Sandbox, sid: string, prefix: string) =>
    sandbox.calls.timeline(sid).filter((e) => e.kind.startsWith(prefix));

  it("an agent that never answers: each turn waits agentTurnTimeout, is recorded unanswered, and the call goes on", async () => {
    const mute = await app(() => undefined);
    const sandbox = sandboxOf();
    sandbox.calls.setParty(callee, twoTurns);
    const sid = await placeWithTwiml(sandbox, callee, stream(mute.url()));
    await run(sandbox);
    expect(kinds(sandbox, sid, "agent.unanswered").map((e) => e.detail)).toEqual([
      expect.objectContaining({
        n: 1,
        reason: "timeout",
        message: "the agent did not answer within 300 ms (agentTurnTimeout)",
      }),
      expect.objectContaining({ n: 2, reason: "timeout" }),
    ]);
    expect(turnsOf(sandbox, sid).map((t) => [t.owed, t.answered, t.responseMs])).toEqual([
      [true, false, null],
      [true, false, null],
    ]);
    expect(sandbox.calls.streams.agentWaits(sid)).toEqual([null, null]);
    expect(sandbox.store.calls.get(sid)?.status).toBe("completed");
    expect(sandbox.calls.alerts(sid)).toEqual([]);
  });

  it("beside it, another call's agent answers every turn, and its timeline is what it is alone", async () => {
    const mute = await app(() => undefined);
    const agent = await startStreamAgent();
    cleanups.push(() => agent.close());
    const alone = sandboxOf();
    alone.calls.setParty(other, twoTurns);
    const aloneSid = await placeWithTwiml(alone, other, stream(agent.url()));
    await run(alone);
    const together = sandboxOf();
    together.calls.setParty(callee, twoTurns);
    together.calls.setParty(other, twoTurns);
    await placeWithTwiml(together, callee, stream(mute.url()));
    const goodSid = await placeWithTwiml(together, other, stream(agent.url()));
    await run(together);
    const shape = (sandbox: Sandbox, sid: string) =>
      sandbox.calls
        .timeline(sid)
        .map((e) => ({ at: e.at, kind: e.kind, detail: { ...e.detail, sid: undefined } }));
    expect(turnsOf(together, goodSid).map((t) => t.answered)).toEqual([true, true]);
    // The same virtual instants and entries: only the ids (minted in another order) differ.
    expect(shape(together, goodSid).map((e) => [e.at, e.kind])).toEqual(
      shape(alone, aloneSid).map((e) => [e.at, e.kind]),
    );
  });

  it("an agent whose answer comes after the call ended: the turn stays unanswered, nothing breaks", async () => {
    // It answers each turn a whole second of real time later; the sandbox waits 300 ms.
    let turns = 0;
    const slow = await app((message, send) => {
      if (message.event !== "media" || message.media.payload !== silenceFrame) return;
      turns++;
      setTimeout(() => {
        for (let i = 0; i < 10; i++) send({ event: "media", media: { payload: voiceFrame } });
      }, 1000);
    });
    const sandbox = sandboxOf();
    sandbox.calls.setParty(callee, {
      ringAfter: 0,
      answerAfter: 0,
      steps: [{ say: "hello there" }, { at: "20s", hangup: true }],
    });
    const sid = await placeWithTwiml(sandbox, callee, stream(slow.url()));
    await run(sandbox);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(turns).toBeGreaterThan(0);
    expect(kinds(sandbox, sid, "agent.unanswered")).toHaveLength(1);
    expect(turnsOf(sandbox, sid)).toEqual([expect.objectContaining({ owed: true, answered: false })]);
    expect(sandbox.calls.alerts(sid)).toEqual([]);
    expect(sandbox.calls.heard(sid).map((h) => h.text)).toEqual([]);
  });

  it("an agent that closes mid-turn: unanswered because it closed, and the markup after Connect runs", async () => {
    // It closes on the third frame of silence after the caller's words.
    let heardWords = false;
    let silent = 0;
    const closer = await app((message, _send, close) => {
      if (message.event !== "media") return;
      if (message.media.payload !== silenceFrame) heardWords = true;
      else if (heardWords && ++silent === 3) close();
    });
    const sandbox = sandboxOf({ agentTurnTimeout: "5s" });
    sandbox.calls.setParty(callee, twoTurns);
    const sid = await placeWithTwiml(sandbox, callee, stream(closer.url()));
    await run(sandbox);
    expect(kinds(sandbox, sid, "agent.unanswered").map((e) => e.detail.reason)).toEqual(["closed"]);
    expect(turnsOf(sandbox, sid)).toEqual([expect.objectContaining({ n: 1, owed: true, answered: false })]);
    expect(sandbox.calls.heard(sid).map((h) => h.text)).toEqual(["After the agent"]);
  });

  it("an agent that floods its answer: the budget holds, the answer plays fast past what it is waited for", async () => {
    // Two minutes of audio in 100 ms messages, all at once, when the caller's words end.
    let heardWords = false;
    const flood = await app((message, send) => {
      if (message.event !== "media") return;
      if (message.media.payload !== silenceFrame) heardWords = true;
      else if (heardWords) {
        heardWords = false;
        const payload = Buffer.alloc(800, 0x10).toString("base64");
        for (let i = 0; i < 1200; i++) send({ event: "media", media: { payload } });
      }
    });
    const answering = await startStreamAgent();
    cleanups.push(() => answering.close());
    const sandbox = sandboxOf({ streams: { maxQueuedBytes: 256 * 1024 } });
    sandbox.calls.setParty(callee, {
      ringAfter: 0,
      answerAfter: 0,
      steps: [{ say: "hello there" }, { at: "30s", hangup: true }],
    });
    sandbox.calls.setParty(other, twoTurns);
    const floodSid = await placeWithTwiml(sandbox, callee, stream(flood.url()));
    const goodSid = await placeWithTwiml(sandbox, other, stream(answering.url()));
    await run(sandbox);
    const ended = kinds(sandbox, floodSid, "stream.ended")[0]!.detail;
    expect(Number(ended.overBudget)).toBeGreaterThan(0);
    // Its share of the budget (128 KiB: 16 s of audio) played, as its answer to the caller.
    expect(turnsOf(sandbox, floodSid)).toEqual([
      expect.objectContaining({ answered: true, responseMs: 20, speakingMs: expect.any(Number) }),
    ]);
    expect(turnsOf(sandbox, floodSid)[0]!.speakingMs).toBeGreaterThan(15_000);
    expect(turnsOf(sandbox, goodSid).map((t) => t.answered)).toEqual([true, true]);
  });

  it("odd marks: empty, long, repeated, thousands with no audio: each echoed or refused, and the call goes on", async () => {
    const marker = await app((message, send) => {
      if (message.event === "start") {
        send({ event: "mark", mark: { name: "" } });
        send({ event: "mark", mark: { name: "x".repeat(10_000) } });
        for (let i = 0; i < 20_000; i++) send({ event: "mark", mark: { name: "same" } });
        send({ event: "mark", mark: {} });
      }
    });
    const sandbox = sandboxOf();
    sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0, hangupAfter: "2s" });
    const sid = await placeWithTwiml(sandbox, callee, stream(marker.url()));
    await run(sandbox);
    const ended = kinds(sandbox, sid, "stream.ended")[0]!.detail;
    expect(Number(ended.marks)).toBe(20_002);
    expect(Number(ended.refused)).toBe(1);
    expect(sandbox.calls.alerts(sid).map((a) => a.code)).toEqual([31951]);
    expect(marker.messages("mark")).toHaveLength(20_002);
  });

  it("a ConversationRelay app that ignores a prompt and closes on the next: unanswered, then closed", async () => {
    let prompts = 0;
    const relay = await app((message, _send, close) => {
      if (message.type === "prompt" && ++prompts === 2) close();
    });
    const sandbox = sandboxOf();
    sandbox.calls.setParty(callee, twoTurns);
    const sid = await placeWithTwiml(
      sandbox,
      callee,
      `<Response><Connect><ConversationRelay url="${relay.url()}"/></Connect><Say>After the agent</Say></Response>`,
    );
    await run(sandbox);
    expect(kinds(sandbox, sid, "agent.unanswered").map((e) => e.detail.reason)).toEqual([
      "timeout",
      "closed",
    ]);
    expect(turnsOf(sandbox, sid).map((t) => [t.owed, t.answered])).toEqual([
      [true, false],
      [true, false],
    ]);
    expect(sandbox.calls.heard(sid).map((h) => h.text)).toEqual(["After the agent"]);
  });
});
