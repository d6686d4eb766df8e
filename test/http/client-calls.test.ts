// Voice SDK clients as call parties, through both doors with the twilio client: calls to client:alice, scripted clients, <Dial><Client>.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const say = "<Response><Say>Hello there</Say></Response>";

describe.each(doorNames)("client calls via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const client = () => ctx.twilioClient();
  const settle = async () => {
    await ctx.sandbox.clock.runUntilIdle();
    await ctx.sandbox.settle();
  };

  it("calls a client identity, which answers like an unscripted phone", async () => {
    const call = await client().calls.create({
      to: "client:alice",
      from: fixtures.acme.mainNumber,
      twiml: say,
    });
    expect([call.to, call.status]).toEqual(["client:alice", "queued"]);
    await settle();
    const done = await client().calls(call.sid).fetch();
    expect(done.status).toBe("completed");
    expect(ctx.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Hello there"]);
  });

  it("lets a test script a client as it scripts a number", async () => {
    const scripted = await ctx.call(
      "PUT",
      `/__sandbox/numbers/${encodeURIComponent("client:bob")}/behaviour`,
      {
        json: { outcome: "busy" },
        headers: { "content-type": "application/json" },
      },
    );
    expect(scripted.status).toBe(200);
    const call = await client().calls.create({ to: "client:bob", from: "client:support", twiml: say });
    expect(call.from).toBe("client:support");
    await settle();
    expect((await client().calls(call.sid).fetch()).status).toBe("busy");
  });

  it("rings a client from <Dial><Client>, as a child leg to client:alice", async () => {
    const parent = await client().calls.create({
      to: "+15558675310",
      from: fixtures.acme.mainNumber,
      twiml: "<Response><Dial><Client>alice</Client></Dial></Response>",
    });
    await settle();
    const legs = await client().calls.list({ parentCallSid: parent.sid });
    expect(legs.map((leg) => [leg.to, leg.direction, leg.status])).toEqual([
      ["client:alice", "outbound-dial", "completed"],
    ]);
  });

  it("calls a SIP address that one of the account's SIP trunks reaches, and refuses one no trunk reaches", async () => {
    const before = stateOf();
    await expect(
      client().calls.create({ to: "sip:alice@pbx.acme.example", from: fixtures.acme.mainNumber, twiml: say }),
    ).rejects.toMatchObject({ status: 400, code: 21211 });
    expect(stateOf()).toBe(before);
    const trunk = await ctx.call("POST", "/carrier/v1/sip_trunks", {
      auth: { bearer: fixtures.carrierKey },
      json: {
        data: {
          type: "sip_trunk",
          attributes: { name: "Acme PBX", termination_uris: ["sip:pbx.acme.example:5060"] },
          relationships: { account: { data: { type: "account", id: fixtures.acme.sid } } },
        },
      },
      headers: { "content-type": "application/vnd.api+json" },
    });
    expect(trunk.status).toBe(201);
    const call = await client().calls.create({
      to: "sip:alice@pbx.acme.example",
      from: fixtures.acme.mainNumber,
      twiml: say,
    });
    await settle();
    expect((await client().calls(call.sid).fetch()).status).toBe("completed");
  });

  it("refuses a client caller ID towards a phone number, and malformed identities, changing nothing", async () => {
    const before = stateOf();
    const post = async (form: Record<string, string>) => {
      const res = await ctx.call("POST", `/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
        auth: acmeAuth,
        form: { Twiml: say, ...form },
      });
      return [res.status, res.json.code];
    };
    expect(await post({ From: "client:alice", To: "+15558675310" })).toEqual([400, 21210]);
    expect(await post({ From: fixtures.acme.mainNumber, To: "client:" })).toEqual([400, 21211]);
    expect(await post({ From: fixtures.acme.mainNumber, To: "client:two words" })).toEqual([400, 21211]);
    expect(await post({ From: "client:", To: "client:alice" })).toEqual([400, 21212]);
    expect(stateOf()).toBe(before);
  });
});
