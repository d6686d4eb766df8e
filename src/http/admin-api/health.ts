// Admin: health and version, the one admin route that never needs the admin token.
import { z } from "zod";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";

export const healthRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/health",
    surface: "admin",
    summary: "Health and version",
    auth: { kind: "none" },
    response: z.strictObject({
      status: z.literal("ok"),
      name: z.literal("voice-sandbox"),
      version: z.string(),
      clock: z.strictObject({ mode: z.enum(["virtual", "real"]), now: z.iso.datetime() }),
    }),
    handle({ services }) {
      const { clock } = services.context;
      return jsonResponse(200, {
        status: "ok",
        name: "voice-sandbox",
        version: services.settings.version,
        clock: { mode: clock.mode, now: new Date(clock.now()).toISOString() },
      });
    },
  }),
];
