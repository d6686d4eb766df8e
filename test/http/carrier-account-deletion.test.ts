// Deleting a carrier account removes its numbers, credentials and call history (spec), in one change, through both doors.
import { describe, expect, it } from "vitest";
import { recordTtsEvent } from "../../src/engine/billing/tts-events.js";
import { createCallRecord } from "../../src/engine/calls/calls.js";
import { sendMessage } from "../../src/engine/messaging/messages.js";
import { document } from "../support/carrier.js";
import { doorNames, useDoor } from "../support/doors.js";
import { carrierAuth, fixtures } from "../support/fixtures.js";

describe.each(doorNames)("carrier account deletion via %s", (door) => {
  const ctx = useDoor(door);
  const post = (path: string, json: unknown) => ctx.call("POST", path, { auth: carrierAuth, json });

  it("removes the account's records and frees its trunk, leaving other accounts alone", async () => {
    const acme = `/carrier/v1/accounts/${fixtures.acme.sid}`;
    const engine = ctx.sandbox.engine;
    const mainNumber = ctx.sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!.sid;
    const agent = (await post(`${acme}/agent_extensions`, document("agent_extension", { agent_name: "Ada" })))
      .json.data.id;
    await post(
      `${acme}/ring_groups`,
      document(
        "ring_group",
        { name: "Support" },
        { relationships: { agent_extensions: { data: [{ type: "agent_extension", id: agent }] } } },
      ),
    );
    const trunk = (
      await post(
        "/carrier/v1/sip_trunks",
        document(
          "sip_trunk",
          { name: "Acme PBX", termination_uris: ["sip:pbx.acme.example"] },
          {
            relationships: {
              account: { data: { type: "account", id: fixtures.acme.sid } },
              phone_numbers: { data: [{ type: "phone_number", id: mainNumber }] },
            },
          },
        ),
      )
    ).json.data.id;
    const call = createCallRecord(engine, {
      accountSid: fixtures.acme.sid,
      direction: "inbound",
      from: "+15005550006",
      to: fixtures.acme.mainNumber,
    });
    sendMessage(engine, {
      accountSid: fixtures.acme.sid,
      from: fixtures.acme.mainNumber,
      to: "+14155550123",
      body: "hi",
    });
    recordTtsEvent(engine, {
      accountSid: fixtures.acme.sid,
      callSid: call.sid,
      voice: "Basic.Kal",
      characters: 5,
    });
    const globexCall = createCallRecord(engine, {
      accountSid: fixtures.globex.sid,
      direction: "inbound",
      from: "+15005550006",
      to: "+14155550102",
    });

    const res = await ctx.call("DELETE", acme, { auth: carrierAuth });
    expect(res.status).toBe(200);

    const store = ctx.sandbox.store;
    for (const table of [
      store.calls,
      store.messages,
      store.recordings,
      store.transcriptions,
      store.agentExtensions,
      store.ringGroups,
      store.ttsEvents,
      store.ledger,
      store.apiKeys,
    ]) {
      expect(table.where("account", fixtures.acme.sid)).toEqual([]);
    }
    expect(store.calls.get(globexCall.sid)).toBeDefined();
    expect(store.ledger.where("account", fixtures.globex.sid)).toHaveLength(1);

    const freed = await ctx.call("GET", `/carrier/v1/sip_trunks/${trunk}`, { auth: carrierAuth });
    expect(freed.json.data.attributes).toMatchObject({ account_id: null, phone_number_ids: [] });
    expect((await ctx.call("GET", `/carrier/v1/phone_calls/${call.sid}`, { auth: carrierAuth })).status).toBe(
      404,
    );
    expect((await ctx.call("GET", `${acme}/balances`, { auth: carrierAuth })).status).toBe(404);
    const events = await ctx.call(
      "GET",
      `/carrier/v1/events?filter[account_id]=${fixtures.acme.sid}&filter[type]=account.deleted`,
      {
        auth: carrierAuth,
      },
    );
    expect(events.json.meta.total).toBe(1);
  });
});
