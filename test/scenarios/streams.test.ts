// Scenarios that point calls at real WebSocket apps: apps by name, the caller scripted around the agent, stream and relay expectations.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSandboxCore, formatResult, type ScenarioResult } from "../../src/index.js";
import { parseScenario } from "../../src/scenarios/load.js";
import { doorNames, useDoor } from "../support/doors.js";
import { type StreamApp, startStreamApp } from "../support/stream-app.js";

/** 20 ms of mu-law at half scale: what the stream app plays to the caller. */
const frame = Buffer.alloc(160, 0x10).toString("base64");

/** A media-stream app: on start it plays 500 ms and marks it `greeting`; `#` closes the socket. */
async function greeterApp(): Promise<StreamApp> {
  return startStreamApp((message, connection) => {
    const streamSid = message.streamSid;
    if (message.event === "start") {
      for (let i = 0; i < 25; i++) connection.send({ event: "media", streamSid, media: { payload: frame } });
      connection.send({ event: "mark", streamSid, mark: { name: "greeting" } });
    }
    if (message.event === "dtmf" && message.dtmf.digit === "#") connection.socket.close(1000);
  });
}

/** A ConversationRelay app: answers every prompt and key with two text tokens; "bye" ends the session. */
async function relayApp(): Promise<StreamApp> {
  return startStreamApp((message, connection) => {
    const say = (text: string) => {
      const [first, ...rest] = text.split(" ");
      connection.send({ type: "text", token: first, last: false });
      connection.send({ type: "text", token: ` ${rest.join(" ")}`, last: true });
    };
    if (message.type === "prompt") {
      if (message.voicePrompt === "bye") connection.send({ type: "end", handoffData: '{"reason":"bye"}' });
      else say(`You said ${message.voicePrompt}`);
    }
    if (message.type === "dtmf") say(`You pressed ${message.digit}`);
  });
}

const streamScenario = `
name: a stream greets, the caller answers and presses 1
# The app only greets: the caller's words wait a second for an answer that does not come.
agent_turn_timeout: 1s
apps:
  greeter: null
numbers:
  - number: "+14155550100"
    voice: |
      <Response>
        <Connect><Stream url="{apps.greeter}/media" statusCallback="/stream"><Parameter name="lang" value="en"/></Stream></Connect>
      </Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: hello, for: 600ms }
  - press: { call: c1, digits: "1" }
  - hangup: { call: c1 }
expect:
  streams:
    exactly:
      - call: c1
        parameters: { lang: en }
        sent: [connected, start, media, mark, dtmf, stop]
        received: [media, mark]
        marks: [greeting]
        played: 500ms
        utterances: [500]
        dtmf: "1"
        ended_by: call
        callbacks: [stream-started, stream-stopped]
  webhooks:
    - { url: /stream, kind: stream-status, params: { StreamEvent: stream-started } }
    - { url: /stream, kind: stream-status, params: { StreamEvent: stream-stopped } }
`;

const relayScenario = `
name: a relay agent answers what the caller says and presses, then the caller says bye
apps:
  agent: null
numbers:
  - number: "+14155550100"
    voice: |
      <Response>
        <Connect action="/after">
          <ConversationRelay url="{apps.agent}/relay" welcomeGreeting="Hi, how can I help you today?" dtmfDetection="true"/>
        </Connect>
      </Response>
handlers:
  /after: <Response><Say>Goodbye</Say></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: opening hours }
  - press: { call: c1, digits: "2" }
  - speak: { call: c1, text: stop talking }
    on: { agent: talking }
    after: 500ms
  - speak: { call: c1, text: bye }
expect:
  relays:
    exactly:
      - call: c1
        status: ended
        said:
          - Hi, how can I help you today?
          - You said opening hours
          - You pressed 2
          - You said stop talking
        prompts: [opening hours, stop talking, bye]
        dtmf: "2"
        interrupts: [You]
        handoff_data: '{"reason":"bye"}'
  requests:
    - { url: /after, params: { SessionStatus: ended, HandoffData: '{"reason":"bye"}' } }
  heard: { c1: [{ say: Goodbye }] }
`;

const trim = (yaml: string) => yaml.slice(1);
const show = (result: ScenarioResult) => formatResult(result);

describe("scenarios with WebSocket apps", () => {
  const apps: StreamApp[] = [];
  const start = async (make: () => Promise<StreamApp>) => {
    const app = await make();
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  it("a media stream: the app's audio, its mark, the caller's key, and how it ended", async () => {
    const app = await start(greeterApp);
    const result = await createSandboxCore().runScenario(trim(streamScenario), {
      apps: { greeter: app.url("") },
    });
    expect(result.status, show(result)).toBe("passed");
    // The caller answered once the greeting had played (500 ms, then 1 s), and pressed 1 a second after that.
    expect(app.messages("dtmf")).toHaveLength(1);
  });

  it("ConversationRelay: what the agent said, the prompts, a key, an interrupt 500 ms into an answer, the end", async () => {
    const app = await start(relayApp);
    const result = await createSandboxCore().runScenario(trim(relayScenario), {
      apps: { agent: app.url("") },
    });
    expect(result.status, show(result)).toBe("passed");
    expect(app.messages("interrupt")[0]).toMatchObject({
      type: "interrupt",
      utteranceUntilInterrupt: "You",
      durationUntilInterruptMs: 500,
    });
  });

  it("a live run plays in the sandbox itself, the app's socket included", async () => {
    const app = await start(greeterApp);
    const sandbox = createSandboxCore();
    const result = await sandbox.runScenario(trim(streamScenario), {
      apps: { greeter: app.url("") },
      live: true,
    });
    expect(result.status, show(result)).toBe("passed");
    expect(sandbox.calls.timeline(result.calls.c1!).some((e) => e.kind === "stream.ended")).toBe(true);
  });

  it("a placed call whose twiml streams to the app, recorded: the stream and the recording", async () => {
    const app = await start(greeterApp);
    const yaml = `name: placed and recorded
apps: { greeter: null }
steps:
  - place_call:
      id: c1
      from: "+14155550100"
      to: "+14155550199"
      record: true
      recording_channels: dual
      twiml: <Response><Connect><Stream url="{apps.greeter}/media"/></Connect></Response>
      callee: { steps: [{ at: 3s, hangup: true }] }
expect:
  streams: [{ call: c1, played: 500ms, marks: [greeting], ended_by: call }]
  recordings: { exactly: [{ call: c1, source: OutboundAPI, channels: 2, status: completed, duration: 1 }] }
`;
    // Trim's default on a call's create is trim-silence: the recording keeps the 500 ms greeting, 1 s billed.
    const result = await createSandboxCore().runScenario(yaml, { apps: { greeter: app.url("") } });
    expect(result.status, show(result)).toBe("passed");
  });

  it("a failing stream expectation names what differed, with the call's timeline", async () => {
    const app = await start(greeterApp);
    const wrong = streamScenario
      .replace("marks: [greeting]", "marks: [welcome]")
      .replace("played: 500ms", "played: 1s");
    const result = await createSandboxCore().runScenario(trim(wrong), { apps: { greeter: app.url("") } });
    expect(result.status).toBe("failed");
    const [failure] = result.failures;
    expect(failure?.path).toBe("expect.streams.exactly.0");
    expect(failure?.message).toBe(
      'streams[0] does not match: marks[0] is "greeting", expected "welcome"; played is 500, expected 1000',
    );
    expect(failure?.call?.timeline.some((line) => line.includes("stream.mark"))).toBe(true);
  });

  it("an ordered streams list that finds nothing says what the closest stream had", async () => {
    const app = await start(greeterApp);
    const wrong = streamScenario
      .replace("    exactly:\n      - call: c1\n", "    - call: c1\n")
      .replace(/\n {8}/g, "\n      ");
    const result = await createSandboxCore().runScenario(trim(wrong.replace('dtmf: "1"', 'dtmf: "9"')), {
      apps: { greeter: app.url("") },
    });
    expect(result.failures[0]?.message, show(result)).toMatch(
      /^streams\[0\] not found: 1 candidate, none matches .*; the closest differs: dtmf is "1", expected "9"$/,
    );
  });

  it("an app that drops the socket mid-scenario is reported: the alert, and the caller steps that never happened", async () => {
    const app = await start(() =>
      startStreamApp((message, connection) => {
        if (message.event === "start") connection.socket.terminate();
      }),
    );
    const result = await createSandboxCore().runScenario(trim(streamScenario), {
      apps: { greeter: app.url("") },
    });
    expect(result.status).toBe("failed");
    const messages = result.failures.map((f) => `${f.path}: ${f.message}`);
    expect(messages).toContain(
      "steps.1.speak: call c1: this caller step never happened: the call ended completed at +0.000s first",
    );
    expect(messages).toContain(
      "steps.2.press: call c1: this caller step never happened: the call ended completed at +0.000s first",
    );
    expect(messages.some((m) => /^alerts: unexpected alert 31903 /.test(m))).toBe(true);
  });

  it("an app that closes cleanly at once ends the stream; the scenario reports the steps left, it does not wait", async () => {
    const app = await start(() =>
      startStreamApp((message, connection) => {
        if (message.event === "start") connection.socket.close(1000);
      }),
    );
    const result = await createSandboxCore().runScenario(trim(streamScenario), {
      apps: { greeter: app.url("") },
    });
    expect(result.status).toBe("failed");
    expect(result.failures.map((f) => f.path)).toEqual([
      "steps.1.speak",
      "steps.2.press",
      "expect.streams.exactly.0",
    ]);
    expect(result.simulatedMs).toBeLessThan(1000);
  });

  it("a scenario whose app the run does not give is skipped, saying which", async () => {
    const result = await createSandboxCore().runScenario(trim(streamScenario));
    expect(result).toMatchObject({
      status: "skipped",
      skipReason: "needs the URL of app greeter (the apps option, --app name=ws://...)",
    });
  });

  it("a run that gives an app something other than a WebSocket URL is an error, not a stalled call", async () => {
    const result = await createSandboxCore().runScenario(trim(streamScenario), {
      apps: { greeter: "http://127.0.0.1:1" },
    });
    expect(result).toMatchObject({
      status: "error",
      error:
        "apps: greeter=http://127.0.0.1:1: not a ws:// or wss:// URL (give each app as name=ws://host:port)",
    });
  });
});

describe("scenario files naming WebSocket apps: load errors", () => {
  const problems = (yaml: string) => {
    try {
      parseScenario(yaml, "mine.yaml");
    } catch (error) {
      return (error as Error).message;
    }
    return "loaded";
  };
  const withVoice = (voice: string, apps = "apps: { greeter: null }\n") =>
    `name: x\n${apps}numbers:\n  - number: "+14155550100"\n    voice: '${voice}'\n`;

  it("an app URL that is not ws:// or wss://", () => {
    expect(problems(withVoice("<Response/>", 'apps: { greeter: "http://127.0.0.1:3002" }\n'))).toBe(
      "mine.yaml:2:18: apps.greeter: must be a ws:// or wss:// URL such as ws://127.0.0.1:3002 (the WebSocket server of your agent)",
    );
  });

  it("a placeholder naming no app", () => {
    expect(
      problems(withVoice('<Response><Connect><Stream url="{apps.echo}/media"/></Connect></Response>')),
    ).toBe(
      "mine.yaml:5:12: numbers.0.voice: {apps.echo} names no app: list it under apps (its URL, or null for the run to give)",
    );
  });

  it("a relative or non-WebSocket URL on <Stream> or <ConversationRelay>", () => {
    expect(problems(withVoice('<Response><Connect><Stream url="/media"/></Connect></Response>'))).toMatch(
      /numbers\.0\.voice: <Stream url>: the WebSocket URL "\/media" is relative: inline markup is served by the scenario itself/,
    );
    expect(
      problems(
        withVoice(
          '<Response><Connect><ConversationRelay url="ftp://example.com/relay"/></Connect></Response>',
        ),
      ),
    ).toMatch(/<ConversationRelay url>: "ftp:\/\/example.com\/relay" is not a ws:\/\/ or wss:\/\/ URL/);
  });

  it("the caller's agent cue is checked", () => {
    const yaml = `name: x\nnumbers:\n  - number: "+14155550100"\n    voice: <Response/>\nsteps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100" }\n  - speak: { call: c1, text: hi }\n    on: { agent: silent }\n`;
    expect(problems(yaml)).toMatch(
      /steps\.1\.on: must be \{ verb: Gather, nth: 1 \}, \{ agent: talking \}, \{ agent: \{ said: "words" \} \}, \{ agent: \{ said: \{ pattern: "regex", flags: i \} \} \} or \{ agent: \{ mark: name \} \}/,
    );
  });
});

describe.each(doorNames)("POST /__sandbox/scenarios with apps (%s)", (door) => {
  const ctx = useDoor(door);
  let greeter: StreamApp;
  let agent: StreamApp;
  beforeAll(async () => {
    [greeter, agent] = await Promise.all([greeterApp(), relayApp()]);
  });
  afterAll(async () => {
    await Promise.all([greeter.close(), agent.close()]);
  });
  const post = (body: string, query: string) =>
    ctx.call("POST", `/__sandbox/scenarios?${query}`, {
      body,
      headers: { "content-type": "application/yaml" },
    });

  it("?app=name=url gives the scenario its media-stream app", async () => {
    const res = await post(trim(streamScenario), `app=${encodeURIComponent(`greeter=${greeter.url("")}`)}`);
    expect(res.status).toBe(200);
    expect(res.json.status, JSON.stringify(res.json.failures, null, 1)).toBe("passed");
  });

  it("and its ConversationRelay app; live=true plays it in the server's sandbox", async () => {
    const res = await post(
      trim(relayScenario),
      `live=true&app=${encodeURIComponent(`agent=${agent.url("")}`)}`,
    );
    expect(res.json.status, JSON.stringify(res.json.failures, null, 1)).toBe("passed");
    const calls = await ctx.twilioClient().calls.list();
    expect(calls.map((c) => c.sid)).toEqual([res.json.calls.c1]);
  });

  it("an app that is not name=ws://... is a 400 naming the parameter", async () => {
    const res = await post(trim(streamScenario), "app=greeter");
    expect(res.status).toBe(400);
    expect(res.text).toContain("must be name=ws://host:port");
  });
});
