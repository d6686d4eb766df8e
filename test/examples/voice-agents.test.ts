// The voice agent examples, driven by the sandbox: the echo agent over a media stream, the menu agent over ConversationRelay.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, test } from "vitest";
import { startEchoAgent } from "../../examples/voice-agents/echo-agent.mjs";
import { startMenuAgent } from "../../examples/voice-agents/menu-agent.mjs";
import { createSandbox } from "../../src/index.js";
import { scenarioTests } from "../../src/scenarios/vitest.js";
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
    // The caller's words (spoken in the first part of their second) went out again, in one echo: that is
    // what the caller heard from the agent.
    const ended = sandbox.calls.timeline(sid).find((e) => e.kind === "stream.ended");
    expect(ended?.detail).toMatchObject({ marks: 1 });
    const playedMs = Number(ended?.detail.playedMs);
    expect(playedMs).toBeGreaterThan(500);
    expect(playedMs).toBeLessThanOrEqual(1000);
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

describe("voice agent examples: their scenario files", () => {
  let echo: Awaited<ReturnType<typeof startEchoAgent>>;
  let menu: Awaited<ReturnType<typeof startMenuAgent>>;
  beforeAll(async () => {
    [echo, menu] = await Promise.all([startEchoAgent(), startMenuAgent()]);
  });
  afterAll(async () => {
    await Promise.all([echo.close(), menu.close()]);
  });

  // The echo scenario's inline markup names the agent's socket ({apps.echo}); the menu agent serves its markup (target).
  test.for(
    scenarioTests("examples/voice-agents/*.yaml", {
      cwd: join(import.meta.dirname, "../.."),
      target: () => menu.url(""),
      apps: () => ({ echo: echo.socketUrl() }),
    }),
  )("$name", (scenario, ctx) => scenario.run(ctx));

  it("the command line gives the echo scenario its agent with --app name=url", async () => {
    const repo = join(import.meta.dirname, "../..");
    const cli = [
      "--import",
      "tsx",
      join(repo, "src/server/cli.ts"),
      "run",
      "examples/voice-agents/echo-agent.yaml",
    ];
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, [...cli, ...args], { cwd: repo, timeout: 60_000 }).then(
        (out) => ({ code: 0, ...out }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const passed = await run(["--app", `echo=${echo.socketUrl()}`]);
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toContain("1 passed");
    const skipped = await run([]);
    expect(skipped.stdout).toContain("needs the URL of app echo");
    const wrong = await run(["--app", "echo"]);
    expect(wrong).toMatchObject({ code: 2 });
    expect(wrong.stderr).toContain('--app "echo" is not name=url (e.g. echo=ws://127.0.0.1:3002)');
  });
});
