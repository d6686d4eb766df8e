// Carrier agent extensions and ring groups through both doors: numbering, status, membership, deletion, refusals.
import { describe, expect, it } from "vitest";
import { findExtension } from "../../src/engine/accounts/agent-extensions.js";
import { document, expectRefused } from "../support/carrier.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures } from "../support/fixtures.js";

const extensions = `/carrier/v1/accounts/${fixtures.acme.sid}/agent_extensions`;
const groups = `/carrier/v1/accounts/${fixtures.acme.sid}/ring_groups`;

describe.each(doorNames)("carrier agent extensions and ring groups via %s", (door) => {
  const ctx = useDoor(door);
  const createAgent = (attributes: Record<string, unknown>, path = extensions) =>
    ctx.call("POST", path, { auth: carrierAuth, json: document("agent_extension", attributes) });
  const members = (ids: string[]) => ({
    agent_extensions: { data: ids.map((id) => ({ type: "agent_extension", id })) },
  });

  it("numbers new agents from 100, takes an explicit extension, and lists them", async () => {
    const first = await createAgent({ agent_name: "Ada" });
    expect(first.status).toBe(201);
    expect(first.json.data).toMatchObject({
      type: "agent_extension",
      attributes: { agent_name: "Ada", extension: "100", status: "online", account_id: fixtures.acme.sid },
      relationships: { account: { data: { type: "account", id: fixtures.acme.sid } } },
    });
    expect(first.headers.get("location")).toBe(`${extensions}/${first.json.data.id}`);
    await createAgent({ agent_name: "Bob", extension: "101" });
    const third = await createAgent({ agent_name: "Cy" });
    expect(third.json.data.attributes.extension).toBe("102");
    // Another account numbers on its own.
    const globex = await createAgent(
      { agent_name: "Gil" },
      `/carrier/v1/accounts/${fixtures.globex.sid}/agent_extensions`,
    );
    expect(globex.json.data.attributes.extension).toBe("100");

    const list = await ctx.call("GET", `${extensions}?per_page=2`, { auth: carrierAuth });
    expect(
      list.json.data.map((e: { attributes: { agent_name: string } }) => e.attributes.agent_name),
    ).toEqual(["Ada", "Bob"]);
    expect(list.json.meta).toEqual({ total: 3, page: 0, per_page: 2 });
    const byExtension = await ctx.call("GET", `${extensions}?filter[extension]=102`, { auth: carrierAuth });
    expect(byExtension.json.data[0].attributes.agent_name).toBe("Cy");
    expect(findExtension(ctx.sandbox.engine, fixtures.acme.sid, "101")?.agent_name).toBe("Bob");
  });

  it("updates name and status, fetches, and deletes so the agent can no longer be dialled", async () => {
    const { json } = await createAgent({ agent_name: "Ada" });
    const path = `${extensions}/${json.data.id}`;
    const patched = await ctx.call("PATCH", path, {
      auth: carrierAuth,
      json: document("agent_extension", { agent_name: "Ada L.", status: "dnd" }, { id: json.data.id }),
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data.attributes).toMatchObject({
      agent_name: "Ada L.",
      status: "dnd",
      extension: "100",
    });
    expect((await ctx.call("GET", path, { auth: carrierAuth })).json.data.attributes.status).toBe("dnd");
    const statusEvents = await ctx.call(
      "GET",
      "/carrier/v1/events?filter[type]=agent_extension.status_changed",
      {
        auth: carrierAuth,
      },
    );
    expect(statusEvents.json.data[0].attributes.details.data.attributes.status).toBe("dnd");

    const removed = await ctx.call("DELETE", path, { auth: carrierAuth });
    expect(removed.json.meta.deleted).toEqual({ type: "agent_extension", id: json.data.id });
    expect((await ctx.call("GET", path, { auth: carrierAuth })).status).toBe(404);
    expect(findExtension(ctx.sandbox.engine, fixtures.acme.sid, "100")).toBeUndefined();
    // The number is free again.
    expect((await createAgent({ agent_name: "Eve" })).json.data.attributes.extension).toBe("100");
  });

  it("keeps ring groups of the account's agents, and drops a deleted agent from them", async () => {
    const ada = (await createAgent({ agent_name: "Ada" })).json.data.id;
    const bob = (await createAgent({ agent_name: "Bob" })).json.data.id;
    const created = await ctx.call("POST", groups, {
      auth: carrierAuth,
      json: document(
        "ring_group",
        { name: "Support", strategy: "sequential", ring_timeout: 15 },
        { relationships: members([ada, bob]) },
      ),
    });
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({
      type: "ring_group",
      attributes: {
        name: "Support",
        strategy: "sequential",
        ring_timeout: 15,
        agent_extension_ids: [ada, bob],
      },
      relationships: {
        agent_extensions: {
          data: [
            { type: "agent_extension", id: ada },
            { type: "agent_extension", id: bob },
          ],
        },
      },
    });
    const path = `${groups}/${created.json.data.id}`;

    const defaults = await ctx.call("POST", groups, {
      auth: carrierAuth,
      json: document("ring_group", { name: "All" }),
    });
    expect(defaults.json.data.attributes).toMatchObject({
      strategy: "simultaneous",
      ring_timeout: 30,
      agent_extension_ids: [],
    });
    const sequential = await ctx.call("GET", `${groups}?filter[strategy]=sequential`, { auth: carrierAuth });
    expect(sequential.json.data.map((g: { id: string }) => g.id)).toEqual([created.json.data.id]);

    const renamed = await ctx.call("PATCH", path, {
      auth: carrierAuth,
      json: document(
        "ring_group",
        { name: "Tier 1" },
        { id: created.json.data.id, relationships: members([bob]) },
      ),
    });
    expect(renamed.json.data.attributes).toMatchObject({
      name: "Tier 1",
      agent_extension_ids: [bob],
      strategy: "sequential",
    });

    await ctx.call("DELETE", `${extensions}/${bob}`, { auth: carrierAuth });
    expect(
      (await ctx.call("GET", path, { auth: carrierAuth })).json.data.attributes.agent_extension_ids,
    ).toEqual([]);
    expect((await ctx.call("DELETE", path, { auth: carrierAuth })).status).toBe(200);
    expect((await ctx.call("GET", path, { auth: carrierAuth })).status).toBe(404);
  });

  describe("refusals leave the state unchanged", () => {
    it("refuses a taken extension, bad values, and identity mismatches", async () => {
      const ada = (await createAgent({ agent_name: "Ada", extension: "200" })).json.data.id;
      const other = (
        await createAgent(
          { agent_name: "Other" },
          `/carrier/v1/accounts/${fixtures.globex.sid}/agent_extensions`,
        )
      ).json.data.id;
      await expectRefused(ctx, () => createAgent({ agent_name: "Bob", extension: "200" }), 422, {
        source: { pointer: "/data/attributes/extension" },
      });
      await expectRefused(ctx, () => createAgent({ agent_name: "Bob", extension: "12ab" }), 422, {
        source: { pointer: "/data/attributes/extension" },
      });
      await expectRefused(ctx, () => createAgent({}), 422, {
        source: { pointer: "/data/attributes/agent_name" },
      });
      await expectRefused(
        ctx,
        () =>
          ctx.call("PATCH", `${extensions}/${ada}`, {
            auth: carrierAuth,
            json: document("agent_extension", { status: "asleep" }, { id: ada }),
          }),
        422,
        { source: { pointer: "/data/attributes/status" } },
      );
      await expectRefused(
        ctx,
        () =>
          ctx.call("PATCH", `${extensions}/${ada}`, {
            auth: carrierAuth,
            json: document("agent_extension", { status: "busy" }, { id: other }),
          }),
        409,
        { source: { pointer: "/data/id" } },
      );
      await expectRefused(
        ctx,
        () =>
          ctx.call("POST", extensions, {
            auth: carrierAuth,
            json: document("ring_group", { agent_name: "x" }),
          }),
        409,
        { source: { pointer: "/data/type" } },
      );
      // Another account's extension is not found under this account.
      await expectRefused(ctx, () => ctx.call("GET", `${extensions}/${other}`, { auth: carrierAuth }), 404);
      await expectRefused(
        ctx,
        () =>
          ctx.call("GET", `/carrier/v1/accounts/${fixtures.unknownAccount}/agent_extensions`, {
            auth: carrierAuth,
          }),
        404,
      );
      await expectRefused(ctx, () => ctx.call("GET", extensions), 401);
      await expectRefused(ctx, () => ctx.call("GET", extensions, { auth: acmeAuth }), 403);
      await expectRefused(
        ctx,
        () =>
          ctx.call("POST", extensions, {
            auth: carrierAuth,
            json: document("agent_extension", { agent_name: "x" }),
            headers: { "content-type": "application/vnd.api+json; charset=utf-8" },
          }),
        415,
      );
      await expectRefused(
        ctx,
        () => ctx.call("GET", `${extensions}?per_page=101`, { auth: carrierAuth }),
        400,
        {
          source: { parameter: "per_page" },
        },
      );
      await expectRefused(
        ctx,
        () => ctx.call("GET", `${extensions}?filter[name]=x`, { auth: carrierAuth }),
        400,
        {
          source: { parameter: "filter[name]" },
        },
      );
      // Ring groups: members of another account, a member twice, a timeout out of range.
      await expectRefused(
        ctx,
        () =>
          ctx.call("POST", groups, {
            auth: carrierAuth,
            json: document("ring_group", { name: "G" }, { relationships: members([other]) }),
          }),
        422,
        { source: { pointer: "/data/relationships/agent_extensions/data/0/id" } },
      );
      await expectRefused(
        ctx,
        () =>
          ctx.call("POST", groups, {
            auth: carrierAuth,
            json: document("ring_group", { name: "G" }, { relationships: members([ada, ada]) }),
          }),
        422,
        { source: { pointer: "/data/relationships/agent_extensions/data/1/id" } },
      );
      await expectRefused(
        ctx,
        () =>
          ctx.call("POST", groups, {
            auth: carrierAuth,
            json: document("ring_group", { name: "G", ring_timeout: 0 }),
          }),
        422,
        { source: { pointer: "/data/attributes/ring_timeout" } },
      );
      await expectRefused(
        ctx,
        () =>
          ctx.call("POST", groups, {
            auth: carrierAuth,
            json: document("ring_group", { name: "G", strategy: "random" }),
          }),
        422,
        { source: { pointer: "/data/attributes/strategy" } },
      );
    });
  });
});
