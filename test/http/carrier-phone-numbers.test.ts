// Carrier API phone numbers (the inventory) through both doors: create, filters, update, release and removal.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { carrierAuth, fixtures } from "../support/fixtures.js";

const create = (attributes: Record<string, unknown>) => ({ data: { type: "phone_number", attributes } });

describe.each(doorNames)("carrier phone numbers via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());

  it("adds a number to the inventory with the spec's attributes", async () => {
    const res = await ctx.call("POST", "/carrier/v1/phone_numbers", {
      auth: carrierAuth,
      json: create({
        number: "+15035550100",
        visibility: "public",
        price: "1.25",
        region: "OR",
        locality: "Portland",
        rate_center: "PORTLAND",
        lata: "672",
        latitude: 45.52,
        longitude: -122.68,
        metadata: { batch: 7 },
      }),
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      type: "phone_number",
      id: expect.stringMatching(/^PN[0-9a-f]{32}$/),
      attributes: {
        number: "+15035550100",
        visibility: "public",
        country: "US",
        price: "1.25",
        region: "OR",
        locality: "Portland",
        rate_center: "PORTLAND",
        lata: "672",
        latitude: 45.52,
        longitude: -122.68,
        metadata: { batch: 7 },
        status: "available",
        account_id: null,
      },
      relationships: { account: { data: null } },
    });
  });

  it("filters by visibility, country, number and status", async () => {
    const get = async (query: string) =>
      (await ctx.call("GET", `/carrier/v1/phone_numbers?${query}`, { auth: carrierAuth })).json.data.map(
        (n: { attributes: { number: string } }) => n.attributes.number,
      );
    expect(await get("filter[country]=GB")).toEqual(["+442071838750", "+447700900123"]);
    expect(await get("filter[visibility]=private")).toEqual(["+14155550199"]);
    expect(await get("filter[number]=212555")).toEqual(["+12125550100"]);
    expect(await get("filter[status]=assigned")).toEqual([fixtures.acme.mainNumber]);
    expect(
      await get("filter[country]=US&filter[status]=available&filter[visibility]=public&per_page=2"),
    ).toEqual(["+14155550101", "+14155550102"]);
    const paged = await ctx.call("GET", "/carrier/v1/phone_numbers?filter[country]=US&per_page=2&page=1", {
      auth: carrierAuth,
    });
    expect(paged.json.links.next).toBe("/carrier/v1/phone_numbers?filter%5Bcountry%5D=US&page=2&per_page=2");
  });

  it("updates price, visibility and metadata, but never the number", async () => {
    const [first] = (
      await ctx.call("GET", "/carrier/v1/phone_numbers?filter[country]=KH", { auth: carrierAuth })
    ).json.data;
    const path = `/carrier/v1/phone_numbers/${first.id}`;
    const res = await ctx.call("PATCH", path, {
      auth: carrierAuth,
      json: {
        data: {
          type: "phone_number",
          id: first.id,
          attributes: { price: "2.50", visibility: "private", metadata: { x: 1 } },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.attributes).toMatchObject({
      price: "2.50",
      visibility: "private",
      metadata: { x: 1 },
    });
    const before = stateOf();
    const change = await ctx.call("PATCH", path, {
      auth: carrierAuth,
      json: { data: { type: "phone_number", id: first.id, attributes: { number: "+85599999999" } } },
    });
    expect(change.status).toBe(422);
    expect(change.json.errors[0].source.pointer).toBe("/data/attributes/number");
    expect(stateOf()).toBe(before);
  });

  it("releases an assigned number on DELETE, and removes an unassigned one", async () => {
    const [assigned] = (
      await ctx.call("GET", "/carrier/v1/phone_numbers?filter[status]=assigned", { auth: carrierAuth })
    ).json.data;
    const released = await ctx.call("DELETE", `/carrier/v1/phone_numbers/${assigned.id}`, {
      auth: carrierAuth,
    });
    expect(released.status).toBe(200);
    expect(released.json.data.attributes).toMatchObject({ status: "available", account_id: null });

    const removed = await ctx.call("DELETE", `/carrier/v1/phone_numbers/${assigned.id}`, {
      auth: carrierAuth,
    });
    expect(removed.status).toBe(200);
    expect(removed.json.meta).toEqual({ deleted: { type: "phone_number", id: assigned.id } });
    expect(
      (await ctx.call("GET", `/carrier/v1/phone_numbers/${assigned.id}`, { auth: carrierAuth })).status,
    ).toBe(404);
  });

  it("refuses duplicates, bad numbers, bad prices and bad filters, changing nothing", async () => {
    const before = stateOf();
    const duplicate = await ctx.call("POST", "/carrier/v1/phone_numbers", {
      auth: carrierAuth,
      json: create({ number: fixtures.available.us }),
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.json.errors[0].source.pointer).toBe("/data/attributes/number");
    for (const attributes of [
      { number: "4155550100" },
      { number: "+15035550100", price: "-1" },
      { number: "+15035550100", price: 1 },
    ]) {
      const res = await ctx.call("POST", "/carrier/v1/phone_numbers", {
        auth: carrierAuth,
        json: create(attributes),
      });
      expect(res.status).toBe(422);
    }
    const filter = await ctx.call("GET", "/carrier/v1/phone_numbers?filter[visibility]=secret", {
      auth: carrierAuth,
    });
    expect(filter.status).toBe(400);
    expect(filter.json.errors[0].source).toEqual({ parameter: "filter[visibility]" });
    const clientId = await ctx.call("POST", "/carrier/v1/phone_numbers", {
      auth: carrierAuth,
      json: { data: { type: "phone_number", id: "PN1", attributes: { number: "+15035550100" } } },
    });
    expect(clientId.status).toBe(403);
    expect(stateOf()).toBe(before);
  });
});
