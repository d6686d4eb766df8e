// The caller's turns in a ConversationRelay session: prompts and keys to the app, the wait for its answer, and cutting the agent short.
import type { RelayInputs } from "../../markup/effects.js";
import { eventClass } from "../time/scheduler.js";
import { quietAgentMs, realNow } from "./agent-turns.js";
import { relayMessages } from "./relay-protocol.js";
import { cutPlaying } from "./relay-speech.js";
import { type RelayState, relayVirtual, sendToRelayApp } from "./relay-state.js";

/** Armed by the caller's prompt or key: an app that says nothing for a while lets the caller go on. */
function awaitAnswer(r: RelayState): void {
  const { scheduler } = r.host;
  scheduler.cancel(r.quiet);
  r.quiet = scheduler.after(quietAgentMs, eventClass.timer, `relay quiet ${r.sessionId}`, () => {
    r.quiet = null;
    if (r.state === "open" && !r.talking && !r.playing && r.queue.length === 0) r.host.listening();
  });
}

/** The app does not answer the turn it owes: noted, and the wait is over. */
function notAnswered(r: RelayState, owed: NonNullable<RelayState["owed"]>): void {
  if (r.owed !== owed || owed.answered) return;
  r.conversation?.unanswered("timeout", r.host.agentTurnTimeoutMs());
  r.host.agentWaited(owed.n, null);
  r.owed = null;
}

/**
 * The prompt or key reached the app with the agent quiet: it owes an answer. On the virtual clock the
 * clock waits for it: for its first message, then for the rest of the utterance (until a `last` token),
 * each at most `agentTurnTimeout` of real time, so an app that answers after a model call still speaks at
 * the same sandbox instant run after run; then for what it sent with it. On the real clock a timer notes
 * an answer that does not come.
 */
function awaitReply(r: RelayState, owes = true): void {
  const { conversation, host } = r;
  if (!conversation) return;
  if (owes) conversation.owe();
  const owed: NonNullable<RelayState["owed"]> = {
    n: conversation.turn,
    realSince: realNow(),
    answered: false,
    timer: null,
  };
  host.scheduler.cancel(r.owed?.timer);
  r.owed = owed;
  if (!relayVirtual(r)) {
    owed.timer = host.scheduler.after(
      host.agentTurnTimeoutMs(),
      eventClass.timer,
      `agent turn ${r.sessionId}`,
      () => notAnswered(r, owed),
    );
    return;
  }
  const since = r.received;
  host.scheduler.after(0, eventClass.input, `relay reply ${r.sessionId}`, () =>
    new Promise<void>((resolve) => {
      let seen = since;
      let idle: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(idle);
        r.checks.delete(check);
        resolve();
      };
      const arm = () => {
        clearTimeout(idle);
        idle = setTimeout(() => {
          notAnswered(r, owed);
          done();
        }, host.agentTurnTimeoutMs());
      };
      const check = () => {
        if (r.state !== "open") return done();
        if (r.received > seen) {
          seen = r.received;
          arm();
        }
        if (r.received > since && r.pending.length === 0) done();
      };
      r.checks.add(check);
      arm();
      check();
    }).then(() => (r.state === "open" && owed.answered ? r.socket?.caughtUp() : undefined)),
  );
}

/** The caller's words, recognised: the app hears them, unless they came while the agent talks on uncut. */
export function sendRelayPrompt(r: RelayState, text: string): void {
  if (r.state !== "open") return;
  const { host, sessionId, conversation } = r;
  const backchannel = host.callerBackchannel();
  if (backchannel) conversation?.backchannel(host.now(), false);
  else {
    if (r.callerSince === null) conversation?.caller(host.now(), true);
    conversation?.caller(host.now(), false);
  }
  r.callerSince = null;
  // Words said while the agent talks on uncut are not reported unless reportInputDuringAgentSpeech says so.
  if (r.playing && !r.spec.reportInputDuringAgentSpeech.speech) {
    host.timeline("relay.ignored", { sessionId, text });
    return;
  }
  host.timeline("relay.prompt", { sessionId, text, ...(backchannel ? { backchannel } : {}) });
  sendToRelayApp(r, relayMessages.prompt(text, r.transcriptionLanguage));
  // A backchannel is no turn that owes an answer, but the clock still waits for what the app makes of it.
  awaitReply(r, !backchannel);
  awaitAnswer(r);
}

/** The caller's speech or key cuts what the agent plays, if it may: the app hears what had been said by then. */
export function interruptAgent(r: RelayState, by: keyof RelayInputs): void {
  const { playing } = r;
  if (r.state !== "open" || !playing || playing.item.kind === "digits" || !playing.item.interruptible[by])
    return;
  const { said, elapsed } = cutPlaying(r, playing);
  r.queue.length = 0;
  r.conversation?.agent(r.host.now(), false, true);
  // Quiet now, but the caller is still talking: the next step waits for the agent's answer to end.
  r.talking = false;
  r.host.timeline("relay.interrupt", { sessionId: r.sessionId, said, ms: elapsed, by });
  sendToRelayApp(r, relayMessages.interrupt(said, elapsed));
}

/** The caller starts to speak: a turn begins, and the agent is cut short if it may be. */
export function callerSpeaks(r: RelayState): void {
  if (r.state !== "open") return;
  // A backchannel is speech to the relay too: it cuts an interruptible agent, as Twilio's would.
  if (r.host.callerBackchannel()) r.conversation?.backchannel(r.host.now(), true);
  else {
    r.callerSince = r.host.now();
    r.conversation?.caller(r.callerSince, true);
  }
  interruptAgent(r, "speech");
}

/** The caller pressed a key: it may cut the agent, and the app hears it if it detects keys. */
export function sendRelayDtmf(r: RelayState, digit: string): void {
  if (r.state !== "open") return;
  const { host, sessionId } = r;
  r.conversation?.key(host.now());
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
