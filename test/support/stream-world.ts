// Stream and relay tests' surroundings: the app's HTTP side in-process, WebSocket apps, refusing servers, placing calls.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach } from "vitest";
import type { Sandbox } from "../../src/index.js";
import type { DoorContext } from "./doors.js";
import { fixtures } from "./fixtures.js";
import { type StreamApp, startStreamApp } from "./stream-app.js";

/** The called party of every stream test. */
export const callee = "+14155550123";
/** Where the app's HTTP side (actions, status callbacks) answers, in-process. */
export const appBase = "https://app.example.test";

/** Places a call with `twiml` through the account API of a sandbox made in the test (the fetch door); its sid. */
export async function placeWithTwiml(sandbox: Sandbox, to: string, twiml: string): Promise<string> {
  const res = await sandbox.fetch(`${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ From: fixtures.acme.mainNumber, To: to, Twiml: twiml }).toString(),
  });
  return ((await res.json()) as { sid: string }).sid;
}

interface Callback {
  path: string;
  params: Record<string, string>;
}

/**
 * What a stream or relay test needs around the sandbox: the app's HTTP side as an in-process receiver
 * under https://app.example.test (`answers` by path; every request kept), WebSocket apps closed after
 * each test, servers that refuse upgrades, and a call placed with markup through the door.
 */
export function useStreamWorld(door: DoorContext, answers: Record<string, string> = {}) {
  const callbacks: Callback[] = [];
  const apps: StreamApp[] = [];
  const servers: Server[] = [];
  let unregister: () => void = () => undefined;
  beforeEach(() => {
    callbacks.length = 0;
    unregister = door.sandbox.webhooks.register(`${appBase}/`, (request) => {
      const path = new URL(request.url).pathname;
      callbacks.push({ path, params: request.params });
      return answers[path];
    });
  });
  afterEach(async () => {
    unregister();
    door.sandbox.reset();
    for (const app of apps.splice(0)) await app.close();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return {
    callbacks,
    async app(onMessage?: Parameters<typeof startStreamApp>[0]) {
      const app = await startStreamApp(onMessage);
      apps.push(app);
      return app;
    },
    /** An HTTP server that refuses every WebSocket upgrade with `status` (404 by default). */
    async refusingServer(status = "404 Not Found") {
      const server = createServer((_req, res) => res.writeHead(404).end());
      server.on("upgrade", (_req, socket) => socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\n\r\n`));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      servers.push(server);
      return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/media`;
    },
    /** A ws:// URL on a port nothing listens on any more. */
    async closedPort() {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      await new Promise((resolve) => server.close(resolve));
      return `ws://127.0.0.1:${port}/media`;
    },
    async place(twiml: string) {
      return door.twilioClient().calls.create({ to: callee, from: fixtures.acme.mainNumber, twiml });
    },
    async run() {
      await door.sandbox.clock.runUntilIdle();
      await door.sandbox.settle();
    },
    /** Parameters of every request the sandbox made to `path`, oldest first. */
    requests: (path: string) => callbacks.filter((c) => c.path === path).map((c) => c.params),
    streamCallbacks: () => callbacks.filter((c) => c.path === "/stream-status").map((c) => c.params),
  };
}
