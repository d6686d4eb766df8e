// WhatsApp on webhooks: an inbound message posts Twilio's WhatsApp parameters, and the app's reply goes back on WhatsApp.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const json = { "content-type": "application/json" };
const sender = `whatsapp:${fixtures.acme.mainNumber}`;
const user = "whatsapp:+15558675310";

describe("WhatsApp webhooks", () => {
  const h = useEngine();

  it("posts From/To as whatsapp: addresses with WaId and ProfileName, and sends the app's reply on WhatsApp", async () => {
    const registered = await h.door.call("PATCH", `/__sandbox/accounts/${fixtures.acme.sid}/settings`, {
      json: { whatsapp_senders: [fixtures.acme.mainNumber] },
      headers: json,
    });
    expect(registered.status).toBe(200);
    await h.routeMainNumberSms("/sms");
    h.app.on("/sms", new twilio.twiml.MessagingResponse().message("Thanks, Ada").toString());
    const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: { from: user, to: sender, body: "Hi", profile_name: "Ada" },
      headers: json,
    });
    expect(res.status).toBe(201);
    await h.run();
    const [posted] = h.app.received("/sms");
    expect(posted!.params).toMatchObject({
      From: user,
      To: sender,
      Body: "Hi",
      WaId: "15558675310",
      ProfileName: "Ada",
      SmsStatus: "received",
    });
    // Twilio sends no caller location for WhatsApp.
    expect(posted!.params.FromCountry).toBeUndefined();
    const replies = h.door.sandbox.store.messages
      .where("to", user)
      .filter((m) => m.direction === "outbound-reply");
    expect(replies.map((m) => [m.from, m.body, m.status])).toEqual([[sender, "Thanks, Ada", "delivered"]]);
  });
});
