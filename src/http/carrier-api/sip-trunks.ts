// Carrier SIP trunks: termination URIs, credentials, allowed IPs and numbers. CRUD, plus a test call to check routing.
import { z } from "zod";
import type { SipTrunk } from "../../domain/carrier-records.js";
import { e164 } from "../../domain/fields.js";
import {
  createSipTrunk,
  deleteSipTrunk,
  getSipTrunk,
  updateSipTrunk,
} from "../../engine/accounts/sip-trunks.js";
import { placeTestCall } from "../../engine/calls/trunk-test-call.js";
import { iso8601 } from "../format.js";
import { defineRoute } from "../route.js";
import {
  carrierBase,
  pagingQuery,
  patchAttributes,
  resourceObject,
  resourceSchema,
  singleDocument,
  singleDocumentSchema,
  toMany,
  toManyInput,
  toOneInput,
} from "./document.js";
import type { ListFilters } from "./list-filters.js";
import { phoneCallResource, renderPhoneCall } from "./phone-calls.js";
import { carrierResourceRoutes, listIn } from "./resource-routes.js";

const collection = `${carrierBase}/sip_trunks`;
const instance = `${collection}/:id`;

export const sipTrunkResource = z.lazy(() =>
  resourceSchema(
    "sip_trunk",
    z.object({
      name: z.string(),
      account_id: z.string().nullable(),
      termination_uris: z.array(z.string()),
      username: z.string().nullable(),
      password_set: z.boolean(),
      allowed_ips: z.array(z.string()),
      phone_number_ids: z.array(z.string()),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
);

/** The password is write-only: responses say whether one is set, never what it is. */
export function renderSipTrunk(trunk: SipTrunk) {
  return resourceObject(
    "sip_trunk",
    trunk.sid,
    `${collection}/${trunk.sid}`,
    {
      name: trunk.name,
      account_id: trunk.account_sid,
      termination_uris: trunk.termination_uris,
      username: trunk.username,
      password_set: trunk.password !== null,
      allowed_ips: trunk.allowed_ips,
      phone_number_ids: trunk.phone_number_sids,
      created_at: iso8601(trunk.created_at),
      updated_at: iso8601(trunk.updated_at),
    },
    {
      account: { type: "account", id: trunk.account_sid },
      phone_numbers: toMany("phone_number", trunk.phone_number_sids),
    },
  );
}

const name = z.lazy(() => z.string({ error: "must be a string" }).trim().min(1, "must not be blank"));
const sipUri = z.lazy(() =>
  z
    .string({ error: "must be a string" })
    .regex(/^sips?:[^\s@]+(@[^\s@]+)?$/, 'must be a SIP URI such as "sip:pbx.example.com:5060"'),
);
const ipOrCidr = z.lazy(() =>
  z
    .string({ error: "must be a string" })
    .regex(
      /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)(\/(3[0-2]|[12]?\d))?$/,
      'must be an IPv4 address or CIDR block, e.g. "203.0.113.10" or "203.0.113.0/24"',
    ),
);
const credential = z.lazy(() =>
  z.string({ error: "must be a string" }).min(1, "must not be blank").nullable(),
);

const editable = {
  termination_uris: z.array(sipUri, { error: "must be an array of SIP URIs" }).optional(),
  username: credential.optional(),
  password: credential.optional(),
  allowed_ips: z.array(ipOrCidr, { error: "must be an array of IPv4 addresses or CIDR blocks" }).optional(),
};
const relationships = z.lazy(() =>
  z
    .strictObject({
      account: toOneInput("account").optional(),
      phone_numbers: toManyInput("phone_number").optional(),
    })
    .optional(),
);

const createBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("sip_trunk"),
      attributes: z.strictObject({ name, ...editable }),
      relationships,
    }),
  }),
);

const updateBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("sip_trunk"),
      id: z.string(),
      attributes: patchAttributes({ name: name.optional(), ...editable }),
      relationships,
    }),
  }),
);

const testCallBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("phone_call"),
      attributes: z.strictObject({ from: e164, to: e164, account_id: z.string().optional() }),
    }),
  }),
);

const links = (input: z.infer<typeof relationships>) => ({
  ...(input?.account ? { account_sid: input.account.data?.id ?? null } : {}),
  ...(input?.phone_numbers ? { phone_number_sids: input.phone_numbers.data.map((d) => d.id) } : {}),
});

const listFilters: ListFilters<SipTrunk> = {
  indexes: { account: ["filter[account_id]"] },
  equal: { "filter[account_id]": (t) => t.account_sid },
};

export const carrierSipTrunkRoutes = [
  ...carrierResourceRoutes({
    type: "sip_trunk",
    collection,
    instance,
    schema: sipTrunkResource,
    render: renderSipTrunk,
    find: ({ params, request, services }) => getSipTrunk(services.context, params.id!, request.path),
    create: {
      summary: "Create a SIP trunk",
      body: createBody,
      make: ({ body, services }) =>
        createSipTrunk(services.context, { ...body.data.attributes, ...links(body.data.relationships) }),
    },
    list: {
      summary: "List SIP trunks",
      query: z.lazy(() => z.strictObject({ ...pagingQuery, "filter[account_id]": z.string().optional() })),
      answer: listIn(collection, (store) => store.sipTrunks, listFilters, renderSipTrunk),
    },
    fetch: { summary: "Fetch a SIP trunk" },
    update: {
      summary: "Change a SIP trunk (lists and relationships are replaced as a whole)",
      body: updateBody,
      change: ({ body, services }, trunk) =>
        updateSipTrunk(services.context, trunk, {
          ...body.data.attributes,
          ...links(body.data.relationships),
        }),
    },
    remove: {
      summary: "Delete a SIP trunk",
      drop: ({ services }, trunk) => deleteSipTrunk(services.context, trunk),
    },
  }),
  defineRoute({
    method: "POST",
    path: `${instance}/test_call`,
    surface: "carrier",
    summary: "Place a test call through the trunk to check its routing; answers with the new phone_call",
    auth: { kind: "carrier" },
    body: testCallBody,
    resourceType: "phone_call",
    status: 201,
    response: z.lazy(() => singleDocumentSchema(phoneCallResource)),
    handle({ params, body, request, services }) {
      const trunk = getSipTrunk(services.context, params.id!, request.path);
      const { account_id, ...parties } = body.data.attributes;
      const call = placeTestCall(services.context, trunk, {
        ...parties,
        ...(account_id !== undefined ? { account_sid: account_id } : {}),
      });
      const resource = renderPhoneCall(services.calls.start(call));
      return singleDocument(201, resource, { location: resource.links.self });
    },
  }),
];
