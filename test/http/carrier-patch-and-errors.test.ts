// Carrier API, JSON:API 1.1 through both doors: PATCH of relationships alone on every resource, and each error's own code.
import { describe, expect, it } from "vitest";
import { insertCall } from "../support/account-records.js";
import { document, expectRefused } from "../support/carrier.js";
import { type DoorContext, doorNames, useDoor } from "../support/doors.js";
import { carrierAuth, fixtures } from "../support/fixtures.js";

/** One row of every resource the carrier may PATCH: its type and instance path. */
async function patchable(ctx: DoorContext): Promise<{ type: string; path: string }[]> {
  const post = async (path: string, body: unknown) => {
    const res = await ctx.call("POST", path, { auth: carrierAuth, json: body });
    expect(res.status, res.text).toBe(201);
    return res.json.data.id as string;
  };
  const extensions = `/carrier/v1/accounts/${fixtures.acme.sid}/agent_extensions`;
  const agent = await post(extensions, document("agent_extension", { agent_name: "Ada" }));
  const groups = `/carrier/v1/accounts/${fixtures.acme.sid}/ring_groups`;
  const group = await post(groups, document("ring_group", { name: "Support" }));
  const rate = await post(
    "/carrier/v1/rates",
    document("rate", { category: "voice", country: "US", prefix: "+1415", price: "0.0100" }),
  );
  const trunk = await post("/carrier/v1/sip_trunks", document("sip_trunk", { name: "PBX" }));
  const message = await ctx
    .twilioClient()
    .messages.create({ to: "+15558675310", from: fixtures.acme.mainNumber, body: "hi" });
  const call = insertCall(ctx.sandbox);
  const number = ctx.sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
  return [
    { type: "account", path: `/carrier/v1/accounts/${fixtures.acme.sid}` },
    { type: "agent_extension", path: `${extensions}/${agent}` },
    { type: "message", path: `/carrier/v1/messages/${message.sid}` },
    { type: "phone_call", path: `/carrier/v1/phone_calls/${call.sid}` },
    { type: "phone_number", path: `/carrier/v1/phone_numbers/${number.sid}` },
    { type: "rate", path: `/carrier/v1/rates/${rate}` },
    { type: "ring_group", path: `${groups}/${group}` },
    { type: "sip_trunk", path: `/carrier/v1/sip_trunks/${trunk}` },
  ];
}

const idOf = (path: string) => path.split("/").at(-1)!;

describe.each(doorNames)("carrier PATCH and error codes via %s", (door) => {
  const ctx = useDoor(door);
  const fetchAttributes = async (path: string) => {
    const res = await ctx.call("GET", path, { auth: carrierAuth });
    const { updated_at: _updated, ...attributes } = res.json.data.attributes;
    return attributes;
  };

  it('a PATCH without attributes keeps them all: "the server MUST interpret the missing attributes as if they were included with their current values"', async () => {
    for (const { type, path } of await patchable(ctx)) {
      const before = await fetchAttributes(path);
      const res = await ctx.call("PATCH", path, {
        auth: carrierAuth,
        json: { data: { type, id: idOf(path) } },
      });
      expect(res.status, `${type}: ${res.text}`).toBe(200);
      expect(await fetchAttributes(path), type).toEqual(before);
    }
  });

  it('relationships alone: replaced where the resource has them, else "403 Forbidden in response to an unsupported request to update a relationship"', async () => {
    const rows = await patchable(ctx);
    const agent = idOf(rows.find((r) => r.type === "agent_extension")!.path);
    const takes: Record<string, Record<string, unknown>> = {
      ring_group: { agent_extensions: { data: [{ type: "agent_extension", id: agent }] } },
      sip_trunk: { account: { data: { type: "account", id: fixtures.acme.sid } } },
    };
    for (const { type, path } of rows) {
      const relationships = takes[type];
      if (relationships) {
        const before = await fetchAttributes(path);
        const res = await ctx.call("PATCH", path, {
          auth: carrierAuth,
          json: { data: { type, id: idOf(path), relationships } },
        });
        expect(res.status, `${type}: ${res.text}`).toBe(200);
        expect(res.json.data.relationships).toMatchObject(relationships);
        const after = await fetchAttributes(path);
        expect(after.name, type).toBe(before.name);
        continue;
      }
      await expectRefused(
        ctx,
        () =>
          ctx.call("PATCH", path, {
            auth: carrierAuth,
            json: {
              data: {
                type,
                id: idOf(path),
                relationships: { account: { data: { type: "account", id: fixtures.globex.sid } } },
              },
            },
          }),
        403,
        { source: { pointer: "/data/relationships/account" } },
      );
    }
  });

  it("a 409's code is its own, not 400: a type the endpoint does not serve, an id that is not the URL's", async () => {
    const path = `/carrier/v1/accounts/${fixtures.acme.sid}`;
    await expectRefused(
      ctx,
      () =>
        ctx.call("PATCH", path, {
          auth: carrierAuth,
          json: document("rate", { name: "x" }, { id: fixtures.acme.sid }),
        }),
      409,
      { code: "409", source: { pointer: "/data/type" } },
    );
    await expectRefused(
      ctx,
      () =>
        ctx.call("PATCH", path, {
          auth: carrierAuth,
          json: document("account", { name: "x" }, { id: fixtures.globex.sid }),
        }),
      409,
      { code: "409", source: { pointer: "/data/id" } },
    );
  });

  it("a 422's code is its own, not 400: every invalid attribute, a taken extension, a debit over the balance", async () => {
    const invalid = await expectRefused(
      ctx,
      () =>
        ctx.call("POST", "/carrier/v1/accounts", {
          auth: carrierAuth,
          json: document("account", { name: "", metadata: "nope" }),
        }),
      422,
    );
    expect(invalid.json.errors.map((e: { code: string }) => e.code)).toEqual(["422", "422"]);
    const extensions = `/carrier/v1/accounts/${fixtures.acme.sid}/agent_extensions`;
    const first = await ctx.call("POST", extensions, {
      auth: carrierAuth,
      json: document("agent_extension", { agent_name: "Ada", extension: "300" }),
    });
    expect(first.status).toBe(201);
    await expectRefused(
      ctx,
      () =>
        ctx.call("POST", extensions, {
          auth: carrierAuth,
          json: document("agent_extension", { agent_name: "Bo", extension: "300" }),
        }),
      422,
      { code: "422", source: { pointer: "/data/attributes/extension" } },
    );
    await expectRefused(
      ctx,
      () =>
        ctx.call("POST", `/carrier/v1/accounts/${fixtures.acme.sid}/balances/debit`, {
          auth: carrierAuth,
          json: { category: "voice", amount_cents: 10_000_000 },
          headers: { "content-type": "application/json" },
        }),
      422,
      { code: "422", title: "Insufficient balance" },
    );
  });

  it("errors with a code in Twilio's dictionary keep it: 404 is 20404, 401 is 20003", async () => {
    await expectRefused(
      ctx,
      () => ctx.call("GET", "/carrier/v1/rates/RT00000000000000000000000000000000", { auth: carrierAuth }),
      404,
      { code: "20404" },
    );
    await expectRefused(ctx, () => ctx.call("GET", "/carrier/v1/rates"), 401, { code: "20003" });
  });
});
