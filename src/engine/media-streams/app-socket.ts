// The WebSocket client to a customer's app that media streams and ConversationRelay share: bounded, signed, never awaited on the real clock.
import { createRequire } from "node:module";
import type WebSocketClass from "ws";
import { computeSignature, twilioSignatureHeader } from "../../webhooks/sign.js";
import { eventClass, type Scheduler } from "../time/scheduler.js";

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
/**
 * Real clock: bytes read from the app and not yet taken by the loop (each message waits as an event);
 * past this the socket is not read until half of them are, so a flood waits in the app's own buffers.
 */
export const maxUnreadBytes = 256 * 1024;

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
}

export interface AppSocket {
  readonly open: boolean;
  /** Bytes sent and not yet taken by the network. */
  readonly bufferedAmount: number;
  send(message: object): void;
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

/**
 * Connects to the app. `connected` resolves when the handshake has finished either way: on the virtual clock
 * the caller holds the clock on it, as it does for a markup request.
 */
export function openAppSocket(
  options: AppSocketOptions,
  events: AppSocketEvents,
): { socket: AppSocket; connected: Promise<void> } {
  const { scheduler, label } = options;
  let wake: (() => void) | null = null;
  const WebSocket = wsClass();
  const ws = new WebSocket(options.url, {
    handshakeTimeout: handshakeTimeoutMs,
    maxPayload: maxAppMessageBytes,
    perMessageDeflate: false,
    headers: {
      [twilioSignatureHeader]: computeSignature(options.authToken, options.url.toString()),
      // A test process that mocks HTTP with msw lets this upgrade through to the real server.
      accept: "msw/passthrough",
    },
  });
  /** Socket events land outside the loop: on the real clock they become events, so the loop stays in order. */
  const inLoop = (name: string, task: () => void) => {
    if (options.virtual()) task();
    else scheduler.after(0, eventClass.input, `${label} ${name}`, task);
  };
  // Reading stops while the caller asks it to or too much read waits for the loop; it goes on when neither holds.
  let unread = 0;
  let heldByUnread = false;
  let heldByCaller = false;
  const holdReading = () => {
    if (ws.readyState === WebSocket.OPEN && !ws.isPaused) ws.pause();
  };
  const releaseReading = () => {
    if (!heldByUnread && !heldByCaller && ws.isPaused) ws.resume();
  };
  const socket: AppSocket = {
    get open() {
      return ws.readyState === WebSocket.OPEN;
    },
    get bufferedAmount() {
      return ws.bufferedAmount;
    },
    send(message) {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    },
    pause() {
      heldByCaller = true;
      holdReading();
    },
    resume() {
      heldByCaller = false;
      releaseReading();
    },
    caughtUp: () =>
      new Promise<void>((resolve) => {
        const ready = ws.readyState;
        // A closing socket is waited for too, so its close lands before the clock moves on.
        if (ready !== WebSocket.OPEN && ready !== WebSocket.CLOSING) return resolve();
        const guard = setTimeout(() => settle(), lockstepTimeoutMs);
        const settle = () => {
          clearTimeout(guard);
          wake = null;
          resolve();
        };
        wake = settle;
        if (ready === WebSocket.OPEN) ws.ping();
      }),
    close: (code = 1000) => ws.close(code),
    terminate: () => ws.terminate(),
  };
  const connected = new Promise<void>((resolve) => {
    let opened = false;
    let done = false;
    const settle = () => {
      if (!done) {
        done = true;
        resolve();
      }
    };
    ws.on("open", () =>
      inLoop("open", () => {
        opened = true;
        events.open();
        if (options.virtual()) void socket.caughtUp().then(settle);
        else settle();
      }),
    );
    ws.on("unexpected-response", (request, response) => {
      request.destroy();
      const status = response.statusCode ?? 0;
      inLoop("refused", () => {
        events.refused(status);
        settle();
      });
    });
    ws.on("error", (error) => {
      inLoop("error", () => {
        if (!opened) events.unreachable(error.message);
        else events.protocolError(error.message);
        settle();
      });
    });
    ws.on("message", (data, isBinary) => {
      const text = isBinary ? null : data.toString();
      if (options.virtual()) {
        events.message(text);
        return;
      }
      const size = text?.length ?? 0;
      unread += size;
      if (unread > maxUnreadBytes && !heldByUnread) {
        heldByUnread = true;
        holdReading();
      }
      scheduler.after(0, eventClass.input, `${label} message`, () => {
        unread -= size;
        if (heldByUnread && unread <= maxUnreadBytes / 2) {
          heldByUnread = false;
          releaseReading();
        }
        events.message(text);
      });
    });
    ws.on("pong", () => wake?.());
    ws.on("close", (code, reason) => {
      wake?.();
      inLoop("close", () => {
        events.close(code, reason.toString());
        settle();
      });
    });
  });
  return { socket, connected };
}
