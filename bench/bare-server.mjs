// Baseline target for the server benchmark: a bare node:http server replaying one recorded response.
// Plain JavaScript run by plain node, as the CLI is, so neither server process has a TypeScript loader in it.
import { createServer } from "node:http";

process.once("message", (recorded) => {
  const body = Buffer.from(recorded.body, "base64");
  const server = createServer((_req, res) => {
    res.writeHead(recorded.status, recorded.headers);
    res.end(body);
  });
  // The sandbox server sets the same timeout, so both send the same Keep-Alive header.
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => {
    process.send({ port: server.address().port });
  });
  // If the coordinator goes away without stopping us, do not linger holding the port.
  process.once("disconnect", () => process.exit(0));
});
