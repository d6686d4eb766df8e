// Scenario files with personas: a call's line on the caller's frames, a step waiting for a stream's mark, a backchannel.
import { afterEach, describe, expect, it } from "vitest";
import { createSandboxCore, formatResult } from "../../src/index.js";
import { type StreamApp, startStreamApp } from "../support/stream-app.js";
import { startRelayAgent } from "../support/voice-agent-apps.js";

const frame = Buffer.alloc(160, 0x10).toString("base64");

/** Greets with 500 ms of audio and the mark `greeting` when the stream starts. */
const greeter = () =>
  startStreamApp((message, connection) => {
    if (message.event !== "start") return;
    for (let i = 0; i < 25; i++)
      connection.send({ event: "media", streamSid: message.streamSid, media: { payload: frame } });
    connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "greeting" } });
  });

const scenario = (
  line: string,
) => `name: a caller on a bad line says uh-huh over the greeting and answers its mark
agent_turn_timeout: 1s
apps: { greeter: null }
numbers:
  - number: "+14155550100"
    voice: <Response><Connect><Stream url="{apps.greeter}/media"/></Connect></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100", line: ${line} }
  - speak: { call: c1, text: uh-huh, for: 300ms, backchannel: true }
    on: { agent: talking }
    after: 100ms
  - speak: { call: c1, text: hello there, for: 1s }
    on: { agent: { mark: greeting } }
    after: 300ms
  - hangup: { call: c1 }
    after: 2s
expect:
  streams:
    exactly:
      - call: c1
        marks: [greeting]
  agent:
    call: c1
    turns: 1
    barge_ins: 0
    backchannels: 1
    backchannel_stops: 0
`;

describe("persona scenarios", () => {
  const apps: StreamApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function run(line: string) {
    const app = await greeter();
    apps.push(app);
    const result = await createSandboxCore().runScenario(scenario(line), { apps: { greeter: app.url("") } });
    expect(result.status, formatResult(result)).toBe("passed");
    return app.messages("media").map((m) => [Number(m.sequenceNumber), m.media.payload as string] as const);
  }

  it("the call's line drops and adds noise to the caller's frames, the same on every run; the mark cue waits", async () => {
    const clean = await run("{}");
    const lossy = await run("{ drop: 0.3, noise: -35, seed: 5 }");
    const again = await run("{ drop: 0.3, noise: -35, seed: 5 }");
    expect(again).toEqual(lossy);
    expect(lossy.length).toBeLessThan(clean.length);
    const seqs = lossy.map(([seq]) => seq);
    expect(seqs.some((seq, i) => i > 0 && seq - seqs[i - 1]! > 1)).toBe(true);
    const silence = Buffer.alloc(160, 0xff).toString("base64");
    expect(clean.some(([, payload]) => payload === silence)).toBe(true);
    expect(lossy.some(([, payload]) => payload === silence)).toBe(false);
  });

  it("a caller step waits for the agent's words to match a pattern, its flags as written", async () => {
    const app = await startRelayAgent({
      answer: (prompt) => (prompt === "hello" ? "Could I have your Account ID, please?" : "Thanks"),
    });
    apps.push(app);
    const yaml = (said: string) => `name: the caller gives its account number when asked for it
agent_turn_timeout: 1s
apps: { agent: null }
numbers:
  - number: "+14155550100"
    voice: <Response><Connect><ConversationRelay url="{apps.agent}/relay"/></Connect></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: hello }
  - speak: { call: c1, text: four four one two }
    on: { agent: { said: ${said} } }
    after: 300ms
  - hangup: { call: c1 }
    after: 3s
expect:
  relays:
    exactly:
      - call: c1
        prompts: [hello, four four one two]
`;
    const play = (said: string) =>
      createSandboxCore().runScenario(yaml(said), { apps: { agent: app.url("") } });
    const matched = await play('{ pattern: "account (number|id)", flags: i }');
    expect(matched.status, formatResult(matched)).toBe("passed");
    // Case counts without the i flag: the step never comes, and the expectation says so.
    const unmatched = await play('{ pattern: "account (number|id)" }');
    expect(unmatched.status).toBe("failed");
    expect(unmatched.failures.map((f) => f.path)).toEqual(["steps.2.speak", "expect.relays.exactly.0"]);
    expect(unmatched.failures[0]!.message).toContain("this caller step never happened");
  });
});
