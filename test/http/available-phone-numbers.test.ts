// Account API AvailablePhoneNumbers through both doors: countries, types and Twilio's search filters over the inventory.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/AvailablePhoneNumbers`;

describe.each(doorNames)("available phone numbers via %s", (door) => {
  const ctx = useDoor(door);

  it("lists countries with public, available numbers and their types", async () => {
    const countries = await ctx.twilioClient().availablePhoneNumbers.list();
    expect(countries.map((c) => c.countryCode)).toEqual(["GB", "KH", "US"]);
    const us = countries.find((c) => c.countryCode === "US")!;
    expect(us.country).toBe("United States");
    expect(Object.keys(us.subresourceUris).sort()).toEqual(["local", "toll_free"]);
    expect(us.subresourceUris.local).toBe(`${base}/US/Local.json`);
    const gb = await ctx.twilioClient().availablePhoneNumbers("GB").fetch();
    expect(Object.keys(gb.subresourceUris).sort()).toEqual(["local", "mobile"]);
  });

  it("searches local numbers by AreaCode, never offering assigned or private ones", async () => {
    const sf = await ctx.twilioClient().availablePhoneNumbers("US").local.list({ areaCode: 415 });
    expect(sf.map((n) => n.phoneNumber)).toEqual([fixtures.available.us, fixtures.available.us2]);
    expect(sf[0]).toMatchObject({
      friendlyName: "(415) 555-0101",
      locality: "San Francisco",
      region: "CA",
      isoCountry: "US",
      rateCenter: "SNFC CNTRL",
      lata: "722",
      addressRequirements: "none",
      beta: false,
    });
    expect(sf[0]!.capabilities).toEqual({ voice: true, SMS: true, MMS: true, fax: false });
  });

  it("applies Contains with * wildcards and letters, InRegion, InLocality, InLata and InRateCenter", async () => {
    const local = ctx.twilioClient().availablePhoneNumbers("US").local;
    expect((await local.list({ contains: "555010*" })).map((n) => n.phoneNumber)).toEqual([
      fixtures.available.us,
      fixtures.available.us2,
      fixtures.available.ny,
      "+13125550100",
    ]);
    // Letters dial as keypad digits: J is 5.
    expect((await local.list({ contains: "415JJJ0102" })).map((n) => n.phoneNumber)).toEqual([
      fixtures.available.us2,
    ]);
    expect((await local.list({ contains: "312***0100" })).map((n) => n.phoneNumber)).toEqual([
      "+13125550100",
    ]);
    expect(await local.list({ inRegion: "NY" })).toHaveLength(1);
    expect(await local.list({ inLocality: "chicago" })).toHaveLength(1);
    expect(await local.list({ inLata: "722" })).toHaveLength(2);
    expect(await local.list({ inRateCenter: "NWYRCYZN01" })).toHaveLength(1);
    expect(await local.list({ faxEnabled: true })).toHaveLength(0);
    expect(await local.list({ nearLatLong: "37.77,-122.41", distance: 50 })).toHaveLength(0);
  });

  it("serves TollFree and Mobile, pages, and 404s countries the carrier has no stock in", async () => {
    const client = ctx.twilioClient();
    expect((await client.availablePhoneNumbers("US").tollFree.list()).map((n) => n.phoneNumber)).toEqual([
      fixtures.available.tollFree,
    ]);
    expect(await client.availablePhoneNumbers("GB").mobile.list()).toHaveLength(1);
    const page = await client.availablePhoneNumbers("US").local.page({ pageSize: 2 });
    expect(page.instances).toHaveLength(2);
    expect((await page.nextPage())!.instances).toHaveLength(2);
    await expect(client.availablePhoneNumbers("ZZ").local.list()).rejects.toMatchObject({
      status: 404,
      code: 20404,
    });
    const bad = await ctx.call("GET", `${base}/US/Local.json?AreaCode=41`, { auth: acmeAuth });
    expect(bad.json).toMatchObject({ status: 400, code: 20422 });
  });

  it("stops offering a number once it is assigned", async () => {
    const carrier = ctx.twilioClient(fixtures.acme.sid, fixtures.carrierKey);
    await carrier.incomingPhoneNumbers.create({ phoneNumber: fixtures.available.us });
    const sf = await ctx.twilioClient().availablePhoneNumbers("US").local.list({ areaCode: 415 });
    expect(sf.map((n) => n.phoneNumber)).toEqual([fixtures.available.us2]);
  });
});
