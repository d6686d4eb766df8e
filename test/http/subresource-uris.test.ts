// Every `subresource_uris` entry an account API resource advertises is served: listed, it answers 200.
import { describe, expect, it } from "vitest";
import { insertCall, insertConference, insertRecording } from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

describe.each(doorNames)("subresource URIs via %s", (door) => {
  const ctx = useDoor(door);

  it("serves every subresource each resource lists", async () => {
    const call = insertCall(ctx.sandbox);
    const recording = insertRecording(ctx.sandbox, call);
    const conference = insertConference(ctx.sandbox);
    const message = await ctx.twilioClient().messages.create({
      to: "+15558675310",
      from: fixtures.acme.mainNumber,
      body: "hi",
    });
    const number = ctx.sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
    const resources = [
      `${base}.json`,
      `${base}/Calls/${call.sid}.json`,
      `${base}/Recordings/${recording.sid}.json`,
      `${base}/Conferences/${conference.sid}.json`,
      `${base}/Messages/${message.sid}.json`,
      `${base}/IncomingPhoneNumbers/${number.sid}.json`,
      `${base}/AvailablePhoneNumbers/US.json`,
    ];
    const checked: string[] = [];
    for (const path of resources) {
      const resource = await ctx.call("GET", path, { auth: acmeAuth });
      expect(resource.status, path).toBe(200);
      for (const uri of Object.values(resource.json.subresource_uris) as string[]) {
        expect((await ctx.call("GET", uri, { auth: acmeAuth })).status, uri).toBe(200);
        checked.push(uri);
      }
    }
    expect(checked.length).toBeGreaterThan(10);
  });
});
