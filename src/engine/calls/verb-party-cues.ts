// What the simulated party takes as its cue from the verbs: a verb starting, a Gather or Record listening, an app talking.
import type { MarkupNode } from "../../markup/parse.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { defaultVoicemail, speechLengthMs } from "./party-behaviour.js";
import { saidMatches, waitsForWords } from "./party-cue-schema.js";
import { keepAgentSaid, respondNow } from "./party-respond.js";

/**
 * A Gather or Record listens, or a `<Connect>` app stopped talking: the party's next untimed step answers
 * it (an unscripted caller leaves a message). A step waiting for the agent to talk waits on.
 */
export function listening(reg: CallRegistry, rt: CallRuntime, verb: string): void {
  const { parts, note, now, timer } = reg;
  if (verb === "Connect") {
    rt.agentTalking = false;
    note(rt, "agent.listening");
  }
  const next = rt.untimed[0];
  if (next?.agent === "talking") return;
  // A step waiting for words waits on, unless the agent's words cannot be known (a stream with no transcriber).
  if (waitsForWords(next?.agent) && !(verb === "Connect" && "said" in next.agent && !rt.agentWords)) return;
  rt.untimed.shift();
  if (next) {
    const pending = { step: next };
    // Only a Connect agent can start talking again before the step is due; then the step waits on.
    if (verb === "Connect") rt.pendingListen = pending;
    timer(rt, now() + (next.after ?? 1000), eventClass.input, "party step", () => {
      if (verb === "Connect" && rt.pendingListen !== pending) return;
      rt.pendingListen = null;
      return parts.party.runStep(rt, next);
    });
  } else if (verb === "Connect" && rt.behaviour.respond) {
    respondNow(reg, rt);
  } else if (!rt.scripted && verb === "Record") {
    // An unscripted caller leaves a short message, so recordings and transcripts have content.
    timer(rt, now() + 1000, eventClass.input, "default voicemail", () =>
      parts.party.speakNow(rt, defaultVoicemail, speechLengthMs(defaultVoicemail), 0.92),
    );
  }
}

/** A `<Connect>` app starts playing to the caller: a step waiting for that is scheduled, one waiting for quiet goes back. */
export function talking(reg: CallRegistry, rt: CallRuntime): void {
  rt.agentTalking = true;
  reg.note(rt, "agent.talking");
  if (rt.pendingListen) {
    rt.untimed.unshift(rt.pendingListen.step);
    rt.pendingListen = null;
  }
  const next = rt.untimed[0];
  if (next?.agent !== "talking") return;
  rt.untimed.shift();
  reg.timer(rt, reg.now() + (next.after ?? 1000), eventClass.input, "party step", () =>
    reg.parts.party.runStep(rt, next),
  );
}

/**
 * The agent said `heard.said` (an utterance's words) or had a mark echoed (`heard.mark`): a next step waiting
 * for those words (or that mark) is due `after` (default 1 s) from now.
 */
export function agentHeard(
  reg: CallRegistry,
  rt: CallRuntime,
  heard: { said: string } | { mark: string },
): void {
  if ("said" in heard) keepAgentSaid(rt, heard.said);
  const next = rt.untimed[0];
  const cue = next?.agent;
  if (!next || !waitsForWords(cue)) return;
  const hit =
    "said" in cue
      ? "said" in heard && saidMatches(cue, heard.said)
      : "mark" in heard && heard.mark === cue.mark;
  if (!hit) return;
  rt.untimed.shift();
  reg.note(rt, "party.cue", { ...cue });
  reg.timer(rt, reg.now() + (next.after ?? 1000), eventClass.input, "party step", () =>
    reg.parts.party.runStep(rt, next),
  );
}

/** A verb starts: party steps waiting for its nth start are armed. */
export function verbStarted(reg: CallRegistry, rt: CallRuntime, node: MarkupNode): void {
  const count = (rt.verbCounts.get(node.name) ?? 0) + 1;
  rt.verbCounts.set(node.name, count);
  for (const s of rt.behaviour.steps) {
    if (s.on?.verb === node.name && s.on.nth === count) {
      reg.timer(rt, reg.now() + (s.after ?? 0), eventClass.input, "party step", () =>
        reg.parts.party.runStep(rt, s),
      );
    }
  }
}
