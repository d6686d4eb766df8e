// Recordings and transcriptions are charged from the carrier's recording and transcription rates: price, ledger, usage.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { carrierAuth, fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const callee = "+14155550123";

describe("recording and transcription charges", () => {
  const h = useEngine();
  const addRate = (category: string, price: string) =>
    h.door.call("POST", "/carrier/v1/rates", {
      auth: carrierAuth,
      json: { data: { type: "rate", attributes: { category, country: "US", prefix: "+1", price } } },
    });
  const recordACall = async (seconds: number) => {
    h.door.sandbox.calls.setParty(callee, {
      steps: [{ say: "Please call me back tomorrow", for: `${seconds}s` }],
    });
    const r = new VoiceResponse();
    r.record({
      action: "/recorded",
      timeout: 2,
      maxLength: 3600,
      transcribe: true,
      transcribeCallback: "/transcribed",
    });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    await h.door
      .twilioClient()
      .calls.create({ to: callee, from: fixtures.acme.mainNumber, url: h.app.url("/answer") });
    await h.run();
    return h.app.received("/recorded")[0]!.params.RecordingSid!;
  };

  it("prices a recording per started minute and a completed transcription, in the ledger and usage records", async () => {
    expect((await addRate("recording", "0.0025")).status).toBe(201);
    expect((await addRate("transcription", "0.05")).status).toBe(201);
    const rates = await h.door.call("GET", "/carrier/v1/rates?filter[category]=recording", {
      auth: carrierAuth,
    });
    expect(rates.json.data[0].attributes).toMatchObject({ category: "recording", unit: "minute" });

    const recordingSid = await recordACall(70);
    const client = h.door.twilioClient();
    const recording = await client.recordings(recordingSid).fetch();
    expect(Number(recording.duration)).toBeGreaterThan(60);
    // Two started minutes at $0.0025.
    expect(recording).toMatchObject({ price: "-0.00500", priceUnit: "USD" });
    const [transcription] = await client.transcriptions.list();
    expect(transcription).toMatchObject({ status: "completed", price: -0.1 });

    const ledger = h.door.sandbox.store.ledger.where("account", fixtures.acme.sid);
    const charges = ledger.filter(
      (e) => e.resource_sid === recordingSid || e.resource_sid === transcription!.sid,
    );
    // Cents are rounded up per charge: half a cent is a cent, ten cents stay ten.
    expect(charges.map((e) => [e.category, e.amount_cents])).toEqual([
      ["recording", -1],
      ["transcription", -10],
    ]);
    const usage = await client.usage.records.list();
    expect(usage.find((r) => r.category === "recordings")).toMatchObject({
      count: "1",
      usage: "2",
      usageUnit: "minutes",
    });
    expect(usage.find((r) => r.category === "transcriptions")).toMatchObject({
      count: "1",
      usage: "2",
      price: 0.1,
    });
  });

  it("leaves recordings and transcriptions unpriced and uncharged where no rate applies", async () => {
    const recordingSid = await recordACall(3);
    const client = h.door.twilioClient();
    expect((await client.recordings(recordingSid).fetch()).price).toBeNull();
    expect((await client.transcriptions.list())[0]!.price).toBeNull();
    const categories = h.door.sandbox.store.ledger.where("account", fixtures.acme.sid).map((e) => e.category);
    expect(categories).not.toContain("recording");
    expect(categories).not.toContain("transcription");
  });
});
