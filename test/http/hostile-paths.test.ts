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

  it("decodes a path parameter once: %2B is +, %252B is the text %2B (no number), %25 a percent sign (no number)", async () => {
    await ctx.call("PUT", "/__sandbox/numbers/%2B14155550100/behaviour", {
      json: { outcome: "busy" },
      headers: { "content-type": "application/json" },
    });
    const plus = await ctx.call("GET", "/__sandbox/numbers/%2B14155550100/behaviour");
    expect(plus.json).toMatchObject({ number: "+14155550100", behaviour: { outcome: "busy" } });
    const twice = await ctx.call("GET", "/__sandbox/numbers/%252B14155550100/behaviour");
    expect(twice.status).toBe(400);
    expect(twice.json.error).toMatchObject({
      parameter: "Number",
      message: expect.stringContaining('"%2B14155550100"'),
    });
    const percent = await ctx.call("GET", "/__sandbox/numbers/%25/behaviour");
    expect(percent.status).toBe(400);
    expect(percent.json.error.message).toMatch(/Number "%" in the path must be an E\.164 number/);
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])(
    "a number named %s is refused with a 400 naming the parameter, on reads and writes alike",
    async (name) => {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const res = await ctx.call(method, `/__sandbox/numbers/${name}/behaviour`, {
          ...(method === "PUT"
            ? { json: { outcome: "busy" }, headers: { "content-type": "application/json" } }
            : {}),
        });
        expect(res.status, method).toBe(400);
        expect(res.json.error.parameter, method).toBe("Number");
      }
      expect(ctx.sandbox.calls.party(name).outcome).toBe("answer");
    },
  );
});
