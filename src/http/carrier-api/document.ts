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

type Linkage = { type: string; id: string } | null | { type: string; id: string }[];

export interface ResourceObject {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: Linkage }>;
  links: { self: string };
}

/** A to-many relationship: every related resource of one type. */
export const toMany = (type: string, ids: string[]): Relationship[] => ids.map((id) => ({ type, id }));

export function resourceObject(
  type: string,
  id: string,
  selfPath: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, Relationship | Relationship[]>,
): ResourceObject {
  const identifier = (rel: Relationship) => (rel.id === null ? null : { type: rel.type, id: rel.id });
  return {
    type,
    id,
    attributes,
    ...(relationships
      ? {
          relationships: Object.fromEntries(
            Object.entries(relationships).map(([name, rel]) => [
              name,
              {
                data: Array.isArray(rel)
                  ? rel.map((r) => ({ type: r.type, id: r.id ?? "" })).filter((r) => r.id !== "")
                  : identifier(rel),
              },
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
  /** Every matching record (sliced here), or one page already walked with the total it counted. */
  records: T[] | { rows: T[]; total: number };
  render: (record: T) => ResourceObject;
  /** The page-size parameter echoed into links (`per_page`, or `limit` for balance transactions). */
  sizeParam?: string;
  /** Members added to `meta` besides total, page and per_page. */
  meta?: Record<string, unknown>;
}

export function collectionDocument<T>(list: CollectionPage<T>): SandboxResponse {
  const { page, perPage, records } = list;
  const total = Array.isArray(records) ? records.length : records.total;
  const lastPage = Math.max(0, Math.ceil(total / perPage) - 1);
  const link = (p: number) =>
    `${list.path}?${buildQuery([...list.filters, ["page", p], [list.sizeParam ?? "per_page", perPage]])}`;
  const slice = Array.isArray(records)
    ? records.slice(page * perPage, page * perPage + perPage)
    : records.rows;
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
    meta: { total, page, per_page: perPage, ...list.meta },
  });
}

/** A carrier list's page of records: the query's `filter[...]` values echoed into its links, with its `page` and `per_page`. */
export function listDocument<T>(
  path: string,
  query: Readonly<Record<string, unknown>> & { page: number; per_page: number },
  records: T[] | { rows: T[]; total: number },
  render: (record: T) => ResourceObject,
): SandboxResponse {
  return collectionDocument({
    path,
    filters: echoFilters(query),
    page: query.page,
    perPage: query.per_page,
    records,
    render,
  });
}

/** The `filter[...]` values of a parsed query, in order, for echoing into links. */
export function echoFilters(query: Record<string, unknown>): [string, string][] {
  return Object.entries(query)
    .filter(([key, value]) => key.startsWith("filter[") && typeof value === "string")
    .map(([key, value]) => [key, value as string]);
}

// The members every document's schema has alike are built once and shared: each carrier route builds its
// document schemas at start, and these were most of their zod schemas (docs/decisions.md, start-up).
const identifierSchema = z.lazy(() => z.object({ type: z.string(), id: z.string() }));
const relationshipSchema = z.lazy(() =>
  z.object({
    data: z.union([identifierSchema.nullable(), z.array(identifierSchema)]),
  }),
);
const resourceIdSchema = z.lazy(() => z.string());
const relationshipsSchema = z.lazy(() => z.record(z.string(), relationshipSchema).optional());
const selfLinkSchema = z.lazy(() => z.object({ self: z.string() }));

/** A resource object's schema: `type`, `id`, the given attributes, optional relationships, `links.self`. */
export function resourceSchema(type: string, attributes: z.ZodType) {
  return z.object({
    type: z.literal(type),
    id: resourceIdSchema,
    attributes,
    relationships: relationshipsSchema,
    links: selfLinkSchema,
  });
}

const jsonApiMember = z.lazy(() => z.object({ version: z.literal("1.1") }));

/** A single-resource document's schema. */
export function singleDocumentSchema(resource: z.ZodType) {
  return z.object({ jsonapi: jsonApiMember, data: resource, links: selfLinkSchema });
}

const pageLinksSchema = z.lazy(() =>
  z.object({
    self: z.string(),
    first: z.string(),
    prev: z.string().nullable(),
    next: z.string().nullable(),
    last: z.string(),
  }),
);
const pageMetaFields = { total: z.number().int(), page: z.number().int(), per_page: z.number().int() };
const pageMetaSchema = z.lazy(() => z.object(pageMetaFields));

/** A collection document's schema, with page links and meta (plus any extra meta members). */
export function collectionDocumentSchema(resource: z.ZodType, extraMeta: z.ZodRawShape = {}) {
  return z.object({
    jsonapi: jsonApiMember,
    data: z.array(resource),
    links: pageLinksSchema,
    meta:
      Object.keys(extraMeta).length === 0 ? pageMetaSchema : z.object({ ...pageMetaFields, ...extraMeta }),
  });
}

/** The meta-only document a DELETE answers with. */
export const deletedDocumentSchema = z.lazy(() =>
  z.object({
    jsonapi: jsonApiMember,
    meta: z.object({ deleted: z.object({ type: z.string(), id: z.string() }) }),
  }),
);

/**
 * A PATCH's `attributes` member, optional as a whole: JSON:API 1.1 says the server "MUST interpret the missing
 * attributes as if they were included with their current values", so a PATCH of relationships alone needs none.
 */
export function patchAttributes<Shape extends z.ZodRawShape>(shape: Shape) {
  // Every member of a PATCH's attributes is optional, so `{}` is what an absent member parses to.
  return z.strictObject(shape).default({} as never);
}

/** Request side of a to-many relationship: `relationships.<name>.data` as resource identifiers of one type. */
export function toManyInput(type: string) {
  return z.strictObject({
    data: z.array(
      z.strictObject({
        type: z.literal(type, { error: `must be "${type}"` }),
        id: z.string({ error: "must be a string" }),
      }),
      { error: "must be an array of resource identifiers" },
    ),
  });
}

/** Request side of a to-one relationship: an identifier, or null to clear it. */
export function toOneInput(type: string) {
  return z.strictObject({
    data: z
      .strictObject({
        type: z.literal(type, { error: `must be "${type}"` }),
        id: z.string({ error: "must be a string" }),
      })
      .nullable(),
  });
}

/** `filter[from_date]` / `filter[to_date]`: a UTC date or date-time, compared with `created_at`. */
export const dateFilter = z.lazy(() =>
  z
    .string()
    .regex(
      /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?Z)?$/,
      "must be a date such as 2026-01-31 or a UTC time such as 2026-01-31T12:00:00Z",
    )
    .refine((v) => !Number.isNaN(Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v)), "is not a real date"),
);

/**
 * The instants a from/to date pair covers: a bare `to_date` includes its whole day, so
 * `filter[to_date]=2026-01-31` takes in everything on the 31st.
 */
export function dateRange(from: string | undefined, to: string | undefined): [number, number] {
  const start = from === undefined ? -Infinity : Date.parse(from.length === 10 ? `${from}T00:00:00Z` : from);
  const end =
    to === undefined
      ? Infinity
      : to.length === 10
        ? Date.parse(`${to}T00:00:00Z`) + 86_400_000
        : Date.parse(to) + 1;
  return [start, end];
}

/**
 * `filter[from]` / `filter[to]`: a number compared exactly. An unencoded "+" arrives as a space in a
 * query string, so a leading space before digits is read back as the "+" the caller meant.
 */
export const numberFilter = z.lazy(() => z.string().transform((v) => v.replace(/^ (?=\d)/, "+")));
