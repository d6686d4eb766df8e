// What a scripted caller's step may wait for from a `<Connect>` agent: its talking, its words, or a mark it sent.
import { z } from "zod";

/**
 * `talking`: the step waits, in its turn among the untimed steps, for the app to start playing something
 * to the caller. `{ said }`: for the agent's words to contain this text (case-insensitive): a
 * ConversationRelay utterance as it starts to play, a media stream's transcribed words (with a
 * transcriber; without one, the end of the agent's audio). `{ mark }`: for a media stream's mark of that
 * name to be echoed (its audio has played). Then `after` (default 1 s).
 */
export const agentCueSchema = z.union(
  [
    z.literal("talking"),
    z.strictObject({ said: z.string().min(1, "said needs the words to wait for") }),
    z.strictObject({ mark: z.string().min(1, "mark needs the mark's name") }),
  ],
  { error: 'agent is "talking", { said: "words" } or { mark: "name" }' },
);
export type AgentCue = z.output<typeof agentCueSchema>;

/** Whether a cue waits for the agent's words or a mark (not for it to start talking). */
export const waitsForWords = (cue: AgentCue | undefined): cue is Exclude<AgentCue, "talking"> =>
  typeof cue === "object";

/** Whether `text` (what the agent said) satisfies a `said` cue. */
export const saidMatches = (cue: { said: string }, text: string): boolean =>
  text.toLowerCase().includes(cue.said.toLowerCase());

/**
 * A caller that is a function (in-process only): what the caller says, given what the agent said since the
 * caller's last turn and this turn's number: words to say, "" to stay silent this time, undefined to hang up.
 */
export type Respond = (input: {
  agentSaid: string;
  turn: number;
}) => string | undefined | Promise<string | undefined>;
