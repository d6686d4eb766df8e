// A slow customer URL holds only its own call: while a markup request is out, the engine runs every other call.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";

const auth = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;

/** A customer server whose every request hangs until `release()`. */
async function hangingServer() {
  const waiting: ServerResponse[] = [];
  const server = createServer((_request, response) => waiting.push(response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/voice`,
    /** Requests held open right now. */
    held: () => waiting.filter((r) => !r.writableEnded && !r.destroyed).length,
    release() {
      for (const response of waiting.splice(0))
        if (!response.destroyed) response.end("<Response><Hangup/></Response>");
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function place(sandbox: Sandbox, to: string, markup: Record<string, string>) {
  const res = await sandbox.fetch(`${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ From: fixtures.acme.mainNumber, To: to, ...markup }).toString(),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { sid: string }).sid;
}

describe("slow markup URLs", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("a call whose voice URL hangs does not hold up an unrelated call (real clock)", async () => {
    const customer = await hangingServer();
    cleanups.push(
      () => customer.close(),
      () => customer.release(),
    );
    // The delivery time-out is far longer than the wait below: only a loop that does not wait can pass.
    const sandbox = createSandbox({ clock: "real", webhooks: { timeoutMs: 120_000 } });
    cleanups.push(() => sandbox.clock.switchTo("virtual"));
    sandbox.calls.setParty("+14155550111", { ringAfter: 0, answerAfter: 0 });
    sandbox.calls.setParty("+14155550112", { ringAfter: 0, answerAfter: 0 });

    const slow = await place(sandbox, "+14155550111", { Url: customer.url });
    await vi.waitFor(() => expect(customer.held()).toBe(1), { timeout: 10_000 });
    const other = await place(sandbox, "+14155550112", {
      Twiml: "<Response><Say>Your code is 1 2 3</Say><Hangup/></Response>",
    });

    await vi.waitFor(() => expect(sandbox.store.calls.get(other)?.status).toBe("completed"), {
      timeout: 10_000,
    });
    // The slow call is still answered and waiting for its markup; its request is still out.
    expect(sandbox.store.calls.get(slow)?.status).toBe("in-progress");
    expect(customer.held()).toBe(1);

    customer.release();
    await vi.waitFor(() => expect(sandbox.store.calls.get(slow)?.status).toBe("completed"), {
      timeout: 10_000,
    });
  });
});
