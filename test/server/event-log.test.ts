// The server's event log at info: a line per call status change, message status, recording, transcription and webhook; none at warn.
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exited, startServe } from "../support/cli-process.js";
import { fixtures } from "../support/fixtures.js";
import { type LocalServer, listenLocally } from "../support/local-server.js";

let receiver: LocalServer;
beforeAll(async () => {
  receiver = await listenLocally(createServer((_req, res) => res.writeHead(204).end()));
});
afterAll(() => receiver.close());

const auth = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
const form = { authorization: auth, "content-type": "application/x-www-form-urlencoded" };

/** Starts the server at a log level, makes a call that records and a message, plays them out, and returns the log lines. */
async function playTraffic(logLevel: string): Promise<{ msg: string; level: number }[]> {
  // At warn the listening line is not printed: the port comes from the port file.
  const portFile = join(await mkdtemp(join(tmpdir(), "event-log-")), "port");
  const server = startServe([
    ...["--port", "0", "--clock", "virtual", "--log-level", logLevel, "--log-format", "json"],
    ...["--port-file", portFile],
  ]);
  let port = "";
  while (!port) {
    port = await readFile(portFile, "utf8").then(
      (text) => text.trim(),
      () => "",
    );
    if (!port) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const base = `http://127.0.0.1:${port}`;
  try {
    const account = `${base}/2010-04-01/Accounts/${fixtures.acme.sid}`;
    const status = `${receiver.base}/status`;
    const call = await fetch(`${account}/Calls.json`, {
      method: "POST",
      headers: form,
      body: new URLSearchParams({
        From: "+14155550100",
        To: "+15558675310",
        Twiml: '<Response><Record maxLength="5" transcribe="true"/></Response>',
        StatusCallback: status,
      }),
    });
    expect(call.status).toBe(201);
    const message = await fetch(`${account}/Messages.json`, {
      method: "POST",
      headers: form,
      body: new URLSearchParams({
        From: "+14155550100",
        To: "+15558675310",
        Body: "Hi",
        StatusCallback: status,
      }),
    });
    expect(message.status).toBe(201);
    const idle = await fetch(`${base}/__sandbox/clock/run_until_idle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(idle.status).toBe(200);
  } finally {
    server.child.kill("SIGTERM");
    await exited(server.child);
  }
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg: string; level: number });
}

describe("the event log", () => {
  it("at info, says what happened, one line each, in order", async () => {
    const lines = (await playTraffic("info")).map((l) => l.msg);
    const call = (status: string) =>
      new RegExp(`^call CA\\w+ outbound-api \\+14155550100 -> \\+15558675310: ${status}$`);
    const message = (status: string) =>
      new RegExp(`^message SM\\w+ outbound-api \\+14155550100 -> \\+15558675310: ${status}$`);
    for (const pattern of [call("queued"), call("ringing"), call("in-progress"), call("completed")])
      expect(
        lines.some((l) => pattern.test(l)),
        String(pattern),
      ).toBe(true);
    for (const pattern of [message("queued"), message("sent"), message("delivered")])
      expect(
        lines.some((l) => pattern.test(l)),
        String(pattern),
      ).toBe(true);
    expect(lines.some((l) => /^recording RE\w+ of call CA\w+: completed \(\d+ s\)$/.test(l))).toBe(true);
    expect(lines.some((l) => /^transcription TR\w+ of recording RE\w+: (completed|failed)$/.test(l))).toBe(
      true,
    );
    expect(
      lines.some(
        (l) =>
          l.startsWith(`webhook POST ${receiver.base}/status (CallSid=`) &&
          l.endsWith("CallStatus=completed) -> 204"),
      ),
    ).toBe(true);
    expect(lines.some((l) => l.includes("MessageStatus=delivered) -> 204"))).toBe(true);
    // A status is told once, however often the record is updated.
    expect(lines.filter((l) => call("completed").test(l))).toHaveLength(1);
  });

  it("at warn, says none of it", async () => {
    const lines = await playTraffic("warn");
    expect(lines.filter((l) => /^(call|message|recording|transcription|webhook) /.test(l.msg))).toEqual([]);
  });
});
