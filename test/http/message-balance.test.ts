// 200 messages created at once on 5 cents, through the MSW door and the standalone server over HTTP with the
// twilio client: only as many as the balance covers are admitted, the rest refused with 402 and 20042.
import twilio from "twilio";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SandboxCore } from "../../src/sandbox.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

interface Door {
  readonly sandbox: SandboxCore;
  readonly baseUrl: string;
}

/** The standalone server on a free port, on the virtual clock so the test decides when messages move. */
function useServer(): Door {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve({ port: 0, clock: "virtual" });
  });
  beforeEach(() => running.sandbox.reset());
  afterAll(async () => running.close());
  return {
    get sandbox() {
      return running.sandbox;
    },
    get baseUrl() {
      return running.url;
    },
  };
}

const doors: [string, () => Door][] = [
  ["the MSW door", () => useDoor("msw")],
  ["the standalone server", useServer],
];

describe.each(doors)("messages against the balance through %s", (_name, use) => {
  const door = use();
  const client = () => {
    const c = twilio(fixtures.acme.sid, fixtures.acme.authToken);
    c.api.baseUrl = door.baseUrl;
    return c;
  };
  const carrier = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${door.baseUrl}/carrier/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${fixtures.carrierKey}`,
        ...(body === undefined ? {} : { "content-type": "application/vnd.api+json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads JSON:API documents.
    return { status: res.status, json: (await res.json()) as any };
  };
  const balance = async () =>
    (await carrier("GET", `/accounts/${fixtures.acme.sid}/balances`)).json.data.attributes
      .balance_cents as number;

  it("admits 5 of 200 concurrent one-segment messages on 5 cents and refuses 195 with 402, 20042", async () => {
    const debit = await carrier("POST", `/accounts/${fixtures.acme.sid}/balances/debit`, {
      amount_cents: (await balance()) - 5,
      category: "adjustment",
    });
    expect(debit.status).toBe(201);
    expect(await balance()).toBe(5);

    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        client()
          .messages.create({ to: `+1415555${String(1000 + i)}`, from: fixtures.acme.mainNumber, body: "Hi" })
          .then(
            (message) => ({ sid: message.sid }),
            (error: { status: number; code: number; message: string }) => ({
              status: error.status,
              code: error.code,
              message: error.message,
            }),
          ),
      ),
    );
    const admitted = outcomes.filter((o) => "sid" in o);
    const refused = outcomes.filter((o) => !("sid" in o));
    expect(admitted).toHaveLength(5);
    expect(refused).toHaveLength(195);
    for (const error of refused) {
      expect(error).toMatchObject({ status: 402, code: 20042, message: expect.stringContaining("5 cents") });
    }

    await door.sandbox.clock.runUntilIdle();
    await door.sandbox.settle();
    const messages = await client().messages.list({});
    expect(messages.map((m) => m.status)).toEqual(Array(5).fill("delivered"));
    expect(messages.map((m) => m.price)).toEqual(Array(5).fill("-0.00790"));
    // The wallet reaches zero and no further: the ledger agrees, and one more message is refused.
    expect(await balance()).toBe(0);
    const entries = door.sandbox.store.ledger.where("account", fixtures.acme.sid);
    expect(entries.reduce((sum, e) => sum + e.amount_cents, 0)).toBe(0);
    expect(entries.filter((e) => e.category === "sms")).toHaveLength(5);
    const more = await client()
      .messages.create({ to: "+14155550999", from: fixtures.acme.mainNumber, body: "Hi" })
      .catch((error: { status: number; code: number }) => error);
    expect(more).toMatchObject({ status: 402, code: 20042 });
    // The carrier API sees the same five messages.
    const listed = await carrier("GET", `/messages?filter[account_id]=${fixtures.acme.sid}`);
    expect(listed.status).toBe(200);
    expect(listed.json.data).toHaveLength(5);
  });
});
