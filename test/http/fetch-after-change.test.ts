// A resource fetched again shows what changed since: an update through the API, and a status the clock moved on.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
const auth = { basic: [fixtures.acme.sid, fixtures.acme.authToken] as [string, string] };

describe.each(doorNames)("fetching a changed resource via %s", (door) => {
  const ctx = useDoor(door);

  it("shows an incoming number's new friendly name, and the same bytes when nothing changed", async () => {
    const list = await ctx.call("GET", `${base}/IncomingPhoneNumbers.json`, { auth });
    const path = `${base}/IncomingPhoneNumbers/${list.json.incoming_phone_numbers[0].sid}.json`;
    const first = await ctx.call("GET", path, { auth });
    expect((await ctx.call("GET", path, { auth })).text).toBe(first.text);

    const renamed = await ctx.call("POST", path, { auth, form: { FriendlyName: "Front desk" } });
    expect(renamed.status).toBe(200);
    const after = await ctx.call("GET", path, { auth });
    expect(after.json.friendly_name).toBe("Front desk");
    expect(after.text).toBe(renamed.text);
  });

  it("shows a message's status as delivery moves it on", async () => {
    const sent = await ctx.call("POST", `${base}/Messages.json`, {
      auth,
      form: { To: "+15558675310", From: fixtures.acme.mainNumber, Body: "Polling" },
    });
    const path = `${base}/Messages/${sent.json.sid}.json`;
    expect((await ctx.call("GET", path, { auth })).json.status).toMatch(/queued|sending/);
    await ctx.sandbox.clock.advance(5000);
    const delivered = await ctx.call("GET", path, { auth });
    expect(delivered.json.status).toBe("delivered");
    expect(delivered.json.price).not.toBeNull();
  });
});
