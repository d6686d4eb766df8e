// The caller's turns in a ConversationRelay session: prompts and keys to the app, the wait for its answer, and cutting the agent short.
import type { RelayInputs } from "../../markup/effects.js";
import { eventClass } from "../time/scheduler.js";
import { quietAgentMs } from "./agent-turns.js";
import { relayMessages } from "./relay-protocol.js";
import { cutPlaying } from "./relay-speech.js";
import { type RelayState, relayVirtual, sendToRelayApp } from "./relay-state.js";

/** Virtual clock: real milliseconds the clock waits for the app's first reply to a prompt or key... */
const replyStartMs = 1_000;
/** ...and for the rest of a reply once its first token came. */
const replyEndMs = 5_000;

/** Armed by the caller's prompt or key: an app that says nothing for a while lets the caller go on. */
function awaitAnswer(r: RelayState): void {
  const { scheduler } = r.host;
  scheduler.cancel(r.quiet);
  r.quiet = scheduler.after(quietAgentMs, eventClass.timer, `relay quiet ${r.sessionId}`, () => {
    r.quiet = null;
    if (r.state === "open" && !r.talking && !r.playing && r.queue.length === 0) r.host.listening();
  });
}

/**
 * Virtual clock: after a prompt or a key the clock waits for the app's answer (up to 1 s for it to
 * start and 5 s for its last token, real time), so an app that answers after an `await` still speaks
 * at the same sandbox instant run after run.
 */
function awaitReply(r: RelayState): void {
  if (!relayVirtual(r)) return;
  const since = r.received;
  r.host.scheduler.after(
    0,
    eventClass.input,
    `relay reply ${r.sessionId}`,
    () =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(start);
          clearTimeout(end);
          r.checks.delete(check);
          resolve();
        };
        const start = setTimeout(() => r.received === since && done(), replyStartMs);
        const end = setTimeout(done, replyEndMs);
        const check = () => {
          if (r.state !== "open" || (r.received > since && r.pending.length === 0)) done();
        };
        r.checks.add(check);
        check();
      }),
  );
}

/** The caller's words, recognised: the app hears them, unless they came while the agent talks on uncut. */
export function sendRelayPrompt(r: RelayState, text: string): void {
  if (r.state !== "open") return;
  const { host, sessionId } = r;
  // Words said while the agent talks on uncut are not reported unless reportInputDuringAgentSpeech says so.
  if (r.playing && !r.spec.reportInputDuringAgentSpeech.speech) {
    host.timeline("relay.ignored", { sessionId, text });
    return;
  }
  host.timeline("relay.prompt", { sessionId, text });
  sendToRelayApp(r, relayMessages.prompt(text, r.transcriptionLanguage));
  awaitReply(r);
  awaitAnswer(r);
}

/** The caller's speech or key cuts what the agent plays, if it may: the app hears what had been said by then. */
export function interruptAgent(r: RelayState, by: keyof RelayInputs): void {
  const { playing } = r;
  if (r.state !== "open" || !playing || playing.item.kind === "digits" || !playing.item.interruptible[by])
    return;
  const { said, elapsed } = cutPlaying(r, playing);
  r.queue.length = 0;
  // Quiet now, but the caller is still talking: the next step waits for the agent's answer to end.
  r.talking = false;
  r.host.timeline("relay.interrupt", { sessionId: r.sessionId, said, ms: elapsed, by });
  sendToRelayApp(r, relayMessages.interrupt(said, elapsed));
}

/** The caller pressed a key: it may cut the agent, and the app hears it if it detects keys. */
export function sendRelayDtmf(r: RelayState, digit: string): void {
  if (r.state !== "open") return;
  const { host, sessionId } = r;
  interruptAgent(r, "dtmf");
  if (!r.spec.dtmfDetection) return;
  if (r.playing && !r.spec.reportInputDuringAgentSpeech.dtmf) {
    host.timeline("relay.ignored", { sessionId, digit });
    return;
  }
  host.timeline("relay.dtmf", { sessionId, digit });
  sendToRelayApp(r, relayMessages.dtmf(digit));
  awaitReply(r);
  awaitAnswer(r);
}
