// Admin: play a scenario (YAML in the body) in a fresh sandbox built like this one, and answer with its verdict.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";

const failure = z.lazy(() =>
  z.looseObject({
    where: z
      .string()
      .nullable()
      .describe("file:line:col of the expectation or step (the body is <request body>)"),
    path: z.string(),
    message: z.string(),
  }),
);

export const scenarioResultSchema = z.lazy(() =>
  z.looseObject({
    name: z.string(),
    file: z.string(),
    status: z.enum(["passed", "failed", "skipped", "error"]),
    skipReason: z.string().optional(),
    error: z.string().optional(),
    failures: z.array(failure),
    seed: z.union([z.number(), z.string()]),
    calls: z.record(z.string(), z.string()).describe("Call sids by the scenario's call ids"),
    simulatedMs: z.number(),
    wallMs: z.number(),
    trace: z.array(z.looseObject({ at: z.string(), kind: z.string(), url: z.string() })),
  }),
);

/** `name=ws://host:port`: one app of the scenario's `apps`. */
const appPair = z.lazy(() =>
  z
    .string()
    .regex(
      /^[A-Za-z][\w-]*=wss?:\/\/\S+$/,
      "must be name=ws://host:port (an app the scenario names, and its WebSocket URL)",
    ),
);

const query = z.lazy(() =>
  z.strictObject({
    target: z.url({ protocol: /^https?$/, error: "must be the http(s) base URL of your app" }).optional(),
    seed: z.string().min(1).optional(),
    keep: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
    live: z.enum(["true", "false"], { error: "must be true or false" }).optional(),
    app: z
      .union([appPair, z.array(appPair)])
      .optional()
      .describe(
        "A WebSocket app's URL for {apps.name} in the scenario's markup, as name=ws://host:port (repeatable)",
      ),
  }),
);

export const scenarioRoutes = [
  defineRoute({
    method: "POST",
    path: "/__sandbox/scenarios",
    surface: "admin",
    summary:
      "Play a scenario (YAML body) in a fresh sandbox on a virtual clock; ?target= your app, ?seed=, ?keep=true to load its final state here, ?live=true to play in this sandbox itself",
    auth: { kind: "admin" },
    // YAML under its registered and its common names, or JSON (a YAML document too); never text/plain.
    bodyTypes: ["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml", "application/json"],
    query,
    response: scenarioResultSchema,
    async handle({ request, query, services }) {
      if (!services.scenarios) throw errors.notFound(request.path);
      if (request.body.trim() === "")
        throw errors.unprocessable(
          "Send the scenario as the request body (YAML, Content-Type: application/yaml).",
        );
      const seed =
        query.seed === undefined ? undefined : /^\d+$/.test(query.seed) ? Number(query.seed) : query.seed;
      const apps =
        query.app === undefined
          ? undefined
          : Object.fromEntries([query.app].flat().map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
      const played = await services.scenarios.run(request.body, {
        target: query.target,
        apps,
        seed,
        keep: query.keep === "true",
        live: query.live === "true",
      });
      if (!played.loaded) throw errors.unprocessable(`The scenario does not load:\n${played.message}`);
      return jsonResponse(200, played.result);
    },
  }),
];
