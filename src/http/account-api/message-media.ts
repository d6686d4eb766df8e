// A message's Media subresource: list, fetch and delete its media items, and their content (public unless media auth).
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { ownedBy } from "../../domain/found.js";
import type { Message, MessageMedia } from "../../domain/message.js";
import { deleteMedia } from "../../engine/messaging/message-media.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";

const collection = `${accountBase}/Messages/:MessageSid/Media`;
const instance = `${collection}/:Sid`;

/** Twilio's media resource (`api.v2010.account.message.media`). */
export const mediaResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    content_type: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    parent_sid: z.string(),
    sid: z.string(),
    uri: z.string(),
  }),
);

function renderMedia(message: Message, media: MessageMedia): z.infer<typeof mediaResource> {
  return {
    account_sid: message.account_sid,
    content_type: media.content_type,
    // A media item is made with its message and never changed.
    date_created: rfc2822(message.created_at),
    date_updated: rfc2822(message.created_at),
    parent_sid: message.sid,
    sid: media.sid,
    uri: accountPath(message.account_sid, `Messages/${message.sid}/Media/${media.sid}.json`),
  };
}

const findMessage = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.messages.get(params.MessageSid!), params.AccountSid!, path);

function findMedia(services: RouteServices, params: Record<string, string>, path: string) {
  const message = findMessage(services, params, path);
  const media = message.media.find((m) => m.sid === params.Sid);
  if (!media) throw errors.notFound(path);
  return { message, media };
}

/** The content's location: where the media came from (the sandbox keeps no copy of the bytes). */
const contentLocation = z.lazy(() =>
  z.string().describe("The media item's source: the MediaUrl it was sent with, or the inbound sender's file"),
);

export const messageMediaRoutes = [
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List a message's media items",
    auth: { kind: "account", scope: "messages_read" },
    query: z.lazy(() => z.object({ ...pagingQuery, ...dateFilterQuery("DateCreated") })),
    response: z.lazy(() => listSchema("media_list", mediaResource)),
    handle({ params, query, request, services }) {
      const message = findMessage(services, params, request.path);
      const created = dateFilter(query, "DateCreated");
      const records = created.matches(message.created_at) ? message.media : [];
      return twilioJson(
        200,
        listEnvelope({
          key: "media_list",
          path: accountPath(message.account_sid, `Messages/${message.sid}/Media.json`),
          filters: created.echo,
          page: query,
          records,
          render: (media) => renderMedia(message, media),
          sidOf: (media) => media.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary:
      "Fetch a media item (.json), or its content without an extension: a redirect to the file (public unless the account turns media auth on)",
    auth: { kind: "account", scope: "messages_read", publicMedia: true },
    response: mediaResource,
    redirect: { status: 302, location: contentLocation, description: "Without .json: the media's content" },
    handle({ params, request, services }) {
      const { message, media } = findMedia(services, params, request.path);
      if (!request.path.endsWith(".json")) {
        return {
          status: 302,
          headers: { location: media.url, "content-type": media.content_type },
          body: "",
        };
      }
      return twilioJson(200, renderMedia(message, media));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "account",
    summary: "Delete a media item (the message keeps its body and num_media)",
    auth: { kind: "account", scope: "messages_write" },
    status: 204,
    handle({ params, request, services }) {
      const { message, media } = findMedia(services, params, request.path);
      deleteMedia(services.context, message, media);
      return noContent();
    },
  }),
];
