// Participants added through the API, through both doors with the twilio client: a call that joins once answered.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const agent = "+15558675310";
const customer = "+15558675311";
const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/Conferences`;

describe.each(doorNames)("conference participants via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const client = () => ctx.twilioClient();
  /** Lets the dialled phones answer (at 3 s) and join, without running the rooms to their time limit. */
  const answer = () => ctx.sandbox.clock.advance(10_000).then(() => ctx.sandbox.settle());

  it("adds a participant by conference name: queued at once, in the room once its call is answered", async () => {
    const added = await client().conferences("Standup").participants.create({
      from: fixtures.acme.mainNumber,
      to: agent,
      label: "agent",
      muted: true,
      beep: "false",
    });
    expect(added).toMatchObject({ status: "queued", label: "agent", muted: true, hold: false });
    expect(added.callSid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(added.conferenceSid).toMatch(/^CF[0-9a-f]{32}$/);
    const call = await client().calls(added.callSid).fetch();
    expect([call.direction, call.from, call.to]).toEqual(["outbound-api", fixtures.acme.mainNumber, agent]);
    await answer();
    // Alone in the room: the conference waits for a second participant before it starts, as Twilio's do.
    const conference = await client().conferences(added.conferenceSid).fetch();
    expect([conference.friendlyName, conference.status]).toEqual(["Standup", "init"]);
    const present = await client().conferences(added.conferenceSid).participants.list();
    expect(present.map((p) => [p.callSid, p.label, p.muted, p.status])).toEqual([
      [added.callSid, "agent", true, "connected"],
    ]);
    expect((await client().conferences(added.conferenceSid).participants("agent").fetch()).callSid).toBe(
      added.callSid,
    );
  });

  it("adds a second participant to a running conference by its sid", async () => {
    const first = await client()
      .conferences("Support")
      .participants.create({ from: fixtures.acme.mainNumber, to: agent });
    await answer();
    const second = await client()
      .conferences(first.conferenceSid)
      .participants.create({ from: fixtures.acme.mainNumber, to: customer, endConferenceOnExit: true });
    expect(second.conferenceSid).toBe(first.conferenceSid);
    expect(second.endConferenceOnExit).toBe(true);
    await answer();
    const present = await client().conferences(first.conferenceSid).participants.list();
    expect(present.map((p) => p.callSid).sort()).toEqual([first.callSid, second.callSid].sort());
    expect((await client().conferences(first.conferenceSid).fetch()).status).toBe("in-progress");
    // The second leaves (ends its call): it had endConferenceOnExit, so the room ends.
    await client().calls(second.callSid).update({ status: "completed" });
    await ctx.sandbox.clock.advance(1000);
    await ctx.sandbox.settle();
    expect((await client().conferences(first.conferenceSid).fetch()).status).toBe("completed");
  });

  it("refuses bad requests with Twilio's codes and changes nothing", async () => {
    const before = stateOf();
    const post = (conference: string, form: Record<string, string>) =>
      ctx.call("POST", `${base}/${conference}/Participants.json`, { auth: acmeAuth, form });
    const ok = { From: fixtures.acme.mainNumber, To: agent };
    const codeOf = async (conference: string, form: Record<string, string>) => {
      const res = await post(conference, form);
      return [res.status, res.json.code];
    };
    expect(await codeOf(`CF${"0".repeat(32)}`, ok)).toEqual([404, 20404]);
    expect(await codeOf("Room", { From: fixtures.acme.mainNumber })).toEqual([400, 21201]);
    expect(await codeOf("Room", { To: agent })).toEqual([400, 21213]);
    expect(await codeOf("Room", { ...ok, To: "12345" })).toEqual([400, 21211]);
    expect(await codeOf("Room", { ...ok, From: "+14155550101" })).toEqual([400, 21210]);
    expect(await codeOf("Room", { ...ok, Beep: "loud" })).toEqual([400, 21200]);
    expect(await codeOf("Room", { ...ok, MaxParticipants: "1" })).toEqual([400, 21200]);
    expect(await codeOf("Room", { ...ok, Coaching: "true" })).toEqual([400, 21200]);
    expect(await codeOf("Room", { ...ok, ConferenceStatusCallback: "nope" })).toEqual([400, 21609]);
    expect(stateOf()).toBe(before);
  });
});
