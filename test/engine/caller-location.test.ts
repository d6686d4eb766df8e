// Caller location on webhooks: inventory numbers carry their own data, others what the number itself says.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const json = { "content-type": "application/json" };
const boston = "+16175551212";

describe("caller location on voice and SMS webhooks", () => {
  const h = useEngine();
  const carrier = (method: string, path: string, body?: unknown) =>
    h.door.call(method, `/carrier/v1${path}`, {
      auth: { bearer: fixtures.carrierKey },
      ...(body ? { json: body } : {}),
      headers: { "content-type": "application/vnd.api+json" },
    });

  /** Boston caller in the inventory; the main number placed in Mill Valley, CA 94965 through the carrier API. */
  const placeNumbers = async () => {
    const created = await carrier("POST", "/phone_numbers", {
      data: {
        type: "phone_number",
        attributes: { number: boston, region: "MA", locality: "Boston", postal_code: "02101" },
      },
    });
    expect(created.status).toBe(201);
    const main = await carrier(
      "GET",
      `/phone_numbers?filter[number]=${encodeURIComponent(fixtures.acme.mainNumber)}`,
    );
    const id = main.json.data[0].id as string;
    const patched = await carrier("PATCH", `/phone_numbers/${id}`, {
      data: {
        type: "phone_number",
        id,
        attributes: { region: "CA", locality: "Mill Valley", postal_code: "94965" },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data.attributes).toMatchObject({ postal_code: "94965", locality: "Mill Valley" });
  };

  it("an inbound call from a placed number carries From, To, Caller and Called locations", async () => {
    await placeNumbers();
    await h.routeMainNumber("/voice", { statusCallback: h.app.url("/status") });
    h.app.on("/voice", new twilio.twiml.VoiceResponse().say("Hi").toString());
    const res = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: boston, to: fixtures.acme.mainNumber },
      headers: json,
    });
    expect(res.status).toBe(201);
    await h.run();
    const from = { City: "BOSTON", State: "MA", Zip: "02101", Country: "US" };
    const to = { City: "MILL VALLEY", State: "CA", Zip: "94965", Country: "US" };
    const expected = (prefix: string, place: Record<string, string>) =>
      Object.fromEntries(Object.entries(place).map(([k, v]) => [`${prefix}${k}`, v]));
    const location = {
      ...expected("From", from),
      ...expected("Caller", from),
      ...expected("To", to),
      ...expected("Called", to),
    };
    expect(h.app.received("/voice")[0]!.params).toMatchObject(location);
    expect(h.app.received("/status")[0]!.params).toMatchObject(location);
  });

  it("an inbound SMS from a placed number carries From and To locations", async () => {
    await placeNumbers();
    await h.routeMainNumberSms("/sms");
    const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: { from: boston, to: fixtures.acme.mainNumber, body: "Hi" },
      headers: json,
    });
    expect(res.status).toBe(201);
    await h.run();
    const params = h.app.received("/sms")[0]!.params;
    expect(params).toMatchObject({
      FromCity: "BOSTON",
      FromState: "MA",
      FromZip: "02101",
      FromCountry: "US",
      ToCity: "MILL VALLEY",
      ToState: "CA",
      ToZip: "94965",
      ToCountry: "US",
    });
    expect(params).not.toHaveProperty("CallerCity");
  });

  it("numbers outside the inventory get what their number says, and empty values for the rest", async () => {
    await h.routeMainNumberSms("/sms");
    const send = (from: string) =>
      h.door.call("POST", "/__sandbox/messages/inbound", {
        json: { from, to: fixtures.acme.mainNumber, body: "Hi" },
        headers: json,
      });
    await send("+13125550123");
    await send("+14165550123");
    await send("+447911123456");
    await h.run();
    const location = (i: number) => {
      const p = h.app.received("/sms")[i]!.params;
      return [p.FromCity, p.FromState, p.FromZip, p.FromCountry];
    };
    expect(location(0)).toEqual(["CHICAGO", "IL", "", "US"]);
    expect(location(1)).toEqual(["TORONTO", "ON", "", "CA"]);
    expect(location(2)).toEqual(["", "", "", "GB"]);
  });
});
