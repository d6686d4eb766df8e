// The conversation tracker on its own: turns, answers in time and late, barge-ins, keys, silences, from the events it is told.
import { describe, expect, it } from "vitest";
import { agentMetrics } from "../../src/engine/media-streams/agent-metrics.js";
import { createConversation } from "../../src/engine/media-streams/conversation.js";

function tracked() {
  const notes: { kind: string; detail: Record<string, unknown> }[] = [];
  const talk = createConversation(0, (kind, detail) => notes.push({ kind, detail }));
  const turns = () => notes.filter((n) => n.kind === "agent.turn").map((n) => n.detail);
  return { talk, notes, turns };
}

describe("the conversation tracker", () => {
  it("an answer after the sandbox stopped waiting is late, not answered, and noted", () => {
    const { talk, notes, turns } = tracked();
    talk.caller(1000, true);
    talk.caller(2000, false);
    talk.owe();
    talk.unanswered("timeout", 300);
    talk.answered();
    talk.agent(2500, true);
    talk.agent(3000, false);
    talk.close(4000);
    expect(notes.map((n) => n.kind)).toEqual([
      "agent.unanswered",
      "agent.late",
      "agent.response",
      "agent.turn",
    ]);
    expect(turns()[0]).toMatchObject({
      owed: true,
      answered: false,
      late: true,
      responseMs: 500,
      speakingMs: 500,
    });
    expect(agentMetrics(turns() as never)).toMatchObject({ unanswered: 1, late: 1 });
  });

  it("keys pressed a moment apart make one turn; the agent answering ends it", () => {
    const { talk, turns } = tracked();
    talk.key(1000);
    talk.key(1300);
    talk.answered();
    talk.agent(1400, true);
    talk.agent(1800, false);
    talk.key(2000);
    talk.close(2500);
    expect(turns().map((t) => [t.by, t.startedAt, t.endedAt, t.responseMs])).toEqual([
      ["dtmf", 1000, 1300, 100],
      ["dtmf", 2000, 2000, null],
    ]);
  });

  it("a caller who starts over the agent: barge-in, its stop time, talk-over; the silences in between", () => {
    const { talk, turns } = tracked();
    talk.caller(0, true);
    talk.caller(1000, false);
    talk.agent(1200, true);
    talk.caller(1500, true);
    talk.agent(1650, false, true);
    talk.caller(2000, false);
    talk.close(3000);
    expect(turns()).toEqual([
      expect.objectContaining({ n: 1, responseMs: 200, speakingMs: 300, silencesMs: [200] }),
      expect.objectContaining({
        n: 2,
        bargeIn: { stopMs: 150, cut: true },
        talkOverMs: 150,
        speakingMs: 150,
        silencesMs: [1000],
      }),
    ]);
  });

  it("events told out of order never make time run backwards; nothing is told after the close", () => {
    const { talk, notes } = tracked();
    talk.caller(1000, true);
    talk.caller(900, false);
    talk.close(1200);
    talk.caller(1300, true);
    expect(notes).toEqual([
      {
        kind: "agent.turn",
        detail: expect.objectContaining({ startedAt: 1000, endedAt: 1000, silencesMs: [200] }),
      },
    ]);
  });
});
