// Carrier phone number statistics through both doors: counts, monthly revenue by period and account, refusals.
import { describe, expect, it } from "vitest";
import { expectRefused } from "../support/carrier.js";
import { doorNames, useDoor } from "../support/doors.js";
import { carrierAuth, fixtures } from "../support/fixtures.js";

describe.each(doorNames)("carrier phone number stats via %s", (door) => {
  const ctx = useDoor(door);
  const stats = async (query = "") => {
    const res = await ctx.call("GET", `/carrier/v1/phone_numbers/stats${query}`, { auth: carrierAuth });
    expect(res.status).toBe(200);
    return res.json.data;
  };

  it("counts the inventory by status, visibility and country for this month by default", async () => {
    const data = await stats();
    expect(data).toMatchObject({ type: "phone_number_stats", id: "2026-01-01..2026-01-01" });
    expect(data.attributes).toEqual({
      from_date: "2026-01-01",
      to_date: "2026-01-01",
      account_id: null,
      total: 10,
      by_status: { available: 9, assigned: 1 },
      by_visibility: { public: 9, private: 1 },
      by_country: { GB: 2, KH: 1, US: 7 },
      monthly_revenue: [{ month: "2026-01", assigned_numbers: 1, revenue: "1.15" }],
      revenue: "1.15",
      currency: "USD",
    });
  });

  it("bills each month the prices of the numbers assigned by its end, per account", async () => {
    const store = ctx.sandbox.store.phoneNumbers;
    const second = store.findOne("number", fixtures.available.us)!;
    store.replace({
      ...second,
      status: "assigned",
      account_sid: fixtures.acme.sid,
      assigned_at: Date.UTC(2026, 1, 10),
    });
    const quarter = await stats("?from_date=2026-01-01&to_date=2026-03-15");
    expect(quarter.attributes.monthly_revenue).toEqual([
      { month: "2026-01", assigned_numbers: 1, revenue: "1.15" },
      { month: "2026-02", assigned_numbers: 2, revenue: "2.30" },
      { month: "2026-03", assigned_numbers: 2, revenue: "2.30" },
    ]);
    expect(quarter.attributes.revenue).toBe("5.75");

    const acme = await stats(`?from_date=2026-02-01&to_date=2026-02-28&account_id=${fixtures.acme.sid}`);
    expect(acme.attributes).toMatchObject({
      total: 2,
      by_status: { assigned: 2, available: 0 },
      revenue: "2.30",
    });
    const globex = await stats(`?from_date=2026-02-01&to_date=2026-02-28&account_id=${fixtures.globex.sid}`);
    expect(globex.attributes).toMatchObject({ total: 0, by_country: {}, revenue: "0.00" });
    // Before the inventory existed there was nothing to count or bill.
    const before = await stats("?from_date=2025-12-01&to_date=2025-12-31");
    expect(before.attributes).toMatchObject({ total: 0, revenue: "0.00" });
  });

  it("refuses bad periods and unknown parameters, changing nothing", async () => {
    const get = (query: string) => () =>
      ctx.call("GET", `/carrier/v1/phone_numbers/stats${query}`, { auth: carrierAuth });
    await expectRefused(ctx, get("?from_date=2026-03-01&to_date=2026-02-01"), 400, {
      source: { parameter: "to_date" },
    });
    await expectRefused(ctx, get("?from_date=2026-02-30"), 400, { source: { parameter: "from_date" } });
    await expectRefused(ctx, get("?from_date=2000-01-01&to_date=2026-01-01"), 400, {
      source: { parameter: "to_date" },
    });
    await expectRefused(ctx, get("?filter[country]=US"), 400, { source: { parameter: "filter[country]" } });
    await expectRefused(ctx, () => ctx.call("GET", "/carrier/v1/phone_numbers/stats"), 401);
  });
});
