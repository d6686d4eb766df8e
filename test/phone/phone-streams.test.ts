// The phone API with voice agents: a call to a number whose markup connects a media stream or ConversationRelay, in-process and over HTTP.
import { createServer } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectPhones, createNodeListener, PhoneExpectationError, type Sandbox } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";
import { listenLocally } from "../support/local-server.js";
import { phoneApp, sandboxWith as withMarkup } from "../support/phone-sandbox.js";
import { type StreamApp, startStreamApp } from "../support/stream-app.js";

const app = phoneApp;
const acmeNumber = fixtures.acme.mainNumber;
const alice = "+14155550123";
const frame = Buffer.alloc(160, 0x10).toString("base64");

/** Plays 500 ms and the mark `greeting` when the stream starts, 300 ms and `reply` after each key; `#` closes. */
const greeter = () =>
  startStreamApp((message, connection) => {
    const play = (frames: number, mark: string) => {
      for (let i = 0; i < frames; i++)
        connection.send({ event: "media", streamSid: message.streamSid, media: { payload: frame } });
      connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: mark } });
    };
    if (message.event === "start") play(25, "greeting");
    if (message.event === "dtmf") {
      if (message.dtmf.digit === "#") connection.socket.close(1000);
      else play(15, "reply");
    }
  });

/** Answers every prompt with what it heard, every key with the key; "bye" ends the session. */
const relayAgent = () =>
  startStreamApp((message, connection) => {
    const say = (text: string) => connection.send({ type: "text", token: text, last: true });
    if (message.type === "prompt") {
      if (message.voicePrompt === "bye") connection.send({ type: "end" });
      else say(`You said ${message.voicePrompt}`);
    }
    if (message.type === "dtmf") say(`You pressed ${message.digit}`);
  });

/** A sandbox whose Acme number answers with `voice`; the Connect action (`/next`) says goodbye. */
const sandboxWith = (voice: string) => withMarkup({ voice, next: "<Response><Say>Goodbye</Say></Response>" });

const streamMarkup = (url: string) =>
  `<Response><Connect><Stream url="${url}"/></Connect><Say>Stream over</Say></Response>`;
const relayMarkup = (url: string) =>
  `<Response><Connect action="${app}/next"><ConversationRelay url="${url}" welcomeGreeting="Hi, how can I help you today?" dtmfDetection="true"/></Connect></Response>`;

describe("phones and voice agents (in-process)", () => {
  const apps: StreamApp[] = [];
  const start = async (make: () => Promise<StreamApp>) => {
    const started = await make();
    apps.push(started);
    return started;
  };
  afterEach(async () => {
    for (const started of apps.splice(0)) await started.close();
  });

  it("a media stream: the agent's audio and marks, a key once it waits, the stream closed by the app", async () => {
    const agent = await start(greeter);
    const sandbox = await sandboxWith(streamMarkup(agent.url()));
    await sandbox
      .call({ from: alice, to: acmeNumber })
      .expectAgentAudio(500)
      .expectMark("greeting")
      .waitForAgent()
      .press("1")
      .expectAgentAudio({ min: 200, max: 400 })
      .expectMark("reply")
      .press("#")
      .expectSay("Stream over")
      .expectHangup();
    expect(agent.messages("dtmf").map((m) => m.dtmf.digit)).toEqual(["1", "#"]);
    await sandbox.phones.verify();
  });

  it("ConversationRelay: what the agent said, words and keys when it waits, an interrupt, the action after", async () => {
    const agent = await start(relayAgent);
    const sandbox = await sandboxWith(relayMarkup(agent.url()));
    await sandbox
      .call({ from: alice, to: acmeNumber })
      .expectSay("Hi, how can I help you today?")
      .speak("opening hours")
      .expectSay("You said opening hours")
      .press("2")
      .expectSay("You pressed 2")
      .interrupt("stop", { after: 400 })
      .expectSay("You said stop")
      .speak("bye")
      .expectSay("Goodbye")
      .expectHangup();
    expect(agent.messages("interrupt")).toEqual([
      { type: "interrupt", utteranceUntilInterrupt: "You", durationUntilInterruptMs: 400 },
    ]);
  });

  it("a wrong played duration fails naming both, with the call's timeline", async () => {
    const agent = await start(greeter);
    const sandbox = await sandboxWith(streamMarkup(agent.url()));
    const failure = await sandbox
      .call({ from: alice, to: acmeNumber })
      .expectAgentAudio(800)
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(PhoneExpectationError);
    expect((failure as Error).message).toMatch(
      /^\+14155550123, call CA[0-9a-f]{32}: expected the agent's audio to play 800 ms, it played 500 ms\n/,
    );
    expect((failure as Error).message).toContain("stream.played");
  });

  it("speaking with no one listening fails after the time-out, saying what would have listened", async () => {
    const sandbox = await sandboxWith('<Response><Pause length="60"/></Response>');
    const failure = await sandbox
      .call({ from: alice, to: acmeNumber })
      .speak("hello", { timeout: 2000 })
      .then(
        () => null,
        (error: unknown) => error as Error,
      );
    expect(failure?.message).toContain(
      'could not say "hello": nothing listened (no Gather or Record, no <Connect> agent waiting for the caller) within 2 s of virtual time',
    );
  });
});

describe("phones and voice agents over HTTP (connectPhones)", () => {
  let sandbox: Sandbox;
  let server: Awaited<ReturnType<typeof listenLocally>>;
  let agent: StreamApp;
  beforeAll(async () => {
    agent = await relayAgent();
    sandbox = await sandboxWith(relayMarkup(agent.url()));
    server = await listenLocally(createServer(createNodeListener(sandbox.handle)));
  });
  afterAll(async () => {
    await server.close();
    await agent.close();
  });

  it("the same conversation through the admin and carrier APIs", async () => {
    const phones = connectPhones({ url: server.base, carrierKey: fixtures.carrierKey });
    await phones
      .call({ from: alice, to: acmeNumber })
      .expectSay("Hi, how can I help you today?")
      .waitForAgent()
      .speak("billing")
      .expectSay("You said billing")
      .interrupt("wait", { after: 200 })
      .expectSay("You said wait")
      .speak("bye")
      .expectSay("Goodbye")
      .expectHangup();
    await phones.verify();
    expect(agent.messages("prompt").map((m) => m.voicePrompt)).toEqual(["billing", "wait", "bye"]);
  });
});
