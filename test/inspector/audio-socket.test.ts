// The inspector's audio WebSocket over a real socket: who may open it, frames both ways, and what it refuses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { wavFile } from "../../src/engine/recordings/recording-audio.js";
import { decodeWav } from "../../src/engine/speech/wav-decode.js";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type RunningInspector, startInspector } from "../../src/inspector/index.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { fixtures } from "../support/fixtures.js";
import { type StreamApp, type StreamMessage, startStreamApp } from "../support/stream-app.js";

const app = "https://app.example.test";
const token = "audio-admin-token";
const bearer = `voice-sandbox.bearer.${Buffer.from(token).toString("base64url")}`;
const caller = "+14155550142";

/** A loud 400 Hz tone, 20 ms of mu-law: the app's voice and the microphone's. */
function toneFrame(amplitude: number): Buffer {
  const frame = Buffer.alloc(160);
  for (let i = 0; i < 160; i++) {
    const s = Math.round(amplitude * Math.sin((2 * Math.PI * 400 * i) / 8000));
    frame[i] = encodeMulaw(s);
  }
  return frame;
}
function encodeMulaw(sample: number): number {
  const pcm = Math.min(32635, Math.abs(sample)) + 0x84;
  const sign = sample < 0 ? 0x80 : 0;
  let exponent = 7;
  for (let mask = 0x4000; (pcm & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  return ~(sign | (exponent << 4) | ((pcm >> (exponent + 3)) & 0x0f)) & 0xff;
}
const loud = (frame: Uint8Array) => frame.some((b) => b !== 0xff && b !== 0x7f);

/** Where the <Play> file is served, and the file: 2 s of a 523 Hz sine as 8 kHz PCM. */
const media = "https://media.example.test";
const songSamples = Int16Array.from({ length: 16_000 }, (_, i) =>
  Math.round(9000 * Math.sin((2 * Math.PI * 523 * i) / 8000)),
);
const song = wavFile([songSamples]);

interface Opened {
  socket: WebSocket;
  frames: Buffer[];
  /** The JSON messages (a phone's), parsed. */
  // biome-ignore lint/suspicious/noExplicitAny: the test reads the JSON messages the server sends.
  messages: any[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a socket and resolves once it is open (or rejects with the refused upgrade's status and body). */
function open(url: string, protocols: string[], headers: Record<string, string> = {}): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, { headers });
    const frames: Buffer[] = [];
    const messages: unknown[] = [];
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.on("close", (code, reason) => done({ code, reason: reason.toString() })),
    );
    socket.on("message", (data, isBinary) => {
      if (isBinary) frames.push(data as Buffer);
      else messages.push(JSON.parse(data.toString()));
    });
    socket.on("open", () => resolve({ socket, frames, messages, closed }));
    socket.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => reject(Object.assign(new Error(body), { status: res.statusCode, body })));
    });
    socket.on("error", (error) => reject(error));
  });
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
};

describe("the inspector's audio WebSocket", () => {
  let sandbox: Sandbox;
  let inspector: RunningInspector;
  let streamApp: StreamApp;
  let base = "";
  let talk = true;
  /** The call's markup when set; a <Connect><Stream> to the app otherwise. */
  let markup: string | null = null;

  beforeAll(async () => {
    // The app speaks a tone while `talk` is on, answering each caller frame with one of its own.
    streamApp = await startStreamApp((message: StreamMessage, connection) => {
      if (message.event !== "media" || !talk) return;
      connection.send({
        event: "media",
        streamSid: message.streamSid,
        media: { payload: toneFrame(8000).toString("base64") },
      });
    });
    sandbox = createSandbox({ adminToken: token, clock: "real" });
    const line = sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
    sandbox.store.phoneNumbers.replace({ ...line, voice_url: `${app}/voice` });
    sandbox.webhooks.register(
      `${app}/`,
      () => markup ?? `<Response><Connect><Stream url="${streamApp.url()}"/></Connect></Response>`,
    );
    sandbox.webhooks.register(`${media}/`, () => ({ headers: { "content-type": "audio/wav" }, body: song }));
    inspector = await startInspector(sandbox);
    base = inspector.url.replace(/^http/, "ws").replace(/\/__sandbox\/ui$/, "");
  });
  afterAll(async () => {
    await inspector.close();
    await streamApp.close();
    sandbox.clock.dispose();
  });

  const liveCall = async () => {
    const call = sandbox.calls.ring({ from: caller, to: fixtures.acme.mainNumber });
    await until(() => streamApp.messages("start").some((m) => m.start.callSid === call.sid));
    return call.sid;
  };
  const audioUrl = (sid: string) => `${base}/__sandbox/ui/api/calls/${sid}/audio`;

  it("carries what the caller hears to the browser and the microphone's frames to the media stream app", async () => {
    const sid = await liveCall();
    const line = await open(audioUrl(sid), ["voice-sandbox", bearer]);
    expect(line.socket.protocol).toBe("voice-sandbox");
    await until(() => line.frames.some(loud));
    expect(line.frames.every((f) => f.length === 160)).toBe(true);
    // One byte over and over: loud, and the same bytes wherever the stream's 20 ms fall within it.
    const mic = Buffer.alloc(160, 0x30);
    const sender = setInterval(() => line.socket.send(mic), 20);
    try {
      await until(() =>
        streamApp
          .messages("media")
          .some((m) => m.media.track === "inbound" && m.media.payload === mic.toString("base64")),
      );
    } finally {
      clearInterval(sender);
    }
    sandbox.calls.hangup(sid);
    expect((await line.closed).reason).toBe("the call is over");
  });

  it("goes quiet once the app stops talking", async () => {
    talk = true;
    const sid = await liveCall();
    const line = await open(audioUrl(sid), ["voice-sandbox", bearer]);
    await until(() => line.frames.some(loud));
    talk = false;
    const connection = streamApp.connections.at(-1)!;
    const streamSid = connection.messages.find((m) => m.event === "start")!.streamSid;
    connection.send({ event: "clear", streamSid });
    const from = line.frames.length;
    await until(() => line.frames.length > from + 25);
    // A few frames may still be in flight; the last ten are silence.
    expect(line.frames.slice(-10).some(loud)).toBe(false);
    sandbox.calls.hangup(sid);
    talk = true;
  });

  it("plays a <Play> file's own audio once the sandbox has fetched it", async () => {
    markup = `<Response><Play loop="10">${media}/song.wav</Play></Response>`;
    try {
      const call = sandbox.calls.ring({ from: caller, to: fixtures.acme.mainNumber });
      const line = await open(audioUrl(call.sid), ["voice-sandbox", bearer]);
      // Every frame of the file's audio is a run of its bytes; the tone played before the fetch is not.
      const file = Buffer.from(decodeWav(song)!);
      await until(() => line.frames.some((frame) => loud(frame) && file.indexOf(frame) >= 0));
      sandbox.calls.hangup(call.sid);
      await line.closed;
    } finally {
      markup = null;
    }
  });

  it("takes the admin token as a header from a tool", async () => {
    const sid = await liveCall();
    const line = await open(audioUrl(sid), [], { authorization: `Bearer ${token}` });
    line.socket.close();
    sandbox.calls.hangup(sid);
  });

  it("refuses a socket without the admin token (401) or with a wrong one (403)", async () => {
    const sid = await liveCall();
    await expect(open(audioUrl(sid), ["voice-sandbox"])).rejects.toMatchObject({ status: 401 });
    const wrong = `voice-sandbox.bearer.${Buffer.from("nope").toString("base64url")}`;
    await expect(open(audioUrl(sid), ["voice-sandbox", wrong])).rejects.toMatchObject({ status: 403 });
    sandbox.calls.hangup(sid);
  });

  it("refuses a page of another origin and a foreign Host name, with the admin API's messages", async () => {
    const sid = await liveCall();
    const other = open(audioUrl(sid), ["voice-sandbox", bearer], { origin: "https://evil.example" });
    await expect(other).rejects.toMatchObject({
      status: 403,
      body: expect.stringContaining("another origin"),
    });
    const foreign = open(audioUrl(sid), ["voice-sandbox", bearer], { host: "rebound.example:80" });
    await expect(foreign).rejects.toMatchObject({ status: 403 });
    sandbox.calls.hangup(sid);
  });

  it("answers 404 for a call that is not there and 400 for one that is over, before opening", async () => {
    await expect(open(audioUrl(`CA${"0".repeat(32)}`), ["voice-sandbox", bearer])).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      open(`${base}/__sandbox/ui/api/calls/nope/audio`, ["voice-sandbox", bearer]),
    ).rejects.toMatchObject({
      status: 404,
    });
    const sid = await liveCall();
    sandbox.calls.hangup(sid);
    await expect(open(audioUrl(sid), ["voice-sandbox", bearer])).rejects.toMatchObject({
      status: 400,
      body: expect.stringContaining("not a live call"),
    });
  });

  it("closes a socket that sends text or a partial frame (1003)", async () => {
    const sid = await liveCall();
    const line = await open(audioUrl(sid), ["voice-sandbox", bearer]);
    line.socket.send(Buffer.alloc(100, 0xff));
    const closed = await line.closed;
    expect(closed.code).toBe(1003);
    expect(closed.reason).toContain("160 bytes");
    sandbox.calls.hangup(sid);
  });
});

describe("the inspector's phone WebSocket", () => {
  let sandbox: Sandbox;
  let inspector: RunningInspector;
  let base = "";

  beforeAll(async () => {
    sandbox = createSandbox({ adminToken: token, clock: "real" });
    inspector = await startInspector(sandbox);
    base = inspector.url.replace(/^http/, "ws").replace(/\/__sandbox\/ui$/, "");
  });
  afterAll(async () => {
    await inspector.close();
    sandbox.clock.dispose();
  });

  const phoneUrl = (address: string) => `${base}/__sandbox/ui/api/phones/${encodeURIComponent(address)}`;
  const hold = (address: string) => open(phoneUrl(address), ["voice-sandbox", bearer]);
  const place = (to: string) =>
    sandbox.fetch(`${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        To: to,
        From: fixtures.acme.mainNumber,
        Twiml: "<Response><Say>Your table is ready</Say><Pause length='30'/></Response>",
      }).toString(),
    });

  it("rings the page for a call to the client it holds, and answers from it", async () => {
    const phone = await hold("client:alice");
    await until(() => phone.messages.some((m) => m.type === "holding"));
    const created = (await (await place("client:alice")).json()) as { sid: string };
    await until(() => phone.messages.some((m) => m.type === "ring"));
    expect(phone.messages.find((m) => m.type === "ring")).toMatchObject({
      callSid: created.sid,
      from: fixtures.acme.mainNumber,
      to: "client:alice",
    });
    expect(sandbox.store.calls.get(created.sid)!.status).toBe("ringing");
    phone.socket.send(JSON.stringify({ type: "answer", callSid: created.sid }));
    await until(() => sandbox.store.calls.get(created.sid)!.status === "in-progress");
    phone.socket.send(JSON.stringify({ type: "hangup", callSid: created.sid }));
    await until(() => phone.messages.some((m) => m.type === "ended" && m.status === "completed"));
    phone.socket.close();
  });

  it("rings for a <Dial><Client> to it, and the answered leg bridges to the caller", async () => {
    const line = sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
    sandbox.store.phoneNumbers.replace({ ...line, voice_url: `${app}/dial-dave` });
    sandbox.webhooks.register(
      `${app}/dial-dave`,
      () => "<Response><Dial><Client>dave</Client></Dial></Response>",
    );
    const phone = await hold("client:dave");
    await until(() => phone.messages.some((m) => m.type === "holding"));
    const parent = sandbox.calls.ring({ from: caller, to: fixtures.acme.mainNumber });
    await until(() => phone.messages.some((m) => m.type === "ring"));
    const ring = phone.messages.find((m) => m.type === "ring");
    expect(ring).toMatchObject({ to: "client:dave" });
    expect(sandbox.store.calls.get(ring.callSid)).toMatchObject({ parent_call_sid: parent.sid });
    phone.socket.send(JSON.stringify({ type: "answer", callSid: ring.callSid }));
    await until(() => phone.messages.some((m) => m.type === "answered"));
    expect(sandbox.store.calls.get(ring.callSid)!.status).toBe("in-progress");
    sandbox.calls.hangup(parent.sid);
    await until(() => phone.messages.some((m) => m.type === "ended"));
    phone.socket.close();
  });

  it("declines as busy with SIP 603", async () => {
    const phone = await hold("+14155550999");
    await until(() => phone.messages.some((m) => m.type === "holding"));
    const created = (await (await place("+14155550999")).json()) as { sid: string };
    await until(() => phone.messages.some((m) => m.type === "ring"));
    phone.socket.send(JSON.stringify({ type: "decline", callSid: created.sid }));
    await until(() => phone.messages.some((m) => m.type === "ended"));
    expect(sandbox.store.calls.get(created.sid)).toMatchObject({ status: "busy" });
    phone.socket.close();
  });

  it("lets one tab hold an address (409 for a second), refuses a bad one (400) and commands for other calls", async () => {
    const phone = await hold("client:bob");
    await until(() => phone.messages.some((m) => m.type === "holding"));
    await expect(open(phoneUrl("client:bob"), ["voice-sandbox", bearer])).rejects.toMatchObject({
      status: 409,
    });
    await expect(open(phoneUrl("bob"), ["voice-sandbox", bearer])).rejects.toMatchObject({ status: 400 });
    await expect(open(phoneUrl(fixtures.acme.mainNumber), ["voice-sandbox", bearer])).rejects.toMatchObject({
      status: 400,
    });
    await expect(open(phoneUrl("client:carol"), ["voice-sandbox"])).rejects.toMatchObject({ status: 401 });
    phone.socket.send(JSON.stringify({ type: "answer", callSid: `CA${"1".repeat(32)}` }));
    phone.socket.send("not json");
    await until(() => phone.messages.filter((m) => m.type === "error").length === 2);
    phone.socket.close();
    await phone.closed;
    // Released: another tab may hold it now.
    await until(() => !sandbox.calls.phones.held("client:bob"));
    (await hold("client:bob")).socket.close();
  });
});

describe("the audio WebSocket on the standalone server", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve({ port: 0, adminToken: token });
  });
  afterAll(async () => running.close());

  it("opens for a live call with the token, and refuses without it or from another origin", async () => {
    // A call that stays up: ringing, then a long pause.
    const created = await fetch(`${running.url}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        To: caller,
        From: fixtures.acme.mainNumber,
        Twiml: '<Response><Pause length="60"/></Response>',
      }),
    });
    const call = (await created.json()) as { sid: string };
    const url = `${running.url.replace(/^http/, "ws")}/__sandbox/ui/api/calls/${call.sid}/audio`;
    await expect(open(url, ["voice-sandbox"])).rejects.toMatchObject({ status: 401 });
    await expect(
      open(url, ["voice-sandbox", bearer], { origin: "https://evil.example" }),
    ).rejects.toMatchObject({
      status: 403,
    });
    const line = await open(url, ["voice-sandbox", bearer]);
    await until(() => line.frames.length > 3);
    line.socket.send(Buffer.alloc(160, 0x30));
    running.sandbox.calls.hangup(call.sid);
    expect((await line.closed).reason).toBe("the call is over");
  });

  it("answers 404 to an upgrade on a path that takes none", async () => {
    await expect(open(`${running.url.replace(/^http/, "ws")}/2010-04-01/Accounts`, [])).rejects.toMatchObject(
      {
        status: 404,
      },
    );
  });
});
