// Account API view of agent extensions through both doors: list, fetch, and agents setting their status.
import { describe, expect, it } from "vitest";
import { createAgentExtension } from "../../src/engine/accounts/agent-extensions.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/AgentExtensions`;

describe.each(doorNames)("account agent extensions via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const make = (name: string) =>
    createAgentExtension(ctx.sandbox.engine, fixtures.acme.sid, { agent_name: name });

  it("lists and fetches the account's extensions in snake_case", async () => {
    const ada = make("Ada");
    make("Grace");
    const list = await ctx.call("GET", `${base}.json`, { auth: acmeAuth });
    expect(list.status).toBe(200);
    expect(list.json.agent_extensions.map((a: { agent_name: string }) => a.agent_name)).toEqual([
      "Ada",
      "Grace",
    ]);
    const one = await ctx.call("GET", `${base}/${ada.sid}`, { auth: acmeAuth });
    expect(one.json).toMatchObject({
      sid: ada.sid,
      account_sid: fixtures.acme.sid,
      agent_name: "Ada",
      extension: ada.extension,
      status: ada.status,
      uri: `${base}/${ada.sid}.json`,
    });
  });

  it("sets an agent's status, and rejects unknown statuses without changing anything", async () => {
    const ada = make("Ada");
    const updated = await ctx.call("POST", `${base}/${ada.sid}.json`, {
      auth: acmeAuth,
      form: { Status: "busy" },
    });
    expect(updated.json.status).toBe("busy");
    const carrierView = await ctx.call(
      "GET",
      `/carrier/v1/accounts/${fixtures.acme.sid}/agent_extensions/${ada.sid}`,
      {
        auth: { bearer: fixtures.carrierKey },
      },
    );
    expect(carrierView.json.data.attributes.status).toBe("busy");
    const before = stateOf();
    const bad = await ctx.call("POST", `${base}/${ada.sid}.json`, {
      auth: acmeAuth,
      form: { Status: "sleeping" },
    });
    expect(bad.json).toMatchObject({ status: 400, code: 20422 });
    expect(stateOf()).toBe(before);
  });

  it("404s another account's extension and refuses keys without the scope", async () => {
    const other = createAgentExtension(ctx.sandbox.engine, fixtures.globex.sid, { agent_name: "Eve" });
    expect((await ctx.call("GET", `${base}/${other.sid}.json`, { auth: acmeAuth })).json.code).toBe(20404);
    const ada = make("Ada");
    const readOnly = { bearer: fixtures.acme.readKey.key };
    const before = stateOf();
    const refused = await ctx.call("POST", `${base}/${ada.sid}.json`, {
      auth: readOnly,
      form: { Status: "away" },
    });
    expect(refused.status).toBe(403);
    expect(stateOf()).toBe(before);
  });
});
