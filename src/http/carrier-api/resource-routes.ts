// One carrier resource's five routes from one declaration: create, list, fetch, change and delete.
import type { z } from "zod";
import { defineRoute, type RouteContext } from "../route.js";
import type { SandboxResponse } from "../types.js";
import {
  collectionDocumentSchema,
  deletedDocument,
  deletedDocumentSchema,
  type ResourceObject,
  singleDocument,
  singleDocumentSchema,
} from "./document.js";

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
  create: { summary: string; body: z.ZodType<Create>; make(ctx: Context<undefined, Create>): Row };
  list: { summary: string; query: z.ZodType<Query>; answer(ctx: Context<Query>): SandboxResponse };
  fetch: { summary: string };
  update: {
    summary: string;
    body: z.ZodType<Update>;
    change(ctx: Context<undefined, Update>, row: Row): Row;
  };
  remove: { summary: string; drop(ctx: Context, row: Row): void };
}

export function carrierResourceRoutes<Row extends { sid: string }, Create, Update, Query>(
  resource: CarrierResource<Row, Create, Update, Query>,
) {
  const { type, collection, instance, schema, render, find } = resource;
  const single = singleDocumentSchema(schema);
  return [
    defineRoute<undefined, Create>({
      method: "POST",
      path: collection,
      surface: "carrier",
      summary: resource.create.summary,
      auth: { kind: "carrier" },
      body: resource.create.body,
      resourceType: type,
      status: 201,
      response: single,
      handle(ctx) {
        const created = render(resource.create.make(ctx));
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
      response: collectionDocumentSchema(schema),
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
    defineRoute<undefined, Update>({
      method: "PATCH",
      path: instance,
      surface: "carrier",
      summary: resource.update.summary,
      auth: { kind: "carrier" },
      body: resource.update.body,
      resourceType: type,
      idParam: "id",
      response: single,
      handle: (ctx) => singleDocument(200, render(resource.update.change(ctx, find(ctx)))),
    }),
    defineRoute({
      method: "DELETE",
      path: instance,
      surface: "carrier",
      summary: resource.remove.summary,
      auth: { kind: "carrier" },
      response: deletedDocumentSchema,
      handle(ctx) {
        const row = find(ctx);
        resource.remove.drop(ctx, row);
        return deletedDocument(type, row.sid);
      },
    }),
  ];
}
