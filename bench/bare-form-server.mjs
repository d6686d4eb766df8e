// Baseline for the sustained POST benchmark: a bare node:http server that reads and parses the form, then replays one recorded 201.
// Plain JavaScript run by plain node, as the CLI is.
import { createServer } from "node:http";

process.once("message", (recorded) => {
  const body = Buffer.from(recorded.body, "base64");
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      if (!form.get("To")) res.writeHead(400).end();
      else res.writeHead(recorded.status, recorded.headers).end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
  process.once("disconnect", () => process.exit(0));
});
