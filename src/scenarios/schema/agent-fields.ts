// The `agent` expectation: bounds on a <Connect> agent's conversation metrics (turns, response latency, barge-in stop...).
import { z } from "zod";
import { parsedBy } from "../../domain/fields.js";
import { parseDuration } from "../../engine/time/duration.js";
import { callIdField } from "./fields.js";
import { strictFields } from "./strict-fields.js";

export type BoundOp = "<" | "<=" | ">" | ">=" | "=";

/** A bound as a file writes it, read: the comparison, its value (ms or a count), and the text to show. */
export interface Bound {
  op: BoundOp;
  value: number;
  text: string;
}

const comparison = /^\s*(<=|>=|==|<|>|=)?\s*(.+?)\s*$/;

/** Reads "< 800ms", ">= 2", "1s" (exactly) or a number (exactly) as a bound; throws a message showing the forms. */
function parseBound(input: string | number, kind: "duration" | "count"): Bound {
  if (typeof input === "number") return { op: "=", value: readValue(input, kind), text: String(input) };
  const m = comparison.exec(input);
  if (!m) throw new Error(boundHelp(kind));
  const op = (m[1] === "==" ? "=" : (m[1] ?? "=")) as BoundOp;
  return { op, value: readValue(m[2]!, kind), text: input.trim() };
}

function readValue(value: string | number, kind: "duration" | "count"): number {
  if (kind === "duration") {
    try {
      return parseDuration(value);
    } catch {
      throw new Error(boundHelp(kind));
    }
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(boundHelp(kind));
  return n;
}

const boundHelp = (kind: "duration" | "count") =>
  kind === "duration"
    ? 'must be a duration ("800ms": exactly) or a comparison with one, such as "< 800ms", "<= 1s" or ">= 200ms"'
    : 'must be a whole number (exactly) or a comparison with one, such as "<= 3" or ">= 1"';

/** Whether `actual` is within the bound. */
export function withinBound(bound: Bound, actual: number): boolean {
  switch (bound.op) {
    case "<":
      return actual < bound.value;
    case "<=":
      return actual <= bound.value;
    case ">":
      return actual > bound.value;
    case ">=":
      return actual >= bound.value;
    case "=":
      return actual === bound.value;
  }
}

const boundOf = (kind: "duration" | "count") =>
  z
    .union([z.number(), z.string()], { error: boundHelp(kind) })
    .transform(parsedBy((value: string | number) => parseBound(value, kind)));

const durationBound = boundOf("duration");
const countBound = boundOf("count");

/** Bounds on a spread of durations over the turns: the smallest, the median, the 95th and 99th percentiles, the largest. */
const spreadBounds = (what: string) =>
  strictFields(what, {
    min: durationBound.optional(),
    p50: durationBound.optional(),
    p95: durationBound.optional(),
    p99: durationBound.optional(),
    max: durationBound.optional(),
  });

export const agentExpectationSchema = strictFields("agent", {
  call: callIdField
    .optional()
    .describe("Only this call's turns (default: the turns of every call of the scenario, together)."),
  turns: countBound.optional().describe('The caller\'s turns (words or keys), e.g. 3 or ">= 3".'),
  answered: countBound.optional().describe("Turns the app answered (sent something after)."),
  unanswered: countBound
    .optional()
    .describe("Turns the app owed an answer to and did not send one within agent_turn_timeout."),
  late: countBound.optional().describe("Turns the app answered only after the sandbox stopped waiting."),
  response_latency: spreadBounds("response_latency")
    .optional()
    .describe(
      "The end of the caller's turn to the agent's first audio (or first text token), over the turns it answered, e.g. { p95: \"< 800ms\" }.",
    ),
  barge_ins: countBound.optional().describe("Turns in which the caller started over the agent."),
  barge_in_stop: spreadBounds("barge_in_stop")
    .optional()
    .describe(
      "The caller starting over the agent to the agent's audio stopping (the app's clear, the relay's interruption), over the barge-ins; one the agent never stopped for fails any bound but min.",
    ),
  backchannels: countBound
    .optional()
    .describe("Backchannels the caller said while the agent talked (speak steps with backchannel: true)."),
  backchannel_stops: countBound
    .optional()
    .describe(
      'Backchannels the agent cut its audio for (clear, interruption) while one sounded or within 1s after: 0 for an agent that talks on through "uh-huh".',
    ),
  talk_over: strictFields("talk_over", {
    total: durationBound.optional(),
    max: durationBound.optional().describe("In the worst turn."),
  })
    .optional()
    .describe("How long the caller and the agent sounded at once."),
  speaking: durationBound.optional().describe("How long the agent's audio played, in all."),
  longest_silence: durationBound.optional().describe("The longest stretch in which neither sounded."),
  silences: strictFields("silences", {
    longer_than: z
      .union([z.number(), z.string()])
      .transform(parsedBy(parseDuration))
      .describe("Stretches of silence longer than this are counted."),
    count: countBound,
  })
    .optional()
    .describe("Silences (neither sounds) longer than a threshold, e.g. { longer_than: 2s, count: 0 }."),
});

export type AgentExpectation = z.output<typeof agentExpectationSchema>;

export const agentExpectationsSchema = z
  .union([agentExpectationSchema, z.array(agentExpectationSchema).min(1)])
  .describe(
    "Bounds on <Connect> agents' conversation metrics (media streams and ConversationRelay), for one call or every call; a list checks several.",
  );
