// Admin: the media budget's gauge, what every bidirectional stream's queue of its app's audio and marks holds together.
import { z } from "zod";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";

export const mediaBudgetRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/streams/budget",
    surface: "admin",
    summary:
      "The media budget: what the bidirectional streams' queues of their apps' audio and marks hold together (bytes of mu-law and marks), the most they held, the budget and each open stream's share, what was dropped or shed past it",
    auth: { kind: "admin" },
    response: z.lazy(() =>
      z.strictObject({
        limit_bytes: z.number().int(),
        queued_bytes: z.number().int(),
        peak_bytes: z.number().int(),
        streams: z.number().int(),
        share_bytes: z.number().int(),
        dropped_messages: z.number().int(),
        shed_bytes: z.number().int(),
      }),
    ),
    handle({ services }) {
      const gauge = services.calls.streams.queued();
      return jsonResponse(200, {
        limit_bytes: gauge.limitBytes,
        queued_bytes: gauge.queuedBytes,
        peak_bytes: gauge.peakBytes,
        streams: gauge.streams,
        share_bytes: gauge.shareBytes,
        dropped_messages: gauge.droppedMessages,
        shed_bytes: gauge.shedBytes,
      });
    },
  }),
];
