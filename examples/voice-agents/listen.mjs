// What both voice agent examples share: listening on loopback, their voice URL, and a close that ends every socket.

/** Listens `server` (with its WebSocket server `sockets`) on `port` (0: a free one); its URLs (http and ws) and a full close. */
export async function listen(server, sockets, { port = 0, host = "127.0.0.1" } = {}) {
  await new Promise((resolve) => server.listen(port, host, resolve));
  const base = `http://${host}:${server.address().port}`;
  return {
    url: (path = "/voice") => `${base}${path}`,
    socketUrl: (path = "") => `${base.replace(/^http/, "ws")}${path}`,
    close: () =>
      new Promise((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
