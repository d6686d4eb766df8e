// A phone whose party is a function or calls from a bad line: the phone API passes them to the engine's party script.
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { placeWithTwiml } from "../support/stream-world.js";
import { startRelayAgent } from "../support/voice-agent-apps.js";

const number = "+14155550123";

describe("phones as personas", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("a phone whose party is a function answers the agent with its words, then hangs up", async () => {
    const agent = await startRelayAgent({ think: () => 20 });
    cleanups.push(() => agent.close());
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.reset());
    const asked: string[] = [];
    const phone = sandbox.phone(number, {
      ringFor: 0,
      allowUnexpected: true,
      line: { noise: -50, seed: 3 },
      respond: ({ agentSaid, turn }) => {
        asked.push(agentSaid);
        return turn === 1 ? "where is my parcel" : undefined;
      },
    });
    await phone;
    const sid = await placeWithTwiml(
      sandbox,
      number,
      `<Response><Connect><ConversationRelay url="${agent.url()}" welcomeGreeting="Hello"/></Connect></Response>`,
    );
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    expect(asked).toEqual(["Hello", "You said where is my parcel"]);
    const kinds = sandbox.calls.timeline(sid).map((e) => e.kind);
    expect(kinds).toContain("party.hangup");
  });
});
