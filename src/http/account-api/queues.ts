// Queues: create, list, fetch, update and delete (when empty); members by CallSid or Front, dequeued to a Url.
import { z } from "zod";
import { ownedBy } from "../../domain/found.js";
import { largestQueueMaxSize, type Queue, type QueueMember } from "../../domain/queue.js";
import type { Store } from "../../domain/store.js";
import type { EngineContext } from "../../engine/context/context.js";
import {
  averageWait,
  createQueue,
  deleteQueue,
  updateQueue,
  waitSeconds,
} from "../../engine/rooms/queue-records.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath } from "./base.js";
import { formMethod, formUrl } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";

const collection = `${accountBase}/Queues`;
const instance = `${collection}/:QueueSid`;
const members = `${instance}/Members`;
const member = `${members}/:CallSid`;

/** Twilio's queue resource (`api.v2010.account.queue`). */
export const queueResource = z.lazy(() =>
  z.object({
    date_updated: z.string(),
    current_size: z.number().int(),
    friendly_name: z.string(),
    uri: z.string(),
    account_sid: z.string(),
    average_wait_time: z.number().int(),
    sid: z.string(),
    date_created: z.string(),
    max_size: z.number().int(),
  }),
);

/** Twilio's queue member resource (`api.v2010.account.queue.member`). */
export const memberResource = z.lazy(() =>
  z.object({
    call_sid: z.string(),
    date_enqueued: z.string(),
    position: z.number().int(),
    uri: z.string(),
    wait_time: z.number().int(),
    queue_sid: z.string(),
  }),
);

export function renderQueue(ctx: EngineContext, queue: Queue): z.infer<typeof queueResource> {
  return {
    date_updated: rfc2822(queue.updated_at),
    current_size: ctx.store.queueMembers.where("queue", queue.sid).length,
    friendly_name: queue.friendly_name,
    uri: accountPath(queue.account_sid, `Queues/${queue.sid}.json`),
    account_sid: queue.account_sid,
    average_wait_time: averageWait(ctx, queue.sid),
    sid: queue.sid,
    date_created: rfc2822(queue.created_at),
    max_size: queue.max_size,
  };
}

function renderMember(store: Store, m: QueueMember, now: number): z.infer<typeof memberResource> {
  const position =
    store.queueMembers.where("queue", m.queue_sid).findIndex((x) => x.call_sid === m.call_sid) + 1;
  return {
    call_sid: m.call_sid,
    date_enqueued: rfc2822(m.enqueued_at),
    position,
    uri: accountPath(m.account_sid, `Queues/${m.queue_sid}/Members/${m.call_sid}.json`),
    wait_time: waitSeconds(m, now),
    queue_sid: m.queue_sid,
  };
}

const findQueue = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.queues.get(params.QueueSid!), params.AccountSid!, path);

/** A member by CallSid, or `Front` for the caller at the head of the line. */
function findMember(services: RouteServices, params: Record<string, string>, path: string): QueueMember {
  const queue = findQueue(services, params, path);
  const line = services.context.store.queueMembers.where("queue", queue.sid);
  const found = params.CallSid === "Front" ? line[0] : line.find((m) => m.call_sid === params.CallSid);
  return ownedBy(found, params.AccountSid!, path);
}

const friendlyName = z.lazy(() =>
  z.string({ error: "is required" }).min(1, "must not be empty").max(64, "must be at most 64 characters"),
);
const maxSize = z.lazy(() =>
  z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, `must be between 1 and ${largestQueueMaxSize}`)
    .max(largestQueueMaxSize, `must be between 1 and ${largestQueueMaxSize}`),
);

export const queueRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "account",
    summary: "Create a queue (FriendlyName unique in the account; MaxSize default 100)",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: z.lazy(() => z.object({ FriendlyName: friendlyName, MaxSize: maxSize.optional() })),
    status: 201,
    response: queueResource,
    handle({ params, body, services }) {
      const queue = createQueue(services.context, params.AccountSid!, {
        friendlyName: body.FriendlyName,
        maxSize: body.MaxSize,
      });
      return twilioJson(201, renderQueue(services.context, queue));
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's queues, oldest first",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: z.lazy(() => z.object({ ...pagingQuery })),
    response: z.lazy(() => listSchema("queues", queueResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      return twilioJson(
        200,
        listEnvelope({
          key: "queues",
          path: accountPath(accountSid, "Queues.json"),
          filters: [],
          page: query,
          records: services.context.store.queues.where("account", accountSid),
          render: (q) => renderQueue(services.context, q),
          sidOf: (q) => q.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch a queue with its current size and average wait",
    auth: { kind: "account", scope: "phone_calls_read" },
    response: queueResource,
    handle({ params, request, services }) {
      return twilioJson(200, renderQueue(services.context, findQueue(services, params, request.path)));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Update a queue's FriendlyName or MaxSize",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: z.lazy(() => z.object({ FriendlyName: friendlyName.optional(), MaxSize: maxSize.optional() })),
    response: queueResource,
    handle({ params, body, request, services }) {
      const queue = updateQueue(services.context, findQueue(services, params, request.path), {
        friendlyName: body.FriendlyName,
        maxSize: body.MaxSize,
      });
      return twilioJson(200, renderQueue(services.context, queue));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "account",
    summary: "Delete an empty queue (409, code 20009, while callers wait in it)",
    auth: { kind: "account", scope: "phone_calls_write" },
    status: 204,
    handle({ params, request, services }) {
      deleteQueue(services.context, findQueue(services, params, request.path));
      return noContent();
    },
  }),
  defineRoute({
    method: "GET",
    path: members,
    surface: "account",
    summary: "List the callers waiting in a queue, front first",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: z.lazy(() => z.object({ ...pagingQuery })),
    response: z.lazy(() => listSchema("queue_members", memberResource)),
    handle({ params, query, request, services }) {
      const queue = findQueue(services, params, request.path);
      const now = services.context.clock.now();
      return twilioJson(
        200,
        listEnvelope({
          key: "queue_members",
          path: accountPath(queue.account_sid, `Queues/${queue.sid}/Members.json`),
          filters: [],
          page: query,
          records: services.context.store.queueMembers.where("queue", queue.sid),
          render: (m) => renderMember(services.context.store, m, now),
          sidOf: (m) => m.call_sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: member,
    surface: "account",
    summary: "Fetch a member by CallSid, or the caller at the front with `Front`",
    auth: { kind: "account", scope: "phone_calls_read" },
    response: memberResource,
    handle({ params, request, services }) {
      const found = findMember(services, params, request.path);
      return twilioJson(200, renderMember(services.context.store, found, services.context.clock.now()));
    },
  }),
  defineRoute({
    method: "POST",
    path: member,
    surface: "account",
    summary: "Dequeue a member (CallSid or Front): it leaves the line and its call runs the markup at Url",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: z.lazy(() =>
      z.object({
        Url: z
          .string({ error: "is required" })
          .pipe(formUrl)
          .refine((v) => v !== null, "is required"),
        Method: formMethod.optional(),
      }),
    ),
    errorCodes: { Url: 21205 },
    response: memberResource,
    handle({ params, body, request, services }) {
      const found = findMember(services, params, request.path);
      const rendered = renderMember(services.context.store, found, services.context.clock.now());
      services.calls.queues.dequeue(found, body.Url!, body.Method ?? "POST");
      return twilioJson(200, rendered);
    },
  }),
];
