// The WebSocket client to a customer's app that media streams and ConversationRelay share: bounded, signed, never awaited on the real clock.
import { createRequire } from "node:module";
import type WebSocketClass from "ws";
import { computeSignature, twilioSignatureHeader } from "../../webhooks/sign.js";
import { eventClass, type Scheduler } from "../time/scheduler.js";
import {
  type ConnectLink,
  type LinkEvents,
  linkState,
  maxUnreadBytes,
  type SocketLink,
} from "./frame-senders.js";

const requireHere = createRequire(import.meta.url);
let loadedWs: typeof WebSocketClass | undefined;
/** ws (and Node's https with it) loads on the first stream, not with the library: most sandboxes never open one. */
const wsClass = (): typeof WebSocketClass => {
  loadedWs ??= requireHere("ws") as typeof WebSocketClass;
  return loadedWs;
};

/** Real milliseconds allowed for the WebSocket handshake (Twilio gives up on an endpoint that does not answer). */
export const handshakeTimeoutMs = 10_000;
/** The largest message read from an app; a bigger frame closes the socket (ws answers it with 1009). */
export const maxAppMessageBytes = 64 * 1024;
/** Virtual clock: real milliseconds to wait for the app to catch up before going on without it. */
const lockstepTimeoutMs = 2_000;

/** What happens on the socket, each delivered inside the loop (an event of its own on the real clock). */
export interface AppSocketEvents {
  open(): void;
  /** The server answered the upgrade with another status than 101. */
  refused(status: number): void;
  /** The socket never opened (refused, reset, no handshake in time). */
  unreachable(message: string): void;
  /** The app broke the WebSocket protocol while open (a frame over the size limit): ws closes the socket. */
  protocolError(message: string): void;
  /** A text frame; `null` for a binary one. */
  message(text: string | null): void;
  close(code: number, reason: string): void;
}

export interface AppSocketOptions {
  url: URL;
  scheduler: Scheduler;
  virtual(): boolean;
  /** Names the socket's events in the loop. */
  label: string;
  /** The account's auth token: the upgrade request carries X-Twilio-Signature, as Twilio's does. */
  authToken: string;
  /** Where the socket lives: a frame sender thread (frame-senders.ts), or by default this thread. */
  connect?: ConnectLink;
}

export interface AppSocket {
  readonly open: boolean;
  /** Bytes sent and not yet taken by the network. */
  readonly bufferedAmount: number;
  send(message: object): void;
  /** A message already written as JSON text. */
  sendText(text: string): void;
  /**
   * A media frame (JSON text) due `inMs` real ms from now (less than 0: late; the line's jitter added):
   * through a frame sender on the real clock, it leaves `sendDelayMs` after that, in order behind what went
   * before; otherwise now.
   */
  sendFrame(text: string, inMs: number): void;
  /** Real ms after its instant a frame leaves (0: when handed over, on this thread). */
  readonly sendDelayMs: number;
  /** Frames a sender thread sent more than a frame's time late; null: this thread sends, and the caller counts. */
  readonly lateFrames: number | null;
  /** Stops reading the app's messages (they wait in the network's and the app's buffers) until `resume`. */
  pause(): void;
  resume(): void;
  /**
   * Virtual clock: resolves once the app has read everything sent so far (a ping, answered after the
   * messages before it) or the socket closed; at most 2 s of real time. At once on a socket not open.
   */
  caughtUp(): Promise<void>;
  close(code?: number): void;
  terminate(): void;
}

/** A socket on this thread: `ws` itself. */
const connectHere: ConnectLink = (url, init, events) => {
  const WebSocket = wsClass();
  const ws = new WebSocket(url, { ...init, perMessageDeflate: false });
  ws.on("open", () => events.open());
  ws.on("unexpected-response", (request, response) => {
    request.destroy();
    events.refused(response.statusCode ?? 0);
  });
  ws.on("error", (error) => events.error(error.message));
  ws.on("message", (data, isBinary) => events.message(isBinary ? null : data.toString()));
  ws.on("pong", () => events.pong());
  ws.on("close", (code, reason) => events.close(code, reason.toString()));
  return {
    get readyState() {
      return ws.readyState;
    },
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    get isPaused() {
      return ws.isPaused;
    },
    lateFrames: null,
    sendDelayMs: 0,
    send: (text) => ws.send(text),
    // What this thread reads waits in its own loop: the reading gate alone holds it back.
    taken: () => undefined,
    ping: () => ws.ping(),
    pause: () => ws.pause(),
    resume: () => ws.resume(),
    close: (code) => ws.close(code),
    terminate: () => ws.terminate(),
  };
};

/** Reading stops while the caller asks it to or too much read waits for the loop; it goes on when neither holds. */
function readingGate(link: () => SocketLink) {
  let unread = 0;
  let heldByUnread = false;
  let heldByCaller = false;
  const hold = () => {
    const ws = link();
    if (ws.readyState === linkState.open && !ws.isPaused) ws.pause();
  };
  const release = () => {
    const ws = link();
    if (!heldByUnread && !heldByCaller && ws.isPaused) ws.resume();
  };
  return {
    caller(held: boolean) {
      heldByCaller = held;
      if (held) hold();
      else release();
    },
    /** A message of `size` read and waiting for the loop. */
    read(size: number) {
      unread += size;
      if (unread > maxUnreadBytes && !heldByUnread) {
        heldByUnread = true;
        hold();
      }
    },
    /** The loop took it. */
    taken(size: number) {
      unread -= size;
      if (heldByUnread && unread <= maxUnreadBytes / 2) {
        heldByUnread = false;
        release();
      }
    },
  };
}

/** The socket's face to the stream or relay session. */
function appSocketOf(
  ws: SocketLink,
  gate: ReturnType<typeof readingGate>,
  waker: { wake: (() => void) | null },
  virtual: () => boolean,
) {
  const socket: AppSocket = {
    get open() {
      return ws.readyState === linkState.open;
    },
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    get lateFrames() {
      return ws.lateFrames;
    },
    sendDelayMs: ws.sendDelayMs,
    send(message) {
      if (ws.readyState === linkState.open) ws.send(JSON.stringify(message));
    },
    sendText(text) {
      if (ws.readyState === linkState.open) ws.send(text);
    },
    sendFrame(text, inMs) {
      if (ws.readyState !== linkState.open) return;
      if (ws.sendDelayMs === 0 || virtual()) ws.send(text);
      else ws.send(text, inMs);
    },
    pause: () => gate.caller(true),
    resume: () => gate.caller(false),
    caughtUp: () =>
      new Promise<void>((resolve) => {
        const ready = ws.readyState;
        // A closing socket is waited for too, so its close lands before the clock moves on.
        if (ready !== linkState.open && ready !== linkState.closing) return resolve();
        const guard = setTimeout(() => settle(), lockstepTimeoutMs);
        const settle = () => {
          clearTimeout(guard);
          waker.wake = null;
          resolve();
        };
        waker.wake = settle;
        if (ready === linkState.open) ws.ping();
      }),
    close: (code = 1000) => ws.close(code),
    terminate: () => ws.terminate(),
  };
  return socket;
}

/**
 * Connects to the app. `connected` resolves when the handshake has finished either way: on the virtual clock
 * the caller holds the clock on it, as it does for a markup request.
 */
export function openAppSocket(
  options: AppSocketOptions,
  events: AppSocketEvents,
): { socket: AppSocket; connected: Promise<void> } {
  const { scheduler, label } = options;
  const waker: { wake: (() => void) | null } = { wake: null };
  let ws: SocketLink | undefined;
  const gate = readingGate(() => ws!);
  /** Socket events land outside the loop: on the real clock they become events, so the loop stays in order. */
  const inLoop = (name: string, task: () => void) => {
    if (options.virtual()) task();
    else scheduler.after(0, eventClass.input, `${label} ${name}`, task);
  };
  let settle = () => {};
  const connected = new Promise<void>((resolve) => {
    let done = false;
    settle = () => {
      if (!done) {
        done = true;
        resolve();
      }
    };
  });
  let opened = false;
  const linkEvents: LinkEvents = {
    open: () =>
      inLoop("open", () => {
        opened = true;
        events.open();
        if (options.virtual()) void socket.caughtUp().then(settle);
        else settle();
      }),
    refused: (status) =>
      inLoop("refused", () => {
        events.refused(status);
        settle();
      }),
    error: (message) =>
      inLoop("error", () => {
        if (!opened) events.unreachable(message);
        else events.protocolError(message);
        settle();
      }),
    message(text) {
      if (options.virtual()) {
        events.message(text);
        return;
      }
      const size = text?.length ?? 0;
      gate.read(size);
      scheduler.after(0, eventClass.input, `${label} message`, () => {
        gate.taken(size);
        ws!.taken(size);
        events.message(text);
      });
    },
    pong: () => waker.wake?.(),
    close(code, reason) {
      waker.wake?.();
      inLoop("close", () => {
        events.close(code, reason);
        settle();
      });
    },
  };
  ws = (options.connect ?? connectHere)(
    options.url,
    {
      handshakeTimeout: handshakeTimeoutMs,
      maxPayload: maxAppMessageBytes,
      headers: {
        [twilioSignatureHeader]: computeSignature(options.authToken, options.url.toString()),
        // A test process that mocks HTTP with msw lets this upgrade through to the real server.
        accept: "msw/passthrough",
      },
    },
    linkEvents,
  );
  const socket = appSocketOf(ws, gate, waker, options.virtual);
  return { socket, connected };
}
