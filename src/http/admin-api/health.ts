// Admin: health and version, the one admin route that never needs the admin token.
import { z } from "zod";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";

export const healthRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/health",
    surface: "admin",
    summary:
      "Health and version; status degraded (with the problems) while the data directory refuses writes",
    auth: { kind: "none" },
    response: z.lazy(() =>
      z.strictObject({
        status: z.enum(["ok", "degraded"]),
        name: z.literal("voice-sandbox"),
        version: z.string(),
        clock: z.strictObject({ mode: z.enum(["virtual", "real"]), now: z.iso.datetime() }),
        problems: z.array(z.strictObject({ component: z.string(), message: z.string() })).optional(),
      }),
    ),
    handle({ services }) {
      const { clock } = services.context;
      const problems = services.health?.problems() ?? [];
      // Degraded still answers 200: the sandbox serves reads, and a probe should see why rather than a bare failure.
      return jsonResponse(200, {
        status: problems.length === 0 ? "ok" : "degraded",
        name: "voice-sandbox",
        version: services.settings.version,
        clock: { mode: clock.mode, now: new Date(clock.now()).toISOString() },
        ...(problems.length === 0 ? {} : { problems }),
      });
    },
  }),
];
