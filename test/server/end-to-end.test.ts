// The standalone sandbox used only over HTTP, as a Docker user would: provision, ring, webhooks, recordings, ledger, restart.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import twilio from "twilio";
import { afterAll, describe, expect, it } from "vitest";
import { type CliProcess, exited, startServe } from "../support/cli-process.js";
import { type CustomerApp, startCustomerApp } from "../support/customer-app.js";
import { fixtures } from "../support/fixtures.js";

const jsonApi = {
  authorization: `Bearer ${fixtures.carrierKey}`,
  "content-type": "application/vnd.api+json",
};
const json = { "content-type": "application/json" };

describe("the standalone sandbox end to end, over HTTP only", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "vs-e2e-"));
  let server: CliProcess | undefined;
  let app: CustomerApp | undefined;
  afterAll(async () => {
    server?.child.kill("SIGKILL");
    await app?.close();
  });

  it("provisions a number, rings it, delivers signed webhooks, keeps the recording, transcript and ledger across a restart", {
    timeout: 60_000,
  }, async () => {
    app = await startCustomerApp();
    const customer = app;
    customer.on(
      "/voice",
      `<Response><Say>Leave a message after the tone</Say><Record action="${customer.url("/recorded")}" timeout="3" transcribe="true" transcribeCallback="${customer.url("/transcribed")}"/></Response>`,
    );
    customer.on("/recorded", "<Response><Hangup/></Response>");

    server = startServe(["--port", "0", "--data-dir", dataDir, "--clock", "virtual"]);
    let url = await server.listening;
    const post = (path: string, body: unknown, headers: Record<string, string> = jsonApi) =>
      fetch(url + path, { method: "POST", headers, body: JSON.stringify(body) });

    // The carrier sets up an account with credit and a number.
    const account = await (
      await post("/carrier/v1/accounts", { data: { type: "account", attributes: { name: "Hooli" } } })
    ).json();
    const accountSid: string = account.data.id;
    const { auth_token: authToken } = await (
      await fetch(`${url}/__sandbox/accounts/${accountSid}/credentials`)
    ).json();
    expect(
      (
        await post(`/carrier/v1/accounts/${accountSid}/balances/top_up`, {
          category: "voice",
          amount_cents: 500,
        })
      ).status,
    ).toBe(201);
    const number = "+15035550142";
    expect(
      (await post("/carrier/v1/phone_numbers", { data: { type: "phone_number", attributes: { number } } }))
        .status,
    ).toBe(201);
    const asCarrier = twilio(accountSid, fixtures.carrierKey);
    asCarrier.api.baseUrl = url;
    await asCarrier.incomingPhoneNumbers.create({
      phoneNumber: number,
      voiceUrl: customer.url("/voice"),
      statusCallback: customer.url("/status"),
    });

    // Someone calls it and leaves a message.
    const ring = await post(
      "/__sandbox/calls/inbound",
      {
        from: "+14155559876",
        to: number,
        caller: {
          steps: [
            { on: { verb: "Record" }, after: "1s", say: "Please call me back about my order", for: "3s" },
          ],
        },
      },
      json,
    );
    expect(ring.status).toBe(201);
    const callSid: string = (await ring.json()).sid;
    expect((await post("/__sandbox/clock/run_until_idle", {}, json)).status).toBe(200);

    // The customer's app got every webhook, each signed so that the twilio package accepts it.
    const received = customer.received();
    // The transcript is ready a little after the call ends, as with the real service.
    expect(received.map((r) => r.path)).toEqual(["/voice", "/recorded", "/status", "/transcribed"]);
    for (const request of received) {
      expect(
        twilio.validateRequest(
          authToken,
          request.signature ?? "",
          customer.url(request.path),
          request.params,
        ),
      ).toBe(true);
    }
    expect(customer.received("/transcribed")[0]!.params).toMatchObject({
      TranscriptionStatus: "completed",
      TranscriptionText: "Please call me back about my order",
      CallSid: callSid,
    });
    expect(customer.received("/status")[0]!.params).toMatchObject({
      CallStatus: "completed",
      CallSid: callSid,
    });

    const check = async () => {
      const client = twilio(accountSid, authToken);
      client.api.baseUrl = url;
      const [call] = await client.calls.list();
      expect(call).toMatchObject({ sid: callSid, status: "completed", direction: "inbound" });
      const [recording] = await client.recordings.list();
      expect(recording).toMatchObject({ callSid, status: "completed" });
      const fetched = await client.recordings(recording!.sid).fetch();
      expect(Number(fetched.duration)).toBeGreaterThanOrEqual(3);
      const raw = await (
        await fetch(`${url}/2010-04-01/Accounts/${accountSid}/Recordings/${recording!.sid}.json`, {
          headers: { authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}` },
        })
      ).json();
      expect(raw).toMatchObject({
        transcription_status: "completed",
        transcription_text: "Please call me back about my order",
      });
      const audio = await fetch(`${url}/2010-04-01/Accounts/${accountSid}/Recordings/${recording!.sid}.mp3`, {
        headers: { authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}` },
      });
      expect(audio.status).toBe(200);
      expect(audio.headers.get("content-type")).toBe("audio/mpeg");
      const ledger = await (
        await fetch(`${url}/carrier/v1/accounts/${accountSid}/balances/transactions`, { headers: jsonApi })
      ).json();
      const kinds = ledger.data.map(
        (t: { attributes: { kind: string; category: string } }) =>
          `${t.attributes.kind}:${t.attributes.category}`,
      );
      expect(kinds).toContain("top_up:voice");
      expect(kinds).toContain("charge:voice");
      const balance = await (
        await fetch(`${url}/carrier/v1/accounts/${accountSid}/balances`, { headers: jsonApi })
      ).json();
      const sum = ledger.data.reduce(
        (total: number, t: { attributes: { amount_cents: number } }) => total + t.attributes.amount_cents,
        0,
      );
      expect(balance.data.attributes.balance_cents).toBe(sum);
      return { balance: balance.data.attributes.balance_cents as number, recordingSid: recording!.sid };
    };
    const before = await check();

    // A graceful restart on the same data directory finds everything still there.
    server.child.kill("SIGTERM");
    expect(await exited(server.child)).toBe(0);
    server = startServe(["--port", "0", "--data-dir", dataDir, "--clock", "virtual"]);
    url = await server.listening;
    expect(await check()).toEqual(before);
  });
});
