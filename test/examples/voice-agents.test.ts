// The voice agent examples, driven by the sandbox: the echo agent over a media stream, the menu agent over ConversationRelay.
import { afterEach, describe, expect, it } from "vitest";
import { startEchoAgent } from "../../examples/voice-agents/echo-agent.mjs";
import { startMenuAgent } from "../../examples/voice-agents/menu-agent.mjs";
import { createSandbox } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";

const caller = "+14155550123";
const auth = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;

/** A sandbox whose call to `caller` fetches `url` for its markup once answered; the call's sid. */
async function callAgent(sandbox: ReturnType<typeof createSandbox>, url: string) {
  const res = await sandbox.fetch(`${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ From: fixtures.acme.mainNumber, To: caller, Url: url }).toString(),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { sid: string }).sid;
}

describe("voice agent examples", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("the echo agent plays the caller's words back, marks each echo, and hangs up the stream on #", async () => {
    const agent = await startEchoAgent();
    cleanups.push(() => agent.close());
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(caller, {
      steps: [
        { on: { verb: "Connect" }, after: "500ms", say: "hello there", for: "1s" },
        { on: { verb: "Connect" }, after: "3s", press: "#" },
      ],
    });
    const sid = await callAgent(sandbox, agent.url());
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();

    expect(agent.events).toEqual([
      { event: "start", customParameters: { agent: "echo" } },
      { event: "mark", name: "echo-1" },
      { event: "dtmf", digit: "#" },
    ]);
    // One second of the caller's voice went out again: that is what the caller heard from the agent.
    const ended = sandbox.calls.timeline(sid).find((e) => e.kind === "stream.ended");
    expect(ended?.detail).toMatchObject({ playedMs: 1000, marks: 1 });
    expect(sandbox.calls.heard(sid).map((e) => e.text)).toEqual(["Echo finished, goodbye"]);
  });

  it("the menu agent re-asks on words it does not know, then hands the caller to billing", async () => {
    const agent = await startMenuAgent();
    cleanups.push(() => agent.close());
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(caller, {
      steps: [{ say: "I would like some music" }, { say: "billing please" }],
    });
    const sid = await callAgent(sandbox, agent.url());
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();

    expect(agent.transcript).toEqual([
      { caller: "I would like some music" },
      { agent: "Sorry, I did not get that. Say billing or support." },
      { caller: "billing please" },
      { agent: "Sure, billing it is." },
    ]);
    expect(sandbox.calls.heard(sid).map((e) => e.text)).toEqual([
      "Welcome to Acme. Say billing or support, or press 1 or 2.",
      "Sorry, I did not get that. Say billing or support.",
      "Sure, billing it is.",
      "Connecting you to billing.",
    ]);
  });

  it("the menu agent takes a key too: 2 is support", async () => {
    const agent = await startMenuAgent();
    cleanups.push(() => agent.close());
    const sandbox = createSandbox();
    cleanups.push(() => sandbox.reset());
    sandbox.calls.setParty(caller, { steps: [{ press: "2" }] });
    const sid = await callAgent(sandbox, agent.url());
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    expect(agent.transcript).toEqual([{ caller: "pressed 2" }, { agent: "Sure, support it is." }]);
    expect(sandbox.calls.heard(sid).at(-1)?.text).toBe("Connecting you to support.");
  });
});
