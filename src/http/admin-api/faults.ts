// Admin: inject faults. Error statuses or delays on API requests, failing transcriptions, numbers that fail calls.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { type Fault, type FaultInput, numberFaultOutcomes } from "../../engine/context/fault-types.js";
import { durationField } from "../../engine/time/duration.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";
import { adminPathParams } from "./path-params.js";

const limits = {
  count: z
    .number()
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .optional()
    .describe("Apply to this many matching requests (or events), then expire"),
  for: durationField.optional().describe('Apply for this long on the sandbox clock, e.g. "30s"'),
};

const httpFault = z.lazy(() =>
  z
    .strictObject({
      kind: z.literal("http").optional(),
      method: z
        .string()
        .regex(/^[A-Za-z]+$|^\*$/, "must be an HTTP method such as GET, or *")
        .optional(),
      path: z
        .string()
        .startsWith("/", "must be a path glob starting with /, e.g. /2010-04-01/Accounts/*/Calls*"),
      status: z
        .number()
        .int()
        .min(400, "must be an error status, 400 to 599")
        .max(599, "must be an error status, 400 to 599")
        .optional(),
      delay: durationField.optional().describe("Wait this long (real time) before answering"),
      message: z.string().max(500).optional(),
      ...limits,
    })
    .refine((f) => f.status !== undefined || f.delay !== undefined, {
      message: "give a status, a delay, or both",
      path: ["status"],
    }),
);

const transcriptionFault = z.lazy(() =>
  z.strictObject({
    kind: z.literal("transcription"),
    outcome: z.literal("fail", { error: 'must be "fail"' }),
    call_sid: z.string().optional().describe("Only transcriptions of this call"),
    ...limits,
  }),
);

const numberFault = z.lazy(() =>
  z.strictObject({
    kind: z.literal("number"),
    number: z.string().regex(/^\+[1-9]\d{1,14}$/, "must be an E.164 number such as +14155550100"),
    outcome: z.enum(numberFaultOutcomes, { error: `must be one of ${numberFaultOutcomes.join(", ")}` }),
    ...limits,
  }),
);

const faultBody = z.lazy(() =>
  z.discriminatedUnion("kind", [httpFault, transcriptionFault, numberFault], {
    error: 'must be "http" (the default), "transcription" or "number"',
  }),
);

const faultSchema = z.lazy(() =>
  z.object({
    id: z.string(),
    kind: z.enum(["http", "transcription", "number"]),
    method: z.string().optional(),
    path: z.string().optional(),
    status: z.number().int().optional(),
    delay_ms: z.number().optional(),
    message: z.string().optional(),
    call_sid: z.string().optional(),
    number: z.string().optional(),
    outcome: z.string().optional(),
    remaining: z.number().int().optional().describe("Uses left; absent means no limit"),
    until: z.string().optional().describe("Sandbox time the fault expires; absent means no limit"),
    created_at: z.string(),
  }),
);

const renderFault = (fault: Fault) => {
  const { created_at, until, ...rest } = fault;
  return {
    ...rest,
    ...(until !== undefined ? { until: new Date(until).toISOString() } : {}),
    created_at: new Date(created_at).toISOString(),
  };
};

function toInput(body: z.output<typeof faultBody>): FaultInput {
  const { count, for: forMs } = body;
  const limit = { ...(count !== undefined ? { count } : {}), ...(forMs !== undefined ? { forMs } : {}) };
  if (body.kind === "transcription") {
    return {
      kind: "transcription",
      outcome: "fail",
      ...(body.call_sid ? { call_sid: body.call_sid } : {}),
      ...limit,
    };
  }
  if (body.kind === "number") return { kind: "number", number: body.number, outcome: body.outcome, ...limit };
  const method = body.method === undefined || body.method === "*" ? undefined : body.method.toUpperCase();
  return {
    kind: "http",
    path: body.path,
    ...(method ? { method } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(body.delay !== undefined ? { delay_ms: body.delay } : {}),
    ...(body.message !== undefined ? { message: body.message } : {}),
    ...limit,
  };
}

export const faultRoutes = [
  defineRoute({
    method: "POST",
    path: "/__sandbox/faults",
    surface: "admin",
    summary:
      "Inject a fault: an error status or delay on matching API requests, a failing transcription, or a number that fails calls",
    auth: { kind: "admin" },
    body: faultBody,
    status: 201,
    response: faultSchema,
    handle({ body, services }) {
      const { faults, clock } = services.context;
      if (!faults) throw errors.stateConflict("This sandbox has no fault registry.");
      return jsonResponse(201, renderFault(faults.add(toInput(body), clock.now())));
    },
  }),
  defineRoute({
    method: "GET",
    path: "/__sandbox/faults",
    surface: "admin",
    summary: "The faults in force",
    auth: { kind: "admin" },
    response: z.lazy(() => z.object({ faults: z.array(faultSchema) })),
    handle({ services }) {
      const { faults, clock } = services.context;
      return jsonResponse(200, { faults: (faults?.list(clock.now()) ?? []).map(renderFault) });
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/__sandbox/faults",
    surface: "admin",
    summary: "Remove every fault",
    auth: { kind: "admin" },
    response: z.lazy(() => z.object({ cleared: z.literal(true) })),
    handle({ services }) {
      services.context.faults?.clear();
      return jsonResponse(200, { cleared: true });
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/__sandbox/faults/:FaultId",
    params: adminPathParams.fault,
    surface: "admin",
    summary: "Remove one fault",
    auth: { kind: "admin" },
    response: z.lazy(() => z.object({ removed: z.string() })),
    handle({ params, request, services }) {
      if (!services.context.faults?.remove(params.FaultId!)) throw errors.notFound(request.path);
      return jsonResponse(200, { removed: params.FaultId });
    },
  }),
];
