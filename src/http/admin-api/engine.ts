// Admin: drive the call engine from outside: ring a number, script a party, watch a call, finish transcriptions.
import { z } from "zod";
import { clientAddressPattern } from "../../domain/call.js";
import { errors } from "../../domain/errors.js";
import { httpUrl } from "../../domain/fields.js";
import { messageRecipient } from "../../domain/message-address.js";
import { transcriptionSchema, transcriptionSegmentSchema } from "../../domain/transcription.js";
import type { CallEngine } from "../../engine/calls/call-engine.js";
import {
  listeningVerbs,
  partyBehaviourSchema,
  partyKinds,
  partyOutcomes,
} from "../../engine/calls/party-behaviour.js";
import { callResource, renderCall } from "../account-api/calls.js";
import { messageResource, renderMessage } from "../account-api/messages.js";
import { iso8601 } from "../format.js";

const isoMs = (ms: number) => new Date(ms).toISOString();

import { jsonResponse, noContent } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { adminPathParams } from "./path-params.js";

const e164 = z.lazy(() =>
  z.string().regex(/^\+[1-9]\d{1,14}$/, "must be an E.164 number such as +14155550100"),
);

const liveCall = (services: RouteServices, sid: string, path: string) => {
  if (!services.context.store.calls.has(sid)) throw errors.notFound(path);
  return sid;
};

const at = z.lazy(() => z.iso.datetime());

/** A party script as the engine keeps it: durations read into milliseconds, defaults filled in. */
const partyStepView = z.lazy(() =>
  z.strictObject({
    at: z.number().int().optional(),
    on: z.strictObject({ verb: z.enum(listeningVerbs), nth: z.number().int() }).optional(),
    after: z.number().int().optional(),
    press: z.string().optional(),
    gap: z.number().int().optional(),
    say: z.string().optional(),
    for: z.number().int().optional(),
    confidence: z.number().optional(),
    hangup: z.literal(true).optional(),
  }),
);
const numberBehaviour = z.lazy(() =>
  z.strictObject({
    number: z.string(),
    behaviour: z.strictObject({
      outcome: z.enum(partyOutcomes),
      kind: z.enum(partyKinds),
      greeting: z.number().int().optional(),
      beep: z.boolean().optional(),
      sipResponseCode: z.number().int().optional(),
      ringAfter: z.number().int().optional(),
      answerAfter: z.number().int().optional(),
      hangupAfter: z.number().int().optional(),
      steps: z.array(partyStepView),
    }),
  }),
);

const alertView = z.lazy(() =>
  z.strictObject({
    at,
    callSid: z.string(),
    code: z.number().int(),
    level: z.enum(["error", "warning"]),
    message: z.string(),
  }),
);

/** What the admin API shows of a finished transcription (the account API's resource has the rest). */
const transcriptionOutcome = z.lazy(() =>
  transcriptionSchema
    .pick({
      sid: true,
      recording_sid: true,
      call_sid: true,
      status: true,
      text: true,
      segments: true,
      provider: true,
    })
    .strict(),
);

const renderTranscription = (
  t: NonNullable<ReturnType<CallEngine["transcriptions"]["complete"]>>,
): z.output<typeof transcriptionOutcome> => ({
  sid: t.sid,
  recording_sid: t.recording_sid,
  call_sid: t.call_sid,
  status: t.status,
  text: t.text,
  segments: t.segments,
  provider: t.provider,
});

export const engineRoutes = [
  defineRoute({
    method: "POST",
    path: "/__sandbox/calls/inbound",
    surface: "admin",
    summary:
      "Ring an incoming number from outside (the engine fetches its voice_url and runs the answer), or place a Voice SDK client's call (from client:<identity>) through an application",
    auth: { kind: "admin" },
    status: 201,
    response: callResource,
    body: z.lazy(() =>
      z
        .strictObject({
          from: z.union([e164, z.string().regex(clientAddressPattern, "must be client: and an identity")]),
          /** The number rung; for a client's call, the To it asks its application for (optional). */
          to: z
            .union([e164, z.string().regex(clientAddressPattern, "must be client: and an identity")])
            .optional(),
          /** A client's call: the application (TwiML App) that answers it. */
          application_sid: z
            .string()
            .regex(/^AP[0-9a-f]{32}$/, "must be AP and 32 hex digits")
            .optional(),
          caller: partyBehaviourSchema.optional(),
          caller_name: z.string().optional(),
          forwarded_from: z.string().optional(),
        })
        .refine((body) => body.application_sid !== undefined || body.to !== undefined, {
          message:
            "to is required (the incoming number to ring), unless application_sid places a client's call",
          path: ["to"],
        })
        .refine((body) => !body.from.startsWith("client:") || body.application_sid !== undefined, {
          message: "a client's call goes through an application: give application_sid",
          path: ["application_sid"],
        }),
    ),
    handle({ body, services }) {
      const call = services.calls.ring({
        from: body.from,
        to: body.to ?? "",
        applicationSid: body.application_sid,
        caller: body.caller,
        callerName: body.caller_name,
        forwardedFrom: body.forwarded_from,
      });
      return jsonResponse(201, renderCall(call));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/__sandbox/calls/:CallSid/timeline",
    params: adminPathParams.call,
    surface: "admin",
    summary:
      "What happened on a call: status changes, verbs, inputs, requests, what the caller heard, alerts",
    auth: { kind: "admin" },
    response: z.lazy(() =>
      z.strictObject({
        call_sid: z.string(),
        timeline: z.array(
          z.strictObject({ at, kind: z.string(), detail: z.record(z.string(), z.unknown()) }),
        ),
        heard: z.array(
          z.strictObject({
            at,
            kind: z.enum(["say", "play", "beep", "digits", "error-prompt"]),
            text: z.string().optional(),
            url: z.string().optional(),
            voice: z.string().optional(),
            language: z.string().optional(),
          }),
        ),
        alerts: z.array(alertView),
      }),
    ),
    handle({ params, request, services }) {
      const sid = liveCall(services, params.CallSid!, request.path);
      const engine = services.calls;
      return jsonResponse(200, {
        call_sid: sid,
        // Milliseconds kept: the engine times in them (a 20 ms frame, an interrupt 400 ms into an utterance).
        timeline: engine.timeline(sid).map((e) => ({ at: isoMs(e.at), kind: e.kind, detail: e.detail })),
        heard: engine.heard(sid).map((e) => ({ ...e, at: isoMs(e.at) })),
        alerts: engine.alerts(sid).map((a) => ({ ...a, at: iso8601(a.at) })),
      });
    },
  }),
  defineRoute({
    method: "POST",
    path: "/__sandbox/calls/:CallSid/input",
    params: adminPathParams.call,
    surface: "admin",
    summary: "Make the simulated party on a live call press digits or say something now",
    auth: { kind: "admin" },
    body: z.lazy(() =>
      z
        .strictObject({
          press: z
            .string()
            .regex(/^[0-9*#A-Dw]+$/)
            .optional(),
          say: z.string().min(1).optional(),
        })
        .refine((b) => (b.press === undefined) !== (b.say === undefined), { message: "give press or say" }),
    ),
    // Accepted, not done: the party acts on the engine's next step.
    status: 202,
    response: z.lazy(() =>
      z.strictObject({
        call_sid: z.string(),
        queued: z.union([z.strictObject({ press: z.string() }), z.strictObject({ say: z.string() })]),
      }),
    ),
    handle({ params, request, body, services }) {
      const sid = liveCall(services, params.CallSid!, request.path);
      if (body.press !== undefined) services.calls.press(sid, body.press);
      else services.calls.speak(sid, body.say!);
      return jsonResponse(202, { call_sid: sid, queued: body });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/__sandbox/numbers/:Number/behaviour",
    params: adminPathParams.number,
    surface: "admin",
    summary: "How a number behaves when the sandbox calls it (its script, a test number's, or the default)",
    auth: { kind: "admin" },
    response: numberBehaviour,
    handle({ params, services }) {
      const number = params.Number!;
      return jsonResponse(200, { number, behaviour: services.calls.party(number) });
    },
  }),
  defineRoute({
    method: "PUT",
    path: "/__sandbox/numbers/:Number/behaviour",
    params: adminPathParams.number,
    surface: "admin",
    summary: "Script how a number behaves: answer or not, when, what it says and presses, when it hangs up",
    auth: { kind: "admin" },
    body: z.lazy(() => z.unknown()),
    response: numberBehaviour,
    handle({ params, body, services }) {
      const number = params.Number!;
      const parsed = partyBehaviourSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw errors.unprocessable(`behaviour.${issue.path.join(".") || "(root)"}: ${issue.message}`);
      }
      return jsonResponse(200, { number, behaviour: services.calls.setParty(number, body as never) });
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/__sandbox/numbers/:Number/behaviour",
    params: adminPathParams.number,
    surface: "admin",
    summary: "Forget a number's script (test numbers and the default apply again)",
    auth: { kind: "admin" },
    status: 204,
    handle({ params, services }) {
      services.calls.clearParty(params.Number!);
      return noContent();
    },
  }),
  defineRoute({
    method: "POST",
    path: "/__sandbox/transcriptions/:Sid/:Outcome",
    params: adminPathParams.transcription,
    surface: "admin",
    summary:
      "Finish a pending transcription now: complete (from the recording's speech, or with the given text or segments) or fail",
    auth: { kind: "admin" },
    body: z.lazy(() =>
      z.strictObject({
        text: z.string().optional(),
        segments: z.array(transcriptionSegmentSchema).optional(),
      }),
    ),
    response: transcriptionOutcome,
    async handle({ params, body, request, services }) {
      const outcome =
        params.Outcome === "complete" ? "completed" : params.Outcome === "fail" ? "failed" : null;
      if (!outcome) throw errors.notFound(request.path);
      const engine = services.calls;
      const given = body.text !== undefined || body.segments !== undefined;
      if (given && outcome === "failed") {
        throw errors.invalidParameter(
          "text",
          "A failed transcription has no text or segments; leave them out.",
        );
      }
      const done = engine.transcriptions.complete(params.Sid!, outcome, given ? body : undefined);
      if (!done) {
        if (!services.context.store.transcriptions.has(params.Sid!)) throw errors.notFound(request.path);
        throw errors.notPending("transcription", params.Sid!);
      }
      return jsonResponse(200, renderTranscription(done));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/__sandbox/messages/inbound",
    surface: "admin",
    summary:
      "Send an SMS or MMS to an incoming number (or a WhatsApp message, whatsapp:+... to a WhatsApp sender): recorded as received, posted to its sms_url (media as MediaUrl{N} and MediaContentType{N}), replies sent",
    auth: { kind: "admin" },
    status: 201,
    response: messageResource,
    body: z.lazy(() =>
      z.strictObject({
        from: messageRecipient,
        to: messageRecipient,
        body: z.string().max(1600),
        /** A WhatsApp user's profile name, posted as ProfileName. */
        profile_name: z.string().max(256).optional(),
        /** Where each media item is, as an inbound MMS names it: http(s) only, as the inspector links it. */
        media_urls: z.array(httpUrl).max(10).optional(),
        /** Each media item's content type, in the order of media_urls; else read off each URL's extension. */
        media_content_types: z
          .array(z.string().regex(/^[a-z]+\/[A-Za-z0-9.+-]+$/, "must be a media type such as image/jpeg"))
          .max(10)
          .optional(),
      }),
    ),
    handle({ body, services }) {
      const message = services.calls.messages.receive({
        from: body.from,
        to: body.to,
        body: body.body,
        mediaUrls: body.media_urls,
        mediaContentTypes: body.media_content_types,
        profileName: body.profile_name,
      });
      return jsonResponse(201, renderMessage(message));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/__sandbox/alerts",
    surface: "admin",
    summary: "Markup and call errors (Twilio's notifications): code, call, message, time",
    auth: { kind: "admin" },
    query: z.lazy(() => z.strictObject({ call_sid: z.string().optional() })),
    response: z.lazy(() => z.strictObject({ alerts: z.array(alertView) })),
    handle({ query, services }) {
      const alerts = services.calls.alerts(query.call_sid);
      return jsonResponse(200, { alerts: alerts.map((a) => ({ ...a, at: iso8601(a.at) })) });
    },
  }),
];
