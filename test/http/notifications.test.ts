// Notifications through both doors with the twilio client: the alerts a call raised, under the call and the account.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures, globexAuth } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

describe.each(doorNames)("notifications via %s", (door) => {
  const ctx = useDoor(door);
  const client = () => ctx.twilioClient();
  const settle = async () => {
    await ctx.sandbox.clock.runUntilIdle();
    await ctx.sandbox.settle();
  };
  /** A call whose markup raises warning 12200 (<Pay> is skipped), and one whose markup is invalid (error 12200). */
  const twoCalls = async () => {
    const warned = await client().calls.create({
      to: "+15558675310",
      from: fixtures.acme.mainNumber,
      twiml: "<Response><Pay/><Say>Hello</Say></Response>",
    });
    const failed = await client().calls.create({
      to: "+15558675311",
      from: fixtures.acme.mainNumber,
      twiml: "<Response><Bogus/></Response>",
    });
    await settle();
    return { warned, failed };
  };

  it("calls(sid).notifications.list() lists what the call raised, and each can be fetched", async () => {
    const { warned, failed } = await twoCalls();
    const [warning] = await client().calls(warned.sid).notifications.list();
    expect(warning).toMatchObject({
      accountSid: fixtures.acme.sid,
      callSid: warned.sid,
      errorCode: "12200",
      log: "1",
      apiVersion: "2010-04-01",
      moreInfo: "https://www.twilio.com/docs/errors/12200",
      uri: `${base}/Calls/${warned.sid}/Notifications/${warning!.sid}.json`,
    });
    expect(warning!.sid).toMatch(/^NO[0-9a-f]{32}$/);
    expect(new URLSearchParams(warning!.messageText).get("ErrorCode")).toBe("12200");
    const fetched = await client().calls(warned.sid).notifications(warning!.sid).fetch();
    expect(fetched.sid).toBe(warning!.sid);
    const errorsOfFailed = await client().calls(failed.sid).notifications.list();
    expect(errorsOfFailed.map((n) => [n.errorCode, n.log])).toContainEqual(["12200", "0"]);
  });

  it("the account's Notifications list holds every call's, newest first, with the Log and MessageDate filters", async () => {
    const { warned, failed } = await twoCalls();
    const all = await client().notifications.list();
    expect(all.map((n) => n.callSid)).toEqual([
      ...all.filter((n) => n.callSid === failed.sid).map(() => failed.sid),
      warned.sid,
    ]);
    expect((await client().notifications.list({ log: 1 })).map((n) => n.callSid)).toEqual([warned.sid]);
    expect((await client().notifications.list({ log: 0 })).every((n) => n.callSid === failed.sid)).toBe(true);
    const today = new Date(ctx.sandbox.clock.now());
    expect(await client().notifications.list({ messageDate: today })).toHaveLength(all.length);
    expect(await client().notifications.list({ messageDateBefore: new Date(Date.UTC(2000, 0, 1)) })).toEqual(
      [],
    );
    const [newest] = all;
    expect((await client().notifications(newest!.sid).fetch()).uri).toBe(
      `${base}/Notifications/${newest!.sid}.json`,
    );
    const page = await ctx.call("GET", `${base}/Notifications.json?Log=1&PageSize=1`, { auth: acmeAuth });
    expect(page.json).toMatchObject({
      page_size: 1,
      uri: `${base}/Notifications.json?Log=1&PageSize=1&Page=0`,
    });
  });

  it("fails as Twilio does: another account's and unknown sids 404, a bad Log 400, an unknown call 404", async () => {
    const { warned } = await twoCalls();
    const [warning] = await client().calls(warned.sid).notifications.list();
    const globexBase = `/2010-04-01/Accounts/${fixtures.globex.sid}`;
    const other = await ctx.call("GET", `${globexBase}/Notifications/${warning!.sid}.json`, {
      auth: globexAuth,
    });
    expect([other.status, other.json.code]).toEqual([404, 20404]);
    const listed = await ctx.call("GET", `${globexBase}/Notifications.json`, { auth: globexAuth });
    expect(listed.json.notifications).toEqual([]);
    const unknown = await ctx.call("GET", `${base}/Notifications/NO00000000000000000000000000000000.json`, {
      auth: acmeAuth,
    });
    expect([unknown.status, unknown.json.code]).toEqual([404, 20404]);
    const badLog = await ctx.call("GET", `${base}/Notifications.json?Log=2`, { auth: acmeAuth });
    expect([badLog.status, badLog.json.code]).toEqual([400, 20422]);
    const badDate = await ctx.call("GET", `${base}/Notifications.json?MessageDate=yesterday`, {
      auth: acmeAuth,
    });
    expect(badDate.status).toBe(400);
    const noCall = await ctx.call(
      "GET",
      `${base}/Calls/CA00000000000000000000000000000000/Notifications.json`,
      {
        auth: acmeAuth,
      },
    );
    expect([noCall.status, noCall.json.code]).toEqual([404, 20404]);
    const wrongCall = await ctx.call("GET", `${base}/Calls/${warned.sid}/Notifications/NO0.json`, {
      auth: acmeAuth,
    });
    expect(wrongCall.status).toBe(404);
  });
});
