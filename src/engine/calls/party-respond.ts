// A caller that is a function: each time the `<Connect>` agent stops talking, the function says what the caller answers.
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { hangUp, speakNow } from "./party-actions.js";
import { speechLengthMs } from "./party-behaviour.js";
import type { Respond } from "./party-cue-schema.js";

export type { Respond };

/** What the agent said, kept for the next call of `respond` (the last words if it says a great deal). */
const maxAgentSaidChars = 16 * 1024;

/** Words of the agent's for the caller's function (a relay utterance, a stream's transcribed words). */
export function keepAgentSaid(rt: CallRuntime, text: string): void {
  if (!rt.behaviour.respond || !text) return;
  rt.agentSaid = `${rt.agentSaid} ${text}`.trim().slice(-maxAgentSaidChars);
}

const pauseMs = 1000;
type Outcome = { words: string | undefined } | { error: string } | { late: true };

/**
 * The agent stopped talking and the script has no step left: the function is asked, and its words are said
 * a second after the agent stopped. Virtual clock: time waits for it (at most agentTurnTimeout of real time;
 * later, or a throw, the caller stays silent this turn), so a run replays exactly. Real clock: nothing waits;
 * its words are said when they come (a second after the agent stopped at the earliest).
 */
export function respondNow(reg: CallRegistry, rt: CallRuntime): void {
  const respond = rt.behaviour.respond;
  if (!respond || rt.finishing) return;
  rt.responds++;
  const input = { agentSaid: rt.agentSaid, turn: rt.responds };
  rt.agentSaid = "";
  const start = reg.now();
  const timeoutMs = reg.parts.streams.agentTurnTimeout.get();
  reg.note(rt, "party.respond", input);
  const asked = Promise.resolve()
    .then(() => respond(input))
    .then(
      (words): Outcome =>
        words === undefined || typeof words === "string"
          ? { words }
          : { error: `respond answered ${typeof words}, not words` },
      (error: unknown): Outcome => ({ error: error instanceof Error ? error.message : String(error) }),
    );
  const apply = (outcome: Outcome) => {
    if (reg.runtime(rt.sid) !== rt || rt.finishing) return;
    if ("late" in outcome) reg.note(rt, "party.respond-late", { turn: input.turn, waitedMs: timeoutMs });
    else if ("error" in outcome)
      reg.note(rt, "party.respond-failed", { turn: input.turn, error: outcome.error });
    else if (outcome.words === undefined) hangUp(reg, rt);
    else if (outcome.words.trim() !== "") {
      const words = outcome.words.trim();
      speakNow(reg, rt, words, speechLengthMs(words), 0.92);
    }
  };
  const at = (outcome: Outcome) =>
    reg.timer(rt, Math.max(reg.now(), start + pauseMs), eventClass.input, "party respond", () =>
      apply(outcome),
    );
  if (reg.services.ctx.clock.mode !== "virtual") {
    void asked.then(at);
    return;
  }
  reg.timer(rt, start, eventClass.input, "party respond wait", async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ late: true }), timeoutMs);
    });
    const outcome = await Promise.race([asked, late]);
    clearTimeout(timer);
    at(outcome);
  });
}
