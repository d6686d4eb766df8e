// A test server on a free port of 127.0.0.1: its base URL, and a close that also ends kept-alive connections so teardown never waits on them.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LocalServer {
  /** http://127.0.0.1:<port> */
  readonly base: string;
  close(): Promise<void>;
}

export async function listenLocally(server: Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
