// Admin: the sandbox clock. Read it, switch it between real and virtual time, advance it, run it until idle.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import type { Clock } from "../../engine/time/clock.js";
import { durationField } from "../../engine/time/duration.js";
import type { SwitchableClock } from "../../engine/time/switchable-clock.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";

export const clockStateSchema = z.lazy(() =>
  z.object({
    now: z.string().describe("Sandbox time, ISO 8601"),
    mode: z.enum(["real", "virtual"]),
    pending_timers: z.number().int().describe("Scheduled work not yet run (call progress, deliveries...)"),
  }),
);

const clockState = (clock: Clock) => ({
  now: new Date(clock.now()).toISOString(),
  mode: clock.mode,
  pending_timers: clock.pending(),
});

const isSwitchable = (clock: Clock): clock is SwitchableClock =>
  typeof (clock as Partial<SwitchableClock>).switchTo === "function";

/** Moving time by hand is for the virtual clock; real time cannot be hurried. */
function virtualOnly(clock: Clock, what: string) {
  if (clock.mode !== "virtual") {
    throw errors.stateConflict(
      `The clock is real, so it cannot ${what}. Switch it first: POST /__sandbox/clock {"mode": "virtual"}.`,
    );
  }
}

export const clockRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/clock",
    surface: "admin",
    summary: "The sandbox clock: time and mode",
    auth: { kind: "admin" },
    response: clockStateSchema,
    handle: ({ services }) => jsonResponse(200, clockState(services.context.clock)),
  }),
  defineRoute({
    method: "POST",
    path: "/__sandbox/clock",
    surface: "admin",
    summary: "Switch the clock between real and virtual time; time never goes backwards and timers stay",
    auth: { kind: "admin" },
    body: z.lazy(() =>
      z.strictObject({ mode: z.enum(["real", "virtual"], { error: 'must be "real" or "virtual"' }) }),
    ),
    response: clockStateSchema,
    handle({ body, services }) {
      const { clock } = services.context;
      if (!isSwitchable(clock))
        throw errors.stateConflict("This sandbox was given a clock that cannot switch modes.");
      clock.switchTo(body.mode);
      return jsonResponse(200, clockState(clock));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/__sandbox/clock/advance",
    surface: "admin",
    summary: "Virtual clock: move time forward, running the work that falls due on the way",
    auth: { kind: "admin" },
    body: z.lazy(() => z.strictObject({ by: durationField })),
    response: clockStateSchema,
    async handle({ body, services }) {
      const { clock } = services.context;
      virtualOnly(clock, "be advanced");
      await clock.advance(body.by);
      return jsonResponse(200, clockState(clock));
    },
  }),
  defineRoute({
    method: "POST",
    path: "/__sandbox/clock/run_until_idle",
    surface: "admin",
    summary: "Virtual clock: run scheduled work until none is left (or `max` of clock time has passed)",
    auth: { kind: "admin" },
    body: z.lazy(() => z.strictObject({ max: durationField.optional() })),
    response: clockStateSchema,
    async handle({ body, services }) {
      const { clock } = services.context;
      virtualOnly(clock, "run until idle");
      await clock.runUntilIdle(body.max);
      return jsonResponse(200, clockState(clock));
    },
  }),
];
