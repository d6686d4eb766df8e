// A voice URL whose answer never ends: the call reads 64 KB and a byte, refuses the document (12100) and goes on.
import { createServer, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { type LocalServer, listenLocally } from "../support/local-server.js";
import { useEngine } from "./harness.js";

describe("an endless markup answer", () => {
  const h = useEngine();
  let endless: LocalServer;
  const open: ServerResponse[] = [];
  beforeAll(async () => {
    const chunk = Buffer.alloc(16 * 1024, " ");
    endless = await listenLocally(
      createServer((req, res) => {
        req.resume();
        open.push(res);
        res.writeHead(200, { "content-type": "text/xml" });
        res.write("<Response><Say>");
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {}
        };
        res.on("drain", pump);
        pump();
      }),
    );
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    await endless.close();
  });

  it("fails the document as too large (12100) and plays the fallback, without waiting for the end", async () => {
    h.app.on("/fallback", "<Response><Say>Fallback</Say></Response>");
    const call = await h.door.twilioClient().calls.create({
      to: "+14155550123",
      from: fixtures.acme.mainNumber,
      url: `${endless.base}/voice`,
      fallbackUrl: h.app.url("/fallback"),
    });
    await h.run();
    const [alert] = h.door.sandbox.calls.alerts(call.sid);
    expect(alert).toMatchObject({ code: 12100 });
    expect(alert!.message).toMatch(/larger than 65536 bytes/);
    expect(h.door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Fallback"]);
  });
});
