// A stream's socket to the app: connecting, the connected and start messages once open, the app's messages, and its close.
import { loadSpeech } from "../speech/speech-audio.js";
import { openAppSocket } from "./app-socket.js";
import { socketUrl } from "./socket-url.js";
import { appSpoke, startConversation } from "./stream-agent.js";
import { scheduleFrame } from "./stream-pacing.js";
import { applyStreamMessage, joinPlayback } from "./stream-playback.js";
import { messages, readAppMessage } from "./stream-protocol.js";
import {
  failStream,
  finishStream,
  refuseStreamMessage,
  type StreamState,
  sendToApp,
  streamVirtual,
} from "./stream-state.js";

/** The socket opened: `connected` and `start` go to the app, and frames start. */
function onStreamOpen(s: StreamState): void {
  if (s.state !== "connecting") return;
  const { host, sid, spec } = s;
  s.state = "open";
  s.startedAt = host.now();
  host.timeline("stream.started", {
    sid,
    url: spec.url,
    track: spec.track,
    name: spec.name,
    bidirectional: spec.bidirectional,
    parameters: spec.parameters,
  });
  sendToApp(s, messages.connected());
  sendToApp(
    s,
    messages.start(++s.sequence, {
      streamSid: sid,
      accountSid: host.accountSid,
      callSid: host.callSid,
      track: spec.track,
      customParameters: spec.parameters,
    }),
  );
  host.statusCallback(spec, sid, "stream-started");
  startConversation(s);
  if (spec.bidirectional) joinPlayback(s);
  scheduleFrame(s);
  // The app has said nothing yet: a caller with something to say goes first.
  if (spec.bidirectional) host.listening();
}

/** A text frame from the app (`null` for a binary one). */
function onStreamMessage(s: StreamState, text: string | null): void {
  if (s.state !== "open") return;
  appSpoke(s);
  if (text === null) {
    refuseStreamMessage(s, "binary frames are not part of the protocol");
    return;
  }
  const read = readAppMessage(text);
  if ("error" in read) refuseStreamMessage(s, read.error);
  else applyStreamMessage(s, read.message);
}

/** The socket closed (the app closed it, or it broke). */
function onStreamClose(s: StreamState, code: number, reason: string): void {
  if (s.state === "ended") return;
  const { host, sid, spec } = s;
  if (s.state === "open") {
    s.endedBy = code === 1000 || code === 1005 ? "app" : "error";
    host.timeline("stream.closed", { sid, code, reason });
    // The app ended the stream: a clean close is how <Connect><Stream> hands the call back. A socket
    // dropped without a close frame is 31903 (broken pipe); any other close code is 31921.
    if (code !== 1000 && code !== 1005) {
      const detail = `the socket closed with code ${code}${reason ? ` (${reason})` : ""} (${spec.url})`;
      if (code === 1006) host.alert(31903, `Stream - WebSocket - Connection Broken Pipe: ${detail}`);
      else host.alert(31921, `Stream - WebSocket - Close Error: ${detail}`);
      host.statusCallback(spec, sid, "stream-error", `WebSocket closed with code ${code}`);
    }
    host.statusCallback(spec, sid, "stream-stopped");
  }
  finishStream(s);
}

function connectStream(s: StreamState, url: URL): Promise<void> {
  const { host, spec } = s;
  const opened = openAppSocket(
    {
      url,
      scheduler: host.scheduler,
      virtual: () => streamVirtual(s),
      label: `stream ${s.sid}`,
      authToken: host.authToken,
      // Real clock: the socket lives on a frame sender thread, if the sandbox has them.
      ...(!streamVirtual(s) && host.frameSenders ? { connect: host.frameSenders.connect } : {}),
    },
    {
      open: () => onStreamOpen(s),
      refused: (status) =>
        failStream(
          s,
          31920,
          `Stream - WebSocket - Handshake Error: the server answered HTTP ${status} instead of 101`,
        ),
      unreachable: (message) => failStream(s, 31901, `Stream - WebSocket - Connection Timeout: ${message}`),
      protocolError: (message) => {
        if (s.state === "open")
          host.alert(31924, `Stream - WebSocket - Protocol Error: ${message} (${spec.url})`);
      },
      message: (text) => onStreamMessage(s, text),
      close: (code, reason) => onStreamClose(s, code, reason),
    },
  );
  s.socket = opened.socket;
  return opened.connected;
}

/** The stream's first event: the socket opens (or the stream fails at once on a URL that is no socket's). */
export function startStream(s: StreamState): Promise<void> | undefined {
  const url = socketUrl(s.spec.url, null);
  if (!url) {
    failStream(s, 31920, "Stream - WebSocket - Handshake Error: the url is not a ws:// or wss:// URL");
    return;
  }
  const opened = connectStream(s, url);
  // The virtual clock stands still while the socket opens, as it does for a markup request, and until
  // speech synthesis is ready, so every frame is the same bytes run after run. On the real clock frames
  // carry the placeholder tone for the moment synthesis takes to load.
  const speech = loadSpeech();
  return streamVirtual(s) ? Promise.all([opened, speech]).then(() => undefined) : undefined;
}
