// One carrier resource's routes from one declaration: list and fetch, and create, change and delete where it has them.
import { z } from "zod";
import { found } from "../../domain/found.js";
import type { Store } from "../../domain/store.js";
import type { StoredTable } from "../../domain/stored-table.js";
import { defineRoute, type RouteContext } from "../route.js";
import type { SandboxResponse } from "../types.js";
import {
  collectionDocumentSchema,
  deletedDocument,
  deletedDocumentSchema,
  listDocument,
  type ResourceObject,
  singleDocument,
  singleDocumentSchema,
} from "./document.js";
import { type ListFilters, listPage } from "./list-filters.js";

type Context<Q = undefined, B = undefined> = RouteContext<Q, B>;

/** What differs between carrier resources; the routes around it are the same for all of them. */
export interface CarrierResource<Row extends { sid: string }, Create, Update, Query> {
  /** The JSON:API type, e.g. `rate`. */
  type: string;
  /** The collection path and the instance path (`:id` names the row). */
  collection: string;
  instance: string;
  /** The resource object's schema (for the OpenAPI document and response checks). */
  schema: z.ZodType;
  render(row: Row): ResourceObject;
  /** The row the instance path names; its 404 otherwise (a nested resource checks its account too). */
  find(ctx: Context<unknown, unknown>): Row;
  /** Absent: the carrier cannot create these rows (the service makes them: calls, messages, events). */
  create?: { summary: string; body: z.ZodType<Create>; make(ctx: Context<undefined, Create>): Row };
  list: { summary: string; query: z.ZodType<Query>; answer(ctx: Context<Query>): SandboxResponse };
  fetch: { summary: string };
  /** Absent: the rows cannot be changed. */
  update?: {
    summary: string;
    body: z.ZodType<Update>;
    change(ctx: Context<undefined, Update>, row: Row): Row;
  };
  /** Absent: the rows cannot be deleted. */
  remove?: {
    summary: string;
    /**
     * Where a delete may leave the row in place, changed (a number released back to the inventory): does
     * that and returns the row as it now is, which is then the answer; undefined to go on and delete it.
     */
    keep?(ctx: Context, row: Row): Row | undefined;
    drop(ctx: Context, row: Row): void;
  };
}

/** `find` of a resource at the top of the API: the row of its table the path's id names, 404 otherwise. */
export const findIn =
  <Row>(table: (store: Store) => StoredTable<Row>) =>
  ({ params, request, services }: Context<unknown, unknown>): Row =>
    found(table(services.context.store).get(params.id!), request.path);

/** `list.answer` of a resource at the top of the API: one page of its table through the list's filters. */
export const listIn =
  <Row>(
    collection: string,
    table: (store: Store) => StoredTable<Row>,
    filters: ListFilters<Row>,
    render: (row: Row) => ResourceObject,
  ) =>
  ({ query, services }: Context<{ page: number; per_page: number }>): SandboxResponse =>
    listDocument(collection, query, listPage(table(services.context.store), query, filters), render);

export function carrierResourceRoutes<Row extends { sid: string }, Create, Update, Query>(
  resource: CarrierResource<Row, Create, Update, Query>,
) {
  const { type, collection, instance, schema, render, find, create, update, remove } = resource;
  const single = z.lazy(() => singleDocumentSchema(schema));
  return [
    create &&
      defineRoute<undefined, Create>({
        method: "POST",
        path: collection,
        surface: "carrier",
        summary: create.summary,
        auth: { kind: "carrier" },
        body: create.body,
        resourceType: type,
        status: 201,
        response: single,
        handle(ctx) {
          const created = render(create.make(ctx));
          return singleDocument(201, created, { location: created.links.self });
        },
      }),
    defineRoute<Query>({
      method: "GET",
      path: collection,
      surface: "carrier",
      summary: resource.list.summary,
      auth: { kind: "carrier" },
      query: resource.list.query,
      response: z.lazy(() => collectionDocumentSchema(schema)),
      handle: (ctx) => resource.list.answer(ctx),
    }),
    defineRoute({
      method: "GET",
      path: instance,
      surface: "carrier",
      summary: resource.fetch.summary,
      auth: { kind: "carrier" },
      response: single,
      handle: (ctx) => singleDocument(200, render(find(ctx))),
    }),
    update &&
      defineRoute<undefined, Update>({
        method: "PATCH",
        path: instance,
        surface: "carrier",
        summary: update.summary,
        auth: { kind: "carrier" },
        body: update.body,
        resourceType: type,
        idParam: "id",
        response: single,
        handle: (ctx) => singleDocument(200, render(update.change(ctx, find(ctx)))),
      }),
    remove &&
      defineRoute({
        method: "DELETE",
        path: instance,
        surface: "carrier",
        summary: remove.summary,
        auth: { kind: "carrier" },
        response: remove.keep ? z.union([single, deletedDocumentSchema]) : deletedDocumentSchema,
        handle(ctx) {
          const row = find(ctx);
          const kept = remove.keep?.(ctx, row);
          if (kept) return singleDocument(200, render(kept));
          remove.drop(ctx, row);
          return deletedDocument(type, row.sid);
        },
      }),
  ].filter((route) => route !== undefined);
}
