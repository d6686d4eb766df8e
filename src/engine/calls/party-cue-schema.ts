// What a scripted caller's step may wait for from a `<Connect>` agent: its talking, its words, or a mark it sent.
import { z } from "zod";

/** Flags a `said` pattern may carry: the ones that change what matches (g, y and d would not, or would make it stateful). */
const patternFlags = /^(?!.*(.).*\1)[imsu]*$/;

/** `{ pattern, flags }`: the agent's words match this regular expression (JavaScript syntax); checked as it loads. */
const saidPatternSchema = z
  .strictObject({
    pattern: z.string().min(1, "said.pattern needs a regular expression"),
    flags: z.string().regex(patternFlags, "said.flags are i, m, s and u, each at most once").optional(),
  })
  .superRefine((p, ctx) => {
    if (p.flags !== undefined && !patternFlags.test(p.flags)) return;
    try {
      new RegExp(p.pattern, p.flags);
    } catch (error) {
      ctx.addIssue({
        code: "custom",
        path: ["pattern"],
        message: `said.pattern is not a valid regular expression: ${(error as Error).message}`,
      });
    }
  });

/**
 * What a `said` cue waits for: words the agent's contain (any case), a `{ pattern, flags }`, or (in-process)
 * a RegExp, kept as its `{ pattern, flags }` (g, y and d dropped) so a party's script stays plain data.
 */
const saidSchema = z.union([
  z.string().min(1, "said needs the words to wait for"),
  saidPatternSchema,
  z
    .instanceof(RegExp)
    .transform((r) => ({ pattern: r.source, flags: r.flags.replace(/[^imsu]/g, "") }))
    // Not in the JSON Schema (a RegExp is no JSON): nothing written in a file matches this branch.
    .meta({ not: {} }),
]);
export type SaidCue = z.output<typeof saidSchema>;

/**
 * `talking`: the step waits, in its turn among the untimed steps, for the app to start playing something
 * to the caller. `{ said }`: for the agent's words to contain this text (case-insensitive), or to match a
 * pattern (`{ pattern, flags }`, or a RegExp in-process): a ConversationRelay utterance as it starts to
 * play, a media stream's transcribed words (with a transcriber; without one, the end of the agent's
 * audio). `{ mark }`: for a media stream's mark of that name to be echoed (its audio has played). Then
 * `after` (default 1 s).
 */
export const agentCueSchema = z.union(
  [
    z.literal("talking"),
    z.strictObject({ said: saidSchema }),
    z.strictObject({ mark: z.string().min(1, "mark needs the mark's name") }),
  ],
  { error: 'agent is "talking", { said: "words" }, { said: { pattern, flags } } or { mark: "name" }' },
);
export type AgentCue = z.output<typeof agentCueSchema>;

/** Whether a cue waits for the agent's words or a mark (not for it to start talking). */
export const waitsForWords = (cue: AgentCue | undefined): cue is Exclude<AgentCue, "talking"> =>
  typeof cue === "object";

/** Whether `text` (what the agent said) satisfies a `said` cue: contains its words (any case), or matches its pattern. */
export const saidMatches = (cue: { said: SaidCue }, text: string): boolean =>
  typeof cue.said === "string"
    ? text.toLowerCase().includes(cue.said.toLowerCase())
    : new RegExp(cue.said.pattern, cue.said.flags).test(text);

/**
 * A caller that is a function (in-process only): what the caller says, given what the agent said since the
 * caller's last turn and this turn's number: words to say, "" to stay silent this time, undefined to hang up.
 */
export type Respond = (input: {
  agentSaid: string;
  turn: number;
}) => string | undefined | Promise<string | undefined>;
