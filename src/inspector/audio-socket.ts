// The inspector's audio WebSockets: a live call's audio as its party hears it, and the browser's microphone as what the party says.
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { toSandboxRequest } from "../adapters/node.js";
import { errors } from "../domain/errors.js";
import { refuseOtherSite } from "../http/cross-site.js";
import type { Handle } from "../http/handle.js";
import { renderError } from "../http/render-error.js";
import type { SandboxRequest, SandboxResponse } from "../http/types.js";
import type { SandboxCore } from "../sandbox.js";
import { checkAdmin } from "./access.js";
import { inspectorApiPath } from "./paths.js";

/** 20 ms of 8 kHz mu-law: one frame each way. */
export const audioFrameBytes = 160;
const frameMs = 20;
/** How far behind the clock the browser hears: an app's audio for an instant is known a frame after it. */
const lagMs = 2 * frameMs;
/** A browser this far behind (a paused tab, a clock jump) skips ahead instead of hearing the past. */
const catchUpMs = 500;
/** Frames waiting for a slow browser beyond this are dropped. */
const backlogLimitBytes = 64 * 1024;
/** The largest message taken from the browser: ten frames. */
const maxMessageBytes = 10 * audioFrameBytes;

/** The protocol the server answers with; the browser offers it beside the one carrying the token. */
export const audioSocketProtocol = "voice-sandbox";
/** A browser cannot set headers on a WebSocket: the admin token travels as `voice-sandbox.bearer.<base64url>`. */
export const tokenProtocolPrefix = "voice-sandbox.bearer.";

const audioPath = new RegExp(`^${inspectorApiPath}/calls/(CA[0-9a-f]{32})/audio$`);

/** The admin token a browser sent in its offered subprotocols, if any. */
function tokenOf(req: IncomingMessage): string | undefined {
  const offered = req.headers["sec-websocket-protocol"]?.split(",") ?? [];
  const carrier = offered.map((p) => p.trim()).find((p) => p.startsWith(tokenProtocolPrefix));
  return carrier && Buffer.from(carrier.slice(tokenProtocolPrefix.length), "base64url").toString("utf8");
}

/** Refuses an upgrade with the admin API's error as a plain HTTP response on the socket. */
function refuseUpgrade(socket: Duplex, response: SandboxResponse): void {
  const body = typeof response.body === "string" ? response.body : "";
  socket.end(
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n` +
      `content-type: ${response.headers["content-type"] ?? "application/json; charset=utf-8"}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export interface AudioSockets {
  /** Takes an upgrade under the inspector's API (true), or leaves it to the caller (false). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  readonly clients: number;
  close(): void;
}

/** Sends what the party hears, a frame per 20 ms of the clock, and keeps what the browser sends as the party's speech. */
function attach(sandbox: SandboxCore, ws: WebSocket, callSid: string): void {
  const audio = sandbox.calls.audio;
  const aligned = (t: number) => Math.floor(t / frameMs) * frameMs;
  let cursor = aligned(sandbox.clock.now() - lagMs);
  const pump = () => {
    const now = sandbox.clock.now();
    if (now - cursor > catchUpMs) cursor = aligned(now - lagMs);
    while (cursor + lagMs <= now) {
      const frame = audio.heard(callSid, cursor);
      if (!frame) {
        ws.close(1000, "the call is over");
        return;
      }
      if (ws.bufferedAmount < backlogLimitBytes) ws.send(frame);
      cursor += frameMs;
    }
  };
  const timer = setInterval(pump, frameMs);
  timer.unref();
  ws.on("message", (data, isBinary) => {
    const bytes = data as Buffer;
    if (!isBinary || bytes.length === 0 || bytes.length % audioFrameBytes !== 0) {
      ws.close(1003, `send binary frames of ${audioFrameBytes} bytes of 8 kHz mu-law (20 ms each)`);
      return;
    }
    if (!audio.speak(callSid, new Uint8Array(bytes))) ws.close(1000, "the call is over");
  });
  ws.on("close", () => clearInterval(timer));
}

export function createAudioSockets(sandbox: SandboxCore, guard: (handle: Handle) => Handle): AudioSockets {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxMessageBytes,
    handleProtocols: (offered) => (offered.has(audioSocketProtocol) ? audioSocketProtocol : false),
  });
  const opened: SandboxResponse = { status: 101, headers: {}, body: "" };
  // The same guard (Host), site rule (Origin, Sec-Fetch-Site) and admin token as every inspector request.
  const admit = guard(async (request: SandboxRequest) => {
    try {
      refuseOtherSite(request);
      checkAdmin(sandbox, request.headers.authorization, request.path);
      const callSid = audioPath.exec(request.path)?.[1];
      if (!callSid || !sandbox.store.calls.has(callSid)) throw errors.notFound(request.path);
      if (!sandbox.calls.audio.live(callSid)) {
        throw errors.invalidParameter(
          "CallSid",
          `${callSid} is not a live call: audio is only for a call in progress or ringing`,
        );
      }
      return opened;
    } catch (error) {
      return renderError("admin", error);
    }
  });
  return {
    upgrade(req, socket, head) {
      const url = req.url ?? "/";
      if (!url.startsWith(`${inspectorApiPath}/`)) return false;
      const request = toSandboxRequest(req, "", false, url);
      const token = tokenOf(req);
      const headers = token ? { ...request.headers, authorization: `Bearer ${token}` } : request.headers;
      void admit({ ...request, headers }).then((admission) => {
        if (admission !== opened) refuseUpgrade(socket, admission);
        else {
          const callSid = audioPath.exec(request.path)![1]!;
          wss.handleUpgrade(req, socket, head, (ws) => attach(sandbox, ws, callSid));
        }
      });
      return true;
    },
    get clients() {
      return wss.clients.size;
    },
    close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
