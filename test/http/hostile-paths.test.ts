// Inputs that once answered 500: a date that is no date, a percent sign in a path, a number named like a prototype member.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { carrierAuth } from "../support/fixtures.js";

describe.each(doorNames)("hostile paths and queries via %s", (door) => {
  const ctx = useDoor(door);

  it.each(["2026-13-01", "2026-02-31", "9999-99-99"])(
    "phone number stats refuse from_date=%s with a 400 naming the parameter",
    async (date) => {
      const res = await ctx.call("GET", `/carrier/v1/phone_numbers/stats?from_date=${date}`, {
        auth: carrierAuth,
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json.errors)).toContain("from_date");
    },
  );

  it("decodes a path parameter once: %25 is a percent sign, %252B is the text %2B and not +", async () => {
    const percent = await ctx.call("GET", "/__sandbox/numbers/%25/behaviour");
    expect(percent.status).toBe(200);
    expect(percent.json.number).toBe("%");
    await ctx.call("PUT", "/__sandbox/numbers/%2B14155550100/behaviour", {
      json: { outcome: "busy" },
      headers: { "content-type": "application/json" },
    });
    const plus = await ctx.call("GET", "/__sandbox/numbers/%2B14155550100/behaviour");
    expect(plus.json).toMatchObject({ number: "+14155550100", behaviour: { outcome: "busy" } });
    const twice = await ctx.call("GET", "/__sandbox/numbers/%252B14155550100/behaviour");
    expect(twice.json.number).toBe("%2B14155550100");
    expect(twice.json.behaviour.outcome).toBe("answer");
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])(
    "a number named %s has the default behaviour",
    async (name) => {
      const res = await ctx.call("GET", `/__sandbox/numbers/${name}/behaviour`);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ number: name, behaviour: { outcome: "answer" } });
    },
  );
});
