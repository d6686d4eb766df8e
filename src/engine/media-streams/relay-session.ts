// One ConversationRelay session: the text protocol over the app's WebSocket; caller speech in as prompts, the app's words out as speech.
import type { RelayControl, RelaySpec } from "../../markup/effects.js";
import { eventClass } from "../time/scheduler.js";
import { openAppSocket } from "./app-socket.js";
import { createConversation } from "./conversation.js";
import { onRelayMessage } from "./relay-messages.js";
import { relayMessages } from "./relay-protocol.js";
import { enqueueSpeech } from "./relay-speech.js";
import {
  closeRelaySocket,
  failRelay,
  finishRelay,
  newRelayState,
  type RelaySessionHost,
  type RelayState,
  relayVirtual,
  sendToRelayApp,
} from "./relay-state.js";
import { callerSpeaks, sendRelayDtmf, sendRelayPrompt } from "./relay-turns.js";
import { sttFor, ttsFor } from "./relay-voices.js";
import { socketUrl } from "./socket-url.js";

/** The socket opened: `setup` goes to the app, and the welcome greeting plays (or the caller goes first). */
function onRelayOpen(r: RelayState): void {
  if (r.state !== "connecting") return;
  const { host, spec, sessionId } = r;
  r.state = "open";
  r.startedAt = host.now();
  r.conversation = createConversation(r.startedAt, (kind, detail) =>
    host.timeline(kind, { sessionId, ...detail }),
  );
  // Providers, voices and hints shape recognition and synthesis, which the sandbox times rather than runs: recorded.
  host.timeline("relay.started", {
    sessionId,
    url: spec.url,
    parameters: spec.parameters,
    ttsLanguage: r.ttsLanguage,
    transcriptionLanguage: r.transcriptionLanguage,
    ...ttsFor(spec, r.ttsLanguage),
    ...sttFor(spec, r.transcriptionLanguage),
    hints: spec.hints,
    languages: Object.keys(spec.languages),
  });
  sendToRelayApp(r, relayMessages.setup({ ...host.call, sessionId, customParameters: spec.parameters }));
  if (spec.welcomeGreeting) {
    enqueueSpeech(r, {
      kind: "say",
      text: spec.welcomeGreeting,
      language: r.ttsLanguage,
      interruptible: spec.welcomeGreetingInterruptible,
      preemptible: spec.preemptible,
    });
  } else {
    r.talking = false;
    host.listening();
  }
}

/** The session's first event: the socket opens (or the session fails at once on a URL that is no socket's). */
function startRelay(r: RelayState): Promise<void> | undefined {
  const { host } = r;
  const url = socketUrl(r.spec.url, null);
  if (!url) {
    failRelay(r, 31920, "ConversationRelay: the url is not a ws:// or wss:// URL");
    return undefined;
  }
  const opened = openAppSocket(
    {
      url,
      scheduler: host.scheduler,
      virtual: () => relayVirtual(r),
      label: `relay ${r.sessionId}`,
      authToken: host.authToken,
    },
    {
      open: () => onRelayOpen(r),
      refused: (status) =>
        failRelay(r, 31920, `ConversationRelay: the WebSocket server answered HTTP ${status} instead of 101`),
      unreachable: (message) =>
        failRelay(r, 31901, `ConversationRelay: the WebSocket did not open: ${message}`),
      protocolError: (message) => {
        if (r.state === "open") host.alert(64107, `ConversationRelay: WebSocket protocol error: ${message}`);
      },
      message: (text) => onRelayMessage(r, text),
      close: (code, reason) => {
        if (r.state === "open") host.timeline("relay.closed", { sessionId: r.sessionId, code, reason });
        finishRelay(r, "completed");
      },
    },
  );
  r.socket = opened.socket;
  return relayVirtual(r) ? opened.connected : undefined;
}

/** The call ended or moved on mid-session: the session is over, as completed as an app's close. */
function stopRelay(r: RelayState): void {
  if (r.state === "ended") return;
  if (r.state === "connecting") {
    r.socket?.terminate();
    finishRelay(r, "failed", { errorMessage: "the call ended before the WebSocket opened" }, false);
    return;
  }
  closeRelaySocket(r);
  finishRelay(r, "completed", {}, false);
}

export function openRelaySession(host: RelaySessionHost, sessionId: string, spec: RelaySpec): RelayControl {
  const r = newRelayState(host, sessionId, spec);
  host.scheduler.after(0, eventClass.input, `relay connect ${sessionId}`, () => startRelay(r));
  return {
    sessionId,
    ended: () => r.state === "ended",
    result: () => r.result,
    prompt: (text) => sendRelayPrompt(r, text),
    speechStarted: () => callerSpeaks(r),
    dtmf: (digit) => sendRelayDtmf(r, digit),
    stop: () => stopRelay(r),
  };
}
