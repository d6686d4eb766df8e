// Carrier balances through both doors: wallet, top-ups, debits, the ledger, refusals and concurrent changes.
import { describe, expect, it } from "vitest";
import { expectRefused } from "../support/carrier.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures } from "../support/fixtures.js";

const base = `/carrier/v1/accounts/${fixtures.acme.sid}/balances`;
const plain = { "content-type": "application/json" };

describe.each(doorNames)("carrier balances via %s", (door) => {
  const ctx = useDoor(door);
  const move = (kind: "top_up" | "debit", body: unknown, headers = plain) =>
    ctx.call("POST", `${base}/${kind}`, { auth: carrierAuth, json: body, headers });
  const balance = async () =>
    (await ctx.call("GET", base, { auth: carrierAuth })).json.data.attributes.balance_cents;

  it("starts from the fixture balance", async () => {
    const res = await ctx.call("GET", base, { auth: carrierAuth });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      type: "balance",
      id: fixtures.acme.sid,
      attributes: { account_id: fixtures.acme.sid, balance_cents: 10000, currency: "USD" },
      links: { self: base },
    });
  });

  it("tops up and debits, each a ledger transaction with its running balance", async () => {
    const top = await move("top_up", { category: "voice", amount_cents: 2500, description: "Invoice 42" });
    expect(top.status).toBe(201);
    expect(top.json.data).toMatchObject({
      type: "balance_transaction",
      attributes: {
        kind: "top_up",
        category: "voice",
        amount_cents: 2500,
        balance_cents: 12500,
        description: "Invoice 42",
      },
    });
    expect(top.headers.get("location")).toBe(`${base}/transactions/${top.json.data.id}`);

    const refund = await move("debit", { category: "sms", amount_cents: 500 });
    expect(refund.status).toBe(201);
    expect(refund.json.data.attributes).toMatchObject({
      kind: "debit",
      amount_cents: -500,
      balance_cents: 12000,
      description: null,
    });
    expect(await balance()).toBe(12000);

    const fetched = await ctx.call("GET", `${base}/transactions/${refund.json.data.id}`, {
      auth: carrierAuth,
    });
    expect(fetched.json.data.attributes.balance_cents).toBe(12000);
  });

  it("also takes the JSON:API media type for the bare body", async () => {
    const res = await move(
      "top_up",
      { category: "ai", amount_cents: 1 },
      { "content-type": "application/vnd.api+json" },
    );
    expect(res.status).toBe(201);
  });

  it("lists transactions newest first, by category, with limit and paging", async () => {
    await move("top_up", { category: "voice", amount_cents: 100 });
    await move("top_up", { category: "sms", amount_cents: 200 });
    await move("debit", { category: "voice", amount_cents: 50 });

    const all = await ctx.call("GET", `${base}/transactions`, { auth: carrierAuth });
    expect(
      all.json.data.map((t: { attributes: { amount_cents: number } }) => t.attributes.amount_cents),
    ).toEqual([-50, 200, 100, 10000]);
    expect(all.json.meta).toEqual({ total: 4, page: 0, per_page: 50, balance_cents: 10250 });

    const voice = await ctx.call("GET", `${base}/transactions?category=voice&limit=1`, { auth: carrierAuth });
    expect(
      voice.json.data.map((t: { attributes: { amount_cents: number } }) => t.attributes.amount_cents),
    ).toEqual([-50]);
    expect(voice.json.links.next).toBe(`${base}/transactions?category=voice&page=1&limit=1`);
    expect(voice.json.meta.total).toBe(2);
  });

  it("keeps the balance equal to the ledger's sum under many concurrent top-ups and debits", async () => {
    const requests = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0
        ? move("debit", { category: "voice", amount_cents: 7 })
        : move("top_up", { category: "voice", amount_cents: 11 }),
    );
    const results = await Promise.all(requests);
    expect(results.every((r) => r.status === 201)).toBe(true);
    const ledger = ctx.sandbox.store.ledger.all().filter((e) => e.account_sid === fixtures.acme.sid);
    expect(ledger).toHaveLength(61);
    const sum = ledger.reduce((total, e) => total + e.amount_cents, 0);
    expect(sum).toBe(10000 + 40 * 11 - 20 * 7);
    expect(await balance()).toBe(sum);
    // Every running balance follows from the one before it: nothing lost or applied twice.
    ledger.forEach((entry, i) => {
      const previous = i === 0 ? 0 : ledger[i - 1]!.balance_cents;
      expect(entry.balance_cents).toBe(previous + entry.amount_cents);
    });
  });

  it("records an event for each change", async () => {
    const top = await move("top_up", { category: "voice", amount_cents: 100 });
    const events = await ctx.call(
      "GET",
      `/carrier/v1/events?filter[type]=balance.top_up&filter[account_id]=${fixtures.acme.sid}`,
      { auth: carrierAuth },
    );
    const last = events.json.data.at(-1);
    expect(last.attributes).toMatchObject({
      event_type: "balance.top_up",
      resource_type: "balance_transaction",
    });
    expect(last.attributes.details.data).toMatchObject({ type: "balance_transaction", id: top.json.data.id });
  });

  describe("refusals leave the wallet unchanged", () => {
    const cases: [
      string,
      () => Promise<import("../support/doors.js").CallResult>,
      number,
      Record<string, unknown>,
    ][] = [
      ["no credentials", () => ctx.call("GET", base), 401, {}],
      [
        "account credentials",
        () =>
          ctx.call("POST", `${base}/top_up`, {
            auth: acmeAuth,
            json: { category: "voice", amount_cents: 1 },
            headers: plain,
          }),
        403,
        {},
      ],
      [
        "an unknown account",
        () =>
          ctx.call("POST", `/carrier/v1/accounts/${fixtures.unknownAccount}/balances/top_up`, {
            auth: carrierAuth,
            json: { category: "voice", amount_cents: 1 },
            headers: plain,
          }),
        404,
        {},
      ],
      [
        "a debit larger than the balance",
        () => move("debit", { category: "voice", amount_cents: 10001 }),
        422,
        { title: "Insufficient balance", source: { pointer: "/amount_cents" } },
      ],
      [
        "a zero amount",
        () => move("top_up", { category: "voice", amount_cents: 0 }),
        422,
        { source: { pointer: "/amount_cents" } },
      ],
      [
        "a negative amount",
        () => move("top_up", { category: "voice", amount_cents: -5 }),
        422,
        { source: { pointer: "/amount_cents" } },
      ],
      [
        "a fractional amount",
        () => move("debit", { category: "voice", amount_cents: 1.5 }),
        422,
        { source: { pointer: "/amount_cents" } },
      ],
      [
        "an amount as a string",
        () => move("top_up", { category: "voice", amount_cents: "100" }),
        422,
        { source: { pointer: "/amount_cents" } },
      ],
      [
        "a missing category",
        () => move("top_up", { amount_cents: 100 }),
        422,
        { source: { pointer: "/category" } },
      ],
      [
        "an unknown member",
        () => move("top_up", { category: "voice", amount_cents: 1, currency: "EUR" }),
        422,
        { source: { pointer: "/currency" } },
      ],
      [
        "a media type parameter",
        () =>
          move(
            "top_up",
            { category: "voice", amount_cents: 1 },
            { "content-type": "application/vnd.api+json; version=2" },
          ),
        415,
        {},
      ],
      [
        "a bad limit",
        () => ctx.call("GET", `${base}/transactions?limit=0`, { auth: carrierAuth }),
        400,
        { source: { parameter: "limit" } },
      ],
      [
        "an unknown query parameter",
        () => ctx.call("GET", `${base}/transactions?filter[kind]=debit`, { auth: carrierAuth }),
        400,
        { source: { parameter: "filter[kind]" } },
      ],
      [
        "another account's transaction",
        () =>
          ctx.call(
            "GET",
            `/carrier/v1/accounts/${fixtures.globex.sid}/balances/transactions/${ctx.sandbox.store.ledger.all()[0]!.sid}`,
            { auth: carrierAuth },
          ),
        404,
        {},
      ],
    ];
    it.each(cases)("refuses %s", async (_name, send, status, error) => {
      await expectRefused(ctx, send, status, error);
    });
  });
});
