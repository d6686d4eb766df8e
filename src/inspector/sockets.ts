// The inspector's WebSockets (a call's audio, a held browser phone): one admission for both, the same as every inspector request's.
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
import { attachAudio, audioCallOf, maxAudioMessageBytes } from "./audio-socket.js";
import { inspectorApiPath } from "./paths.js";
import { attachPhone, phoneAddressOf } from "./phone-socket.js";
import { createPlayMedia } from "./play-media.js";

/** The protocol the server answers with; the browser offers it beside the one carrying the token. */
export const socketProtocol = "voice-sandbox";
/** A browser cannot set headers on a WebSocket: the admin token travels as `voice-sandbox.bearer.<base64url>`. */
export const tokenProtocolPrefix = "voice-sandbox.bearer.";

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

export interface InspectorSockets {
  /** Takes an upgrade under the inspector's API (true), or leaves it to the caller (false). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  readonly clients: number;
  close(): void;
}

/** What an admitted socket does once open. */
type Attach = (ws: WebSocket) => void;

export function createInspectorSockets(
  sandbox: SandboxCore,
  guard: (handle: Handle) => Handle,
): InspectorSockets {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxAudioMessageBytes,
    handleProtocols: (offered) => (offered.has(socketProtocol) ? socketProtocol : false),
  });
  const admitted = new WeakMap<SandboxResponse, Attach>();
  const media = createPlayMedia(sandbox.webhooks);
  /** What the path opens: a live call's audio or a phone to hold; throws the admin API's error otherwise. */
  const target = (path: string): Attach => {
    const callSid = audioCallOf(sandbox, path);
    if (callSid) return (ws) => attachAudio(sandbox, ws, callSid, media);
    const address = phoneAddressOf(sandbox, path);
    if (address) return (ws) => attachPhone(sandbox, ws, address);
    throw errors.notFound(path);
  };
  // The same guard (Host), site rule (Origin, Sec-Fetch-Site) and admin token as every inspector request.
  const admit = guard(async (request: SandboxRequest) => {
    try {
      refuseOtherSite(request);
      checkAdmin(sandbox, request.headers.authorization, request.path);
      const opened: SandboxResponse = { status: 101, headers: {}, body: "" };
      admitted.set(opened, target(request.path));
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
        const attach = admitted.get(admission);
        if (!attach) refuseUpgrade(socket, admission);
        else wss.handleUpgrade(req, socket, head, attach);
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
