// Admin: reset to the fixtures (or to empty), and the whole state as a snapshot to read or restore.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";
import { sandboxSnapshotSchema } from "./snapshot-schema.js";

export const stateRoutes = [
  defineRoute({
    method: "POST",
    path: "/__sandbox/reset",
    surface: "admin",
    summary: "Reset the sandbox to its fixtures (default) or to empty",
    auth: { kind: "admin" },
    body: z.strictObject({ to: z.enum(["fixtures", "empty"]).default("fixtures") }),
    response: z.strictObject({ reset: z.enum(["fixtures", "empty"]) }),
    handle({ body, services }) {
      services.admin.reset(body.to);
      return jsonResponse(200, { reset: body.to });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/__sandbox/state",
    surface: "admin",
    summary: "The whole state as a JSON snapshot",
    auth: { kind: "admin" },
    response: sandboxSnapshotSchema,
    handle({ services }) {
      return jsonResponse(200, services.admin.snapshot());
    },
  }),
  defineRoute({
    method: "PUT",
    path: "/__sandbox/state",
    surface: "admin",
    summary: "Replace the whole state with a snapshot taken by GET /__sandbox/state",
    auth: { kind: "admin" },
    body: z.unknown(),
    response: z.strictObject({ restored: z.literal(true) }),
    handle({ body, services }) {
      try {
        services.admin.restore(body);
      } catch (error) {
        throw errors.unprocessable(
          `The snapshot was refused and nothing changed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return jsonResponse(200, { restored: true });
    },
  }),
];
