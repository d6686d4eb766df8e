// The phone API's view of a voice agent's turns: expectResponseWithin, turns() and agentMetrics(), against agents that think in real time.
import { createServer } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { connectPhones, createNodeListener, PhoneExpectationError } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";
import { listenLocally } from "../support/local-server.js";
import { sandboxWith } from "../support/phone-sandbox.js";
import type { StreamApp } from "../support/stream-app.js";
import { randomThink, startRelayAgent, startStreamAgent } from "../support/voice-agent-apps.js";

const acmeNumber = fixtures.acme.mainNumber;
const alice = "+14155550123";
const streamMarkup = (url: string) => `<Response><Connect><Stream url="${url}"/></Connect></Response>`;

describe("phones and their agents' turns", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const started = async <A extends StreamApp>(app: Promise<A>) => {
    const a = await app;
    cleanups.push(() => a.close());
    return a;
  };

  it("a media-stream agent that thinks 0-300 ms answers each turn 220 ms after the words, in sandbox time", async () => {
    const agent = await started(startStreamAgent({ think: randomThink(300), leadInFrames: 10 }));
    const sandbox = await sandboxWith({ voice: streamMarkup(agent.url()) });
    const call = sandbox
      .call({ from: alice, to: acmeNumber })
      .waitForAgent()
      .speak("hello there")
      .expectResponseWithin(220)
      .waitForAgent()
      .speak("what time is it")
      .expectResponseWithin(300)
      .waitForAgent()
      .hangUp();
    await call;
    const turns = await call.turns();
    expect(turns.map((t) => [t.n, t.by, t.owed, t.answered, t.responseMs, t.speakingMs])).toEqual([
      [1, "speech", true, true, 220, 400],
      [2, "speech", true, true, 220, 400],
    ]);
    expect(await call.agentMetrics()).toMatchObject({
      turns: 2,
      unanswered: 0,
      responseMs: { p95: 220, p99: 220, max: 220 },
    });
  });

  it("an answer slower than the bound fails with the time it took and the call's timeline", async () => {
    const agent = await started(startStreamAgent({ leadInFrames: 10 }));
    const sandbox = await sandboxWith({ voice: streamMarkup(agent.url()) });
    const failure = await sandbox
      .call({ from: alice, to: acmeNumber })
      .waitForAgent()
      .speak("hello")
      .expectResponseWithin(100)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(PhoneExpectationError);
    expect((failure as Error).message).toMatch(
      /^\+14155550123, call CA[0-9a-f]{32}: expected the agent to answer turn 1 within 100 ms, it took 220 ms\n/,
    );
    expect((failure as Error).message).toContain("agent.response");
  });

  it("an agent that does not answer: the sandbox waits agentTurnTimeout, then the expectation says so", async () => {
    const agent = await started(startStreamAgent({ endOfTurnFrames: 1_000_000 }));
    const sandbox = await sandboxWith({ voice: streamMarkup(agent.url()) });
    sandbox.calls.streams.agentTurnTimeout.set(300);
    const failure = await sandbox
      .call({ from: alice, to: acmeNumber })
      .waitForAgent()
      .speak("hello")
      .expectResponseWithin(1000)
      .then(
        () => null,
        (error: unknown) => error as Error,
      );
    expect(failure?.message).toContain(
      "expected the agent to answer turn 1 within 1000 ms: the agent did not answer within 300 ms (agentTurnTimeout)",
    );
  });

  it("over HTTP: a relay agent's turns read from the admin timeline", async () => {
    const agent = await started(startRelayAgent({ think: randomThink(300) }));
    const sandbox = await sandboxWith({
      voice: `<Response><Connect><ConversationRelay url="${agent.url()}" welcomeGreeting="Hi"/></Connect></Response>`,
    });
    const server = await listenLocally(createServer(createNodeListener(sandbox.handle)));
    cleanups.push(() => server.close());
    const phones = connectPhones({ url: server.base, carrierKey: fixtures.carrierKey });
    const call = phones
      .call({ from: alice, to: acmeNumber })
      .waitForAgent()
      .speak("opening hours")
      .expectResponseWithin(0)
      .expectSay("You said opening hours")
      .waitForAgent()
      .hangUp();
    await call;
    expect((await call.turns()).map((t) => [t.n, t.answered, t.responseMs, t.speakingMs])).toEqual([
      [1, true, 0, 1600],
    ]);
  });
});
