// The carrier API driven by kitsu, a maintained JSON:API client, as a provisioning team's code would use it.
import Kitsu from "kitsu";
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";
import { jsonApiProblems } from "../support/jsonapi.js";

/** Collection paths of the carrier's singular resource types (kitsu is told not to pluralize types). */
const collections: Record<string, string> = {
  account: "accounts",
  agent_extension: "agent_extensions",
  rate: "rates",
  ring_group: "ring_groups",
  sip_trunk: "sip_trunks",
};

describe.each(doorNames)("the kitsu client against the carrier API via %s", (door) => {
  const ctx = useDoor(door);

  function client() {
    const api = new Kitsu({
      baseURL: `${ctx.baseUrl}/carrier/v1`,
      headers: { Authorization: `Bearer ${fixtures.carrierKey}` },
      pluralize: false,
      camelCaseTypes: false,
      // Paths keep their case: sids are mixed-case and resource names are already snake_case.
      resourceCase: "none",
    });
    // Singular types, plural paths: kitsu builds the path from the type, so map the type's segment to its collection.
    api.interceptors.request.use((config) => {
      config.url = (config.url ?? "").replace(
        /(^|\/)([a-z_]+)(?=\/|$)/g,
        (whole, lead: string, name: string) => (collections[name] ? `${lead}${collections[name]}` : whole),
      );
      return config;
    });
    // Every response kitsu sees is also checked against the JSON:API schema.
    api.interceptors.response.use(
      (response) => {
        expect(jsonApiProblems(response.data)).toEqual([]);
        return response;
      },
      (error) => {
        expect(jsonApiProblems(error.response?.data)).toEqual([]);
        return Promise.reject(error);
      },
    );
    return api;
  }

  it("creates, lists, updates and deletes an account and its agent extensions", async () => {
    const api = client();
    const created = await api.post("account", { name: "Initech", metadata: { tier: "gold" } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      type: "account",
      name: "Initech",
      status: "active",
      metadata: { tier: "gold" },
    });
    const id = created.data.id as string;

    const active = await api.get("accounts", {
      // kitsu's types expect Kitsu-style page[...] objects; this API pages with page and per_page.
      params: { filter: { status: "active" }, page: 1, per_page: 2 } as never,
    });
    expect(active.data.map((a: { id: string }) => a.id)).toEqual([id]);
    expect(active.meta).toEqual({ total: 3, page: 1, per_page: 2 });
    expect(active.links.prev).toBe("/carrier/v1/accounts?filter%5Bstatus%5D=active&page=0&per_page=2");

    const updated = await api.patch("account", { id, name: "Initech Global", status: "suspended" });
    expect(updated.data).toMatchObject({ id, name: "Initech Global", status: "suspended" });

    const agent = await api.post(`account/${id}/agent_extension`, { agent_name: "Peter" });
    expect(agent.data).toMatchObject({ type: "agent_extension", agent_name: "Peter", extension: "100" });
    const agents = await api.get(`accounts/${id}/agent_extensions`);
    expect(agents.data).toHaveLength(1);

    const removed = await api.delete("account", id);
    expect(removed.meta).toEqual({ deleted: { type: "account", id } });
    await expect(api.get(`accounts/${id}`)).rejects.toMatchObject({
      errors: [{ status: "404", title: "Not Found" }],
    });
  });

  it("surfaces validation errors with their JSON pointers", async () => {
    const api = client();
    await expect(
      api.post("rate", { category: "voice", country: "usa", prefix: "+1", price: "0.01" }),
    ).rejects.toMatchObject({
      errors: [{ status: "422", source: { pointer: "/data/attributes/country" } }],
    });
    await expect(api.get("rates", { params: { filter: { colour: "red" } } })).rejects.toMatchObject({
      errors: [{ status: "400", source: { parameter: "filter[colour]" } }],
    });
  });
});
