// Admin path parameters are checked as the account and carrier APIs check theirs: every admin route that takes one
// declares its schema (taken from the route table), and a value that is no sid, number or id is a 400 naming it;
// names of Object's members are parameters like any other.
import { describe, expect, it } from "vitest";
import { routes } from "../../src/http/routes.js";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

const namesOf = (path: string) => [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
const withParams = routes.filter((route) => route.surface === "admin" && namesOf(route.path).length > 0);
const named = withParams.map((route) => `${route.method} ${route.path}`);

/** A well-formed value of each parameter, so that only the one under test is wrong. */
const good: Record<string, string> = {
  AccountSid: fixtures.acme.sid,
  Extension: "101",
  KeySid: fixtures.acme.readKey.sid,
  CallSid: `CA${"0".repeat(32)}`,
  Number: fixtures.acme.mainNumber,
  Sid: `TR${"0".repeat(32)}`,
  Outcome: "complete",
  FaultId: "fault_1",
  DeliveryId: `WH${"0".repeat(32)}`,
  RecordingSid: `RE${"0".repeat(32)}`,
};
const hostile = ["%25", "constructor", "__proto__", "toString", "..%2F..%2Fstate"];

describe("the admin route table's path parameters", () => {
  it("are each declared with a schema naming every parameter of the path", () => {
    expect(named.length).toBeGreaterThan(10);
    for (const route of withParams) {
      const where = `${route.method} ${route.path}`;
      expect(route.params, where).toBeDefined();
      const sample = Object.fromEntries(namesOf(route.path).map((name) => [name, good[name]!]));
      expect(route.params!.safeParse(sample).success, where).toBe(true);
      for (const name of namesOf(route.path))
        expect(
          route.params!.safeParse({ ...sample, [name]: "constructor" }).success,
          `${where} ${name}`,
        ).toBe(false);
    }
  });
});

describe.each(doorNames)("admin path parameters via %s", (door) => {
  const ctx = useDoor(door);

  it.each(named)("%s answers 400 naming the parameter for a value that is none", async (name) => {
    const route = withParams[named.indexOf(name)]!;
    const before = JSON.stringify(ctx.sandbox.snapshot());
    for (const param of namesOf(route.path)) {
      for (const value of hostile) {
        const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_whole, each: string) =>
          each === param ? value : encodeURIComponent(good[each]!),
        );
        const res = await ctx.call(route.method, path, {
          ...(route.method === "GET" ? {} : { body: "{}", headers: { "content-type": "application/json" } }),
        });
        expect(res.status, `${path}`).toBe(400);
        expect(res.json.error, path).toMatchObject({ status: 400, parameter: param });
        expect(res.json.error.message, path).toContain(`${param} "`);
      }
    }
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
  });

  it.each(["__proto__", "constructor"])(
    "names a query parameter called %s as the one not supported, not a member of Object",
    async (name) => {
      for (const path of ["/__sandbox/requests", "/__sandbox/webhooks"]) {
        const res = await ctx.call("GET", `${path}?${name}=1`);
        expect(res.status, path).toBe(400);
        expect(res.json.error.parameter, path).toBe(name);
      }
    },
  );

  it("still takes a client and a SIP address as a number to script", async () => {
    for (const number of ["client:alice", "sip:alice@pbx.example.test"]) {
      const path = `/__sandbox/numbers/${encodeURIComponent(number)}/behaviour`;
      const put = await ctx.call("PUT", path, {
        json: { outcome: "busy" },
        headers: { "content-type": "application/json" },
      });
      expect(put.status, number).toBe(200);
      expect((await ctx.call("GET", path)).json).toMatchObject({ number, behaviour: { outcome: "busy" } });
      expect((await ctx.call("DELETE", path)).status, number).toBe(204);
    }
  });
});
