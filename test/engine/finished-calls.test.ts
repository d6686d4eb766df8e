// Finished calls keep their timeline for the newest `finishedCallsKept` of them: older ones drop theirs, oldest first, while the calls themselves stay.
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";

const authorization = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;

describe("finished calls kept", () => {
  it("keeps the timeline of the newest finished calls only, dropping the oldest first", async () => {
    const sandbox = createSandbox({ finishedCallsKept: 2 });
    const calls = `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls`;
    const sids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await sandbox.fetch(`${calls}.json`, {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          To: "+15558675310",
          From: fixtures.acme.mainNumber,
          Twiml: "<Response><Say>Hello</Say></Response>",
        }),
      });
      expect(res.status).toBe(201);
      sids.push(((await res.json()) as { sid: string }).sid);
      // Each call ends before the next is placed, so they finish in order.
      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
    }
    const timeline = async (sid: string) => {
      const res = await sandbox.fetch(`${sandbox.baseUrl}/__sandbox/calls/${sid}/timeline`);
      expect(res.status).toBe(200);
      return ((await res.json()) as { timeline: { kind: string }[] }).timeline.map((e) => e.kind);
    };
    expect(await timeline(sids[0]!)).toEqual([]);
    expect(await timeline(sids[1]!)).toEqual([]);
    for (const sid of sids.slice(2)) expect(await timeline(sid)).toContain("call.created");
    // A finished call is not live, whether its runtime is still kept or not.
    for (const sid of [sids[0]!, sids[3]!]) {
      const input = await sandbox.fetch(`${sandbox.baseUrl}/__sandbox/calls/${sid}/input`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ press: "1" }),
      });
      expect(input.status).toBe(409);
    }
    // The calls themselves are records of the store, not of the engine: all still there.
    for (const sid of sids) {
      const res = await sandbox.fetch(`${calls}/${sid}.json`, { headers: { authorization } });
      expect(((await res.json()) as { status: string }).status).toBe("completed");
    }
  });

  it("still hears a finished leg on the second channel of a recording that outlives it, even keeping none", async () => {
    const sandbox = createSandbox({ finishedCallsKept: 0 });
    const placed = await sandbox.fetch(
      `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`,
      {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          To: "+15558675310",
          From: fixtures.acme.mainNumber,
          // The dialled leg ends first (it hangs up); the parent's dual recording is finished after it.
          Twiml:
            '<Response><Dial record="record-from-answer-dual"><Number>+14155550111</Number></Dial><Say>Goodbye</Say></Response>',
        }),
      },
    );
    expect(placed.status).toBe(201);
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    const recording = sandbox.store.recordings.all().find((r) => r.source === "DialVerb");
    expect(recording?.channels).toBe(2);
    const second = recording!.speech.filter((span) => span.channel === 2).map((span) => span.text);
    expect(second.join(" ")).toMatch(/\w/);
  });

  it("refuses a number of finished calls that is not a whole number, 0 or more", () => {
    expect(() => createSandbox({ finishedCallsKept: -1 })).toThrow(/whole number, 0 or more/);
    expect(() => createSandbox({ finishedCallsKept: 1.5 })).toThrow(/whole number, 0 or more/);
  });
});
