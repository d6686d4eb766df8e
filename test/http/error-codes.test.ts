// Account API errors carry Twilio's error codes: by the parameter at fault, then by the resource, never a bare HTTP status.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const account = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

describe.each(doorNames)("account API error codes via %s", (door) => {
  const ctx = useDoor(door);
  const place = (extra: Record<string, unknown>) =>
    ctx.twilioClient().calls.create({
      to: "+15558675310",
      from: fixtures.acme.mainNumber,
      url: "https://app.example.com/voice",
      ...extra,
    });

  it("names the Twilio code of each bad call parameter, as the twilio client reports it", async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ statusCallback: "nope" }, 21609],
      [{ method: "PUT" }, 21209],
      [{ statusCallbackMethod: "DELETE" }, 21209],
      [{ statusCallbackEvent: ["sometimes"] }, 21626],
      [{ fallbackUrl: "ftp://app.example.com" }, 21205],
      [{ timeout: "soon" }, 21200],
      [{ to: "not a number" }, 21211],
    ];
    for (const [extra, code] of cases) {
      await expect(place(extra), JSON.stringify(extra)).rejects.toMatchObject({
        status: 400,
        code,
        moreInfo: `https://www.twilio.com/docs/errors/${code}`,
      });
    }
  });

  it("gives phone-number handlers their own codes and other resources 20422", async () => {
    const client = ctx.twilioClient();
    const [number] = await client.incomingPhoneNumbers.list();
    await expect(client.incomingPhoneNumbers(number!.sid).update({ voiceUrl: "nope" })).rejects.toMatchObject(
      {
        code: 21402,
      },
    );
    await expect(
      client.incomingPhoneNumbers(number!.sid).update({ voiceMethod: "PATCH" as "GET" }),
    ).rejects.toMatchObject({ code: 21403 });
    await expect(client.queues.create({ friendlyName: "support", maxSize: -1 })).rejects.toMatchObject({
      status: 400,
      code: 20422,
    });
    await expect(client.calls.list({ status: "sleeping" as "queued" })).rejects.toMatchObject({
      status: 400,
      code: 21200,
    });
  });

  it("never answers a code below 10000, whatever the failure", async () => {
    const failures = await Promise.all([
      ctx.call("GET", `${account}/Calls.json?PageSize=-3`, { auth: acmeAuth }),
      ctx.call("GET", `${account}/Messages.json?Page=x`, { auth: acmeAuth }),
      ctx.call("POST", `${account}/Calls.json`, {
        auth: acmeAuth,
        body: "{}",
        headers: { "content-type": "application/json" },
      }),
      ctx.call("POST", `${account}/Queues.json`, {
        auth: acmeAuth,
        form: { FriendlyName: "q", MaxSize: "big" },
      }),
      ctx.call("POST", `${account}/Messages.json`, {
        auth: acmeAuth,
        form: { To: "+15558675310", From: fixtures.acme.mainNumber, Body: "hi", StatusCallback: "nope" },
      }),
      ctx.call("POST", `${account}/Calls/CA00000000000000000000000000000000.json`, {
        auth: acmeAuth,
        form: { Status: "sleeping" },
      }),
      ctx.call("POST", `${account}/Calls.json`, { auth: acmeAuth, body: "x".repeat(2_000_000) }),
    ]);
    for (const failure of failures) {
      expect(failure.status, failure.text).toBeGreaterThanOrEqual(400);
      expect(failure.json.code, failure.text).toBeGreaterThanOrEqual(10_000);
      expect(failure.json.more_info).toBe(`https://www.twilio.com/docs/errors/${failure.json.code}`);
    }
    expect(failures.map((f) => f.json.code)).toEqual([21200, 20422, 21200, 20422, 21609, 21200, 21200]);
  });
});
