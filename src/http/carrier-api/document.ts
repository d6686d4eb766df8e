// JSON:API documents of the carrier API: resource objects, single and collection documents, page links.
import { z } from "zod";
import { buildQuery } from "../params.js";
import { jsonApi } from "../respond.js";
import type { SandboxResponse } from "../types.js";

export const carrierBase = "/carrier/v1";
export const jsonApiVersion = { version: "1.1" } as const;

export const defaultPerPage = 25;
export const maxPerPage = 100;

/** `page` (0-indexed) and `per_page` (1 to 100, default 25) of every carrier list. */
export const pagingQuery = {
  page: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .default(0),
  per_page: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, `must be between 1 and ${maxPerPage}`)
    .max(maxPerPage, `must be between 1 and ${maxPerPage}`)
    .default(defaultPerPage),
};

export interface Relationship {
  type: string;
  id: string | null;
}

export interface ResourceObject {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { type: string; id: string } | null }>;
  links: { self: string };
}

export function resourceObject(
  type: string,
  id: string,
  selfPath: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, Relationship>,
): ResourceObject {
  return {
    type,
    id,
    attributes,
    ...(relationships
      ? {
          relationships: Object.fromEntries(
            Object.entries(relationships).map(([name, rel]) => [
              name,
              { data: rel.id === null ? null : { type: rel.type, id: rel.id } },
            ]),
          ),
        }
      : {}),
    links: { self: selfPath },
  };
}

export function singleDocument(
  status: number,
  resource: ResourceObject,
  headers: Record<string, string> = {},
): SandboxResponse {
  return jsonApi(
    status,
    { jsonapi: jsonApiVersion, data: resource, links: { self: resource.links.self } },
    headers,
  );
}

/** 200 for a DELETE: the document says what was removed (JSON:API allows a meta-only document). */
export function deletedDocument(type: string, id: string): SandboxResponse {
  return jsonApi(200, { jsonapi: jsonApiVersion, meta: { deleted: { type, id } } });
}

export interface CollectionPage<T> {
  path: string;
  /** Query parameters other than paging, echoed into every link. */
  filters: [string, string][];
  page: number;
  perPage: number;
  records: T[];
  render: (record: T) => ResourceObject;
}

export function collectionDocument<T>(list: CollectionPage<T>): SandboxResponse {
  const { page, perPage, records } = list;
  const total = records.length;
  const lastPage = Math.max(0, Math.ceil(total / perPage) - 1);
  const link = (p: number) =>
    `${list.path}?${buildQuery([...list.filters, ["page", p], ["per_page", perPage]])}`;
  const slice = records.slice(page * perPage, page * perPage + perPage);
  return jsonApi(200, {
    jsonapi: jsonApiVersion,
    data: slice.map(list.render),
    links: {
      self: link(page),
      first: link(0),
      prev: page > 0 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
      last: link(lastPage),
    },
    meta: { total, page, per_page: perPage },
  });
}

/** The `filter[...]` values of a parsed query, in order, for echoing into links. */
export function echoFilters(query: Record<string, unknown>): [string, string][] {
  return Object.entries(query)
    .filter(([key, value]) => key.startsWith("filter[") && typeof value === "string")
    .map(([key, value]) => [key, value as string]);
}

const relationshipSchema = z.object({
  data: z.object({ type: z.string(), id: z.string() }).nullable(),
});

/** A resource object's schema: `type`, `id`, the given attributes, optional relationships, `links.self`. */
export function resourceSchema(type: string, attributes: z.ZodType) {
  return z.object({
    type: z.literal(type),
    id: z.string(),
    attributes,
    relationships: z.record(z.string(), relationshipSchema).optional(),
    links: z.object({ self: z.string() }),
  });
}

const jsonApiMember = z.object({ version: z.literal("1.1") });

/** A single-resource document's schema. */
export function singleDocumentSchema(resource: z.ZodType) {
  return z.object({ jsonapi: jsonApiMember, data: resource, links: z.object({ self: z.string() }) });
}

/** A collection document's schema, with page links and meta. */
export function collectionDocumentSchema(resource: z.ZodType) {
  return z.object({
    jsonapi: jsonApiMember,
    data: z.array(resource),
    links: z.object({
      self: z.string(),
      first: z.string(),
      prev: z.string().nullable(),
      next: z.string().nullable(),
      last: z.string(),
    }),
    meta: z.object({ total: z.number().int(), page: z.number().int(), per_page: z.number().int() }),
  });
}

/** The meta-only document a DELETE answers with. */
export const deletedDocumentSchema = z.object({
  jsonapi: jsonApiMember,
  meta: z.object({ deleted: z.object({ type: z.string(), id: z.string() }) }),
});
