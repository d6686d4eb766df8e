// Streams subresource of a call: start a unidirectional media stream on a live call, and stop one by sid or name.

import { z } from "zod";
import { errors } from "../../domain/errors.js";
import type { StreamRecord } from "../../engine/calls/stream-records.js";
import { socketUrl } from "../../engine/media-streams/socket-url.js";
import type { StreamSpec } from "../../markup/effects.js";
import { rfc2822 } from "../format.js";
import { twilioJson } from "../respond.js";
import { defineRoute } from "../route.js";
import { accountBase, accountPath } from "./base.js";
import { formMethod, formUrl } from "./form-fields.js";
import { callInPath } from "./path-call.js";

const collection = `${accountBase}/Calls/:CallSid/Streams`;
const instance = `${collection}/:Sid`;
/** Twilio takes custom parameters as `Parameter1.Name`/`Parameter1.Value` up to `Parameter99`. */
const maxParameters = 99;

/** Twilio's stream resource (`api.v2010.account.call.stream`). */
export const streamResource = z.lazy(() =>
  z.object({
    sid: z.string(),
    account_sid: z.string(),
    call_sid: z.string(),
    name: z.string().nullable(),
    status: z.enum(["in-progress", "stopped"]),
    date_updated: z.string(),
    uri: z.string(),
  }),
);

function renderStream(record: StreamRecord): z.infer<typeof streamResource> {
  return {
    sid: record.sid,
    account_sid: record.account_sid,
    call_sid: record.call_sid,
    name: record.name,
    status: record.status,
    date_updated: rfc2822(record.updated_at),
    uri: accountPath(record.account_sid, `Calls/${record.call_sid}/Streams/${record.sid}.json`),
  };
}

const createParams = z.lazy(() =>
  z
    .object({
      Url: z
        .string({ error: "is required" })
        // Twilio takes no relative URL and no other scheme here (the sandbox adds ws:// for local apps).
        .refine(
          (value) => /^wss?:\/\//i.test(value) && socketUrl(value, null) !== null,
          "must be an absolute wss:// (or ws://) URL",
        ),
      Name: z.string().max(64, "must be at most 64 characters").optional(),
      Track: z
        .enum(["inbound_track", "outbound_track", "both_tracks"], {
          error: "must be inbound_track, outbound_track or both_tracks",
        })
        .optional(),
      StatusCallback: formUrl.optional(),
      StatusCallbackMethod: formMethod.optional(),
    })
    // Parameter1.Name, Parameter1.Value, ... Parameter99.Value.
    .catchall(z.string()),
);

/** `Parameter{n}.Name`/`.Value` pairs, in order; a name without a value gets "". */
function customParameters(body: Record<string, string | undefined>): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (let n = 1; n <= maxParameters; n++) {
    const name = body[`Parameter${n}.Name`];
    if (name !== undefined && name !== "") parameters[name] = body[`Parameter${n}.Value`] ?? "";
  }
  return parameters;
}

export const streamRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "account",
    summary: "Start a unidirectional media stream of a live call to a WebSocket URL",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: createParams,
    errorCodes: { Url: 21205 },
    response: streamResource,
    handle({ params, body, request, services }) {
      const call = callInPath(services, params, request.path);
      const spec: StreamSpec = {
        url: socketUrl(body.Url, null)!.toString(),
        name: body.Name ?? null,
        track: body.Track ?? "inbound_track",
        statusCallback: body.StatusCallback ?? null,
        statusCallbackMethod: body.StatusCallbackMethod ?? "POST",
        parameters: customParameters(body),
        bidirectional: false,
      };
      return twilioJson(200, renderStream(services.calls.streams.start(call.sid, spec)));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Stop a stream (by its sid or its name) with Status=stopped",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: z.lazy(() => z.object({ Status: z.literal("stopped", { error: "must be stopped" }) })),
    response: streamResource,
    handle({ params, request, services }) {
      const call = callInPath(services, params, request.path);
      const stopped = services.calls.streams.stop(call.sid, params.Sid!);
      if (!stopped) throw errors.notFound(request.path);
      return twilioJson(200, renderStream(stopped));
    },
  }),
];
