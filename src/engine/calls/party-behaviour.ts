// The simulated other party of a call: how it answers, what it says and presses, when it hangs up; test numbers.
import { z } from "zod";
import { lineConditionsSchema } from "../media-streams/stream-line.js";
import { durationField as duration } from "../time/duration.js";
import { agentCueSchema, type Respond } from "./party-cue-schema.js";

/** Verbs a reactive step can wait for. */
export const listeningVerbs = ["Gather", "Record", "Say", "Play", "Pause", "Dial", "Connect"] as const;

/**
 * One thing the party does. Timing: `at` counts from the moment the party is connected (answer for a
 * callee, call start for a caller); `on` waits for the nth start of a verb on the call and then `after`.
 * A step with neither is consumed by the next Gather or Record that listens, `after` (default 1 s) later.
 */
export const partyStepSchema = z
  .strictObject({
    at: duration.optional(),
    on: z.strictObject({ verb: z.enum(listeningVerbs), nth: z.number().int().min(1).default(1) }).optional(),
    after: duration.optional(),
    /**
     * `talking`: the step waits, in its turn among the untimed steps, for a `<Connect>` app (media stream or
     * ConversationRelay) to start playing something to the caller, then `after` (default 1 s): speech then
     * cuts in while the agent talks.
     */
    agent: agentCueSchema.optional(),
    /** DTMF digits (0-9, *, #, A-D; w waits 0.5 s), pressed `gap` apart (default 300 ms). */
    press: z
      .string()
      .regex(/^[0-9*#A-Dw]+$/, "digits are 0-9, *, #, A-D and w (a half-second wait)")
      .optional(),
    gap: duration.optional(),
    /** Words spoken; `for` is how long they take (default: 400 ms a word). */
    say: z.string().min(1).optional(),
    for: duration.optional(),
    /** Speech recognition confidence reported for this utterance (default 0.92). */
    confidence: z.number().min(0).max(1).optional(),
    /**
     * A `say` said while the agent talks ("uh-huh"): the agent hears it, but it is no turn of the caller's
     * and no barge-in; the turn's metrics count it, and whether the agent stopped for it.
     */
    backchannel: z.literal(true).optional(),
    hangup: z.literal(true).optional(),
  })
  .refine((step) => [step.press, step.say, step.hangup].filter((v) => v !== undefined).length === 1, {
    message: "each step does exactly one of press, say or hangup",
  })
  .refine((step) => !(step.at !== undefined && step.on !== undefined), {
    message: "a step is timed by at (from connect) or by on (a verb), not both",
  })
  .refine((step) => step.backchannel === undefined || step.say !== undefined, {
    message: "backchannel is for a say step",
  })
  .refine((step) => step.agent === undefined || (step.at === undefined && step.on === undefined), {
    message: "a step is timed by agent (the agent starts talking), at or on: one of them",
  });
export type PartyStep = z.output<typeof partyStepSchema>;

export const partyOutcomes = ["answer", "busy", "no-answer", "failed", "decline"] as const;
export type PartyOutcome = (typeof partyOutcomes)[number];

/** Who or what picks up: what answering machine detection hears when the call is answered. */
export const partyKinds = ["person", "machine", "fax"] as const;
export type PartyKind = (typeof partyKinds)[number];

export const partyBehaviourSchema = z.strictObject({
  /** What the called party does with the call: answer (default), busy, never answer, fail, or decline. */
  outcome: z.enum(partyOutcomes).default("answer"),
  /** Who answers: a person (default), an answering machine, or a fax machine. */
  kind: z.enum(partyKinds).default("person"),
  /**
   * How long it speaks when it answers (default: a person 1 s, a machine 10 s); 0 answers in silence. Only
   * answering machine detection listens to it.
   */
  greeting: duration.optional(),
  /** A machine's greeting ends with a beep (default true). */
  beep: z.boolean().optional(),
  /**
   * A `sip:` endpoint's final response to the INVITE, at `answerAfter` (it decides the outcome): 200 answers,
   * 486 and 600 are busy, 408, 480, 487 and 603 go unanswered (no-answer), any other 4xx-6xx fails. A Dial's
   * action reports it as DialSipResponseCode.
   */
  sipResponseCode: z
    .union([z.literal(200), z.number().int().min(400).max(699)], {
      error: "must be 200 or a final error response from 400 to 699",
    })
    .optional(),
  /** When the phone starts ringing after dialling begins (default 1 s). */
  ringAfter: duration.optional(),
  /** When it answers, busies, declines or fails, after dialling begins (default 3 s). */
  answerAfter: duration.optional(),
  /** Hang up this long after connecting. */
  hangupAfter: duration.optional(),
  steps: z.array(partyStepSchema).default([]),
  /** The line the party calls from, as a media-stream app hears it: noise, lost frames, jitter (seeded). */
  line: lineConditionsSchema.optional(),
});
/** In-process only (a function is no JSON): a caller that is a function, asked each time the agent stops talking. */
interface Responder {
  respond?: Respond;
}
export type PartyBehaviour = z.output<typeof partyBehaviourSchema> & Responder;
export type PartyBehaviourInput = z.input<typeof partyBehaviourSchema> & Responder;

export const defaultRingAfterMs = 1000;
export const defaultAnswerAfterMs = 3000;
/** A dialled leg with no script hangs up this long after the bridge starts (a default conversation). */
export const defaultBridgeTalkMs = 60_000;

/**
 * Destinations with fixed behaviour (like Twilio's magic test numbers, here as callee behaviours).
 * Listed in docs/engine.md; any other number starts ringing at 1 s and answers at 3 s. No prototype: numbers
 * come from requests, and "constructor" must find nothing rather than Object's.
 */
export const testNumbers: Readonly<Record<string, PartyBehaviourInput>> = Object.assign(Object.create(null), {
  "+15005550001": { outcome: "failed", answerAfter: 0 },
  "+15005550002": { outcome: "busy", ringAfter: 1000, answerAfter: 2000 },
  "+15005550003": { outcome: "no-answer" },
  "+15005550004": { outcome: "answer", answerAfter: 2000, hangupAfter: 10_000 },
  "+15005550005": { outcome: "decline", ringAfter: 1000, answerAfter: 4000 },
  "+15005550006": { outcome: "answer", ringAfter: 0, answerAfter: 1000 },
});

export const defaultBehaviour: PartyBehaviour = partyBehaviourSchema.parse({});

export function parseBehaviour(input: PartyBehaviourInput): PartyBehaviour {
  const { respond, ...rest } = input;
  if (respond !== undefined && typeof respond !== "function")
    throw new TypeError("respond must be a function ({ agentSaid, turn }) => words | undefined");
  const parsed = partyBehaviourSchema.parse(rest);
  return respond ? { ...parsed, respond } : parsed;
}

/** What the party does with the call: its scripted SIP response decides, when it has one. */
export function outcomeOf(behaviour: PartyBehaviour): PartyOutcome {
  const code = behaviour.sipResponseCode;
  if (code === undefined) return behaviour.outcome;
  if (code === 200) return "answer";
  if (code === 486 || code === 600) return "busy";
  if ([408, 480, 487, 603].includes(code)) return "decline";
  return "failed";
}

/**
 * The final SIP response a leg ended its INVITE with, when its script named none: 200 once answered, 486
 * busy, 487 (Request Terminated) for an INVITE canceled unanswered, 603 declined, 503 failed.
 */
export function sipResponseFor(status: string): number {
  switch (status) {
    case "in-progress":
    case "completed":
      return 200;
    case "busy":
      return 486;
    case "failed":
      return 503;
    default:
      return 487;
  }
}

/** How long an utterance lasts when the script does not say (the same measure as a Say prompt). */
export { speechLengthMs } from "../../markup/speech-length.js";

/** What an unscripted caller says into a Record verb, so recordings and transcripts have content. */
export const defaultVoicemail = "Hello, this is a test message from the sandbox caller.";
/** What unscripted parties say on a recorded bridge: customer (channel 1) then agent (channel 2). */
export const defaultConversation = {
  agent: "Thank you for calling, how can I help you today?",
  customer: "Hi, I have a question about my account.",
};
