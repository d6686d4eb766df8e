// Cookies as Twilio keeps them: for the rest of a call, and per SMS number pair for four hours at most.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { useEngine } from "../engine/harness.js";
import { fixtures } from "../support/fixtures.js";

const json = { "content-type": "application/json" };
const caller = "+14155559876";
const hours = 60 * 60 * 1000;

describe("webhook cookies", () => {
  const h = useEngine();

  const text = async (from: string) => {
    const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: { from, to: fixtures.acme.mainNumber, body: "Hi" },
      headers: json,
    });
    expect(res.status).toBe(201);
    await h.run();
  };
  /** Counts messages in a cookie, as Twilio's conversation tutorial does. */
  const countingReceiver = (extra = "") => {
    h.app.on("/sms", (_params, request) => {
      const count = Number(/count=(\d+)/.exec(request.cookie ?? "")?.[1] ?? 0) + 1;
      return {
        status: 200,
        body: "<Response/>",
        headers: { "set-cookie": `count=${count}${extra}` },
      };
    });
  };
  const cookiesSeen = () => h.app.received("/sms").map((r) => r.cookie ?? null);

  it("a cookie set on a call's first fetch comes back on its later fetches and callbacks, not on another call", async () => {
    await h.routeMainNumber("/voice", { statusCallback: h.app.url("/status") });
    h.app.on("/voice", () => ({
      status: 200,
      body: new twilio.twiml.VoiceResponse().redirect(h.app.url("/next")).toString(),
      headers: { "set-cookie": ["session=abc; Path=/; HttpOnly", "step=1"] },
    }));
    h.app.on("/next", new twilio.twiml.VoiceResponse().say("Hello again").toString());
    const ring = () =>
      h.door.call("POST", "/__sandbox/calls/inbound", {
        json: { from: caller, to: fixtures.acme.mainNumber },
        headers: json,
      });
    const first = await ring();
    await h.run();
    expect(h.app.received("/voice")[0]!.cookie).toBeUndefined();
    expect(h.app.received("/next")[0]!.cookie).toBe("session=abc; step=1");
    expect(h.app.received("/status")[0]!.cookie).toBe("session=abc; step=1");

    await ring();
    await h.run();
    expect(h.app.received("/voice")[1]!.cookie).toBeUndefined();

    // The webhook log shows what was sent and what was set.
    const log = await h.door.call("GET", `/__sandbox/webhooks?call_sid=${first.json.sid}`);
    const fetches = log.json.deliveries.map(
      (d: { url: string; cookie: string | null; set_cookies: string[] }) => [
        new URL(d.url).pathname,
        d.cookie,
        d.set_cookies.length,
      ],
    );
    expect(fetches).toEqual([
      ["/voice", null, 2],
      ["/next", "session=abc; step=1", 0],
      ["/status", "session=abc; step=1", 0],
    ]);
  });

  it("SMS cookies are kept per number pair, sent on the pair's next message and gone after four virtual hours", async () => {
    await h.routeMainNumberSms("/sms");
    countingReceiver("; Max-Age=86400"); // asks for a day; Twilio keeps four hours at most
    await text(caller);
    await text(caller);
    await text("+14155550000"); // another pair: its own conversation
    await h.door.sandbox.clock.advance(3 * hours);
    await text(caller);
    await h.door.sandbox.clock.advance(4 * hours + 1000);
    await text(caller);
    expect(cookiesSeen()).toEqual([null, "count=1", null, "count=2", null]);
  });

  it("a shorter expiry than four hours is kept, and a reset clears every cookie", async () => {
    await h.routeMainNumberSms("/sms");
    countingReceiver("; Max-Age=60");
    await text(caller);
    await h.door.sandbox.clock.advance(30_000);
    await text(caller);
    await h.door.sandbox.clock.advance(61_000);
    await text(caller);
    expect(cookiesSeen()).toEqual([null, "count=1", null]);

    await text(caller); // count=1 is set again
    h.door.sandbox.reset();
    h.app.clear();
    await h.routeMainNumberSms("/sms");
    countingReceiver();
    await text(caller);
    expect(cookiesSeen()).toEqual([null]);
  });
});
