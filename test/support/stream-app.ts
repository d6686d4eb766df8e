// A real WebSocket app in the test process, standing in for a customer's media-stream or relay server: records what it gets.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

// biome-ignore lint/suspicious/noExplicitAny: tests read the JSON messages the sandbox sends.
export type StreamMessage = Record<string, any>;

export interface StreamConnection {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  /** Every message received on this connection, parsed, oldest first. */
  readonly messages: StreamMessage[];
  send(message: unknown): void;
}

export interface StreamApp {
  /** ws://127.0.0.1:<port><path> */
  url(path?: string): string;
  readonly connections: StreamConnection[];
  /** Every message of every connection, oldest first; `event` keeps one kind (`event` of a media stream, `type` of a relay). */
  messages(event?: string): StreamMessage[];
  close(): Promise<void>;
}

/** `onMessage` runs in the socket's message handler, as a real app's would (its replies go out at once). */
export async function startStreamApp(
  onMessage: (message: StreamMessage, connection: StreamConnection) => void = () => undefined,
): Promise<StreamApp> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ server });
  const connections: StreamConnection[] = [];
  wss.on("connection", (socket, request) => {
    const connection: StreamConnection = {
      socket,
      request,
      messages: [],
      send: (message) => socket.send(typeof message === "string" ? message : JSON.stringify(message)),
    };
    connections.push(connection);
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString()) as StreamMessage;
      connection.messages.push(message);
      onMessage(message, connection);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = "/media") => `ws://127.0.0.1:${port}${path}`,
    connections,
    messages: (event) =>
      connections
        .flatMap((c) => c.messages)
        .filter((m) => event === undefined || m.event === event || m.type === event),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
