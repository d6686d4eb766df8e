// Engine tests: a sandbox behind the Express door (the twilio client talks to it), and a real customer app.
import twilio from "twilio";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type CustomerApp, startCustomerApp } from "../support/customer-app.js";
import { type DoorContext, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

const { VoiceResponse } = twilio.twiml;

/** A markup document built with the twilio package's VoiceResponse. */
export function twiml(build: (response: InstanceType<typeof VoiceResponse>) => void): string {
  const response = new VoiceResponse();
  build(response);
  return response.toString();
}

export interface EngineHarness {
  readonly door: DoorContext;
  readonly app: CustomerApp;
  /** Runs every queued event and webhook until nothing is left (virtual time jumps ahead). */
  run(): Promise<void>;
  /** Points Acme's main number at the app's `path` for voice (and `smsPath` for SMS). */
  routeMainNumber(path: string, extra?: Record<string, string>): Promise<void>;
  /** Points Acme's main number's SMS at the app's `path`. */
  routeMainNumberSms(path: string): Promise<void>;
  /** Rings Acme's main number from +14155559876 through the admin API; the inbound call's sid. */
  ringMainNumber(): Promise<string>;
  /** Sets Acme's speech-to-text provider (account metadata `default_stt_provider`) through the carrier API. */
  useSttProvider(provider: string): Promise<void>;
}

export function useEngine(): EngineHarness {
  const door = useDoor("express");
  let app: CustomerApp;
  beforeAll(async () => {
    app = await startCustomerApp();
  });
  beforeEach(() => app.clear());
  afterAll(async () => app.close());

  const updateMainNumber = async (fields: Record<string, string>) => {
    const client = door.twilioClient();
    const numbers = await client.incomingPhoneNumbers.list({ phoneNumber: fixtures.acme.mainNumber });
    await client.incomingPhoneNumbers(numbers[0]!.sid).update(fields);
  };

  return {
    door,
    get app() {
      return app;
    },
    async run() {
      await door.sandbox.clock.runUntilIdle();
      await door.sandbox.settle();
    },
    async routeMainNumber(path, extra = {}) {
      await updateMainNumber({ voiceUrl: app.url(path), ...extra });
    },
    async routeMainNumberSms(path) {
      await updateMainNumber({ smsUrl: app.url(path) });
    },
    async ringMainNumber() {
      const res = await door.call("POST", "/__sandbox/calls/inbound", {
        json: { from: "+14155559876", to: fixtures.acme.mainNumber },
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(201);
      return res.json.sid as string;
    },
    async useSttProvider(provider) {
      await door.call("PATCH", `/carrier/v1/accounts/${fixtures.acme.sid}`, {
        auth: { bearer: fixtures.carrierKey },
        json: {
          data: {
            type: "account",
            id: fixtures.acme.sid,
            attributes: { metadata: { default_stt_provider: provider } },
          },
        },
      });
    },
  };
}

/** Acme's wallet through the carrier API: its balance, the sum of its ledger, and a debit down to a balance. */
export function acmeWallet(h: EngineHarness) {
  const carrier = { bearer: fixtures.carrierKey };
  const balances = `/carrier/v1/accounts/${fixtures.acme.sid}/balances`;
  const balance = async () => {
    const res = await h.door.call("GET", balances, { auth: carrier });
    return res.json.data.attributes.balance_cents as number;
  };
  return {
    balance,
    /** The sum of every ledger entry of Acme's (charges are negative). */
    ledgerSum: () =>
      h.door.sandbox.store.ledger
        .where("account", fixtures.acme.sid)
        .reduce((sum, e) => sum + e.amount_cents, 0),
    /** Debits all but `cents`, as an adjustment. */
    async leaveOnly(cents: number) {
      const debit = await h.door.call("POST", `${balances}/debit`, {
        auth: carrier,
        json: { amount_cents: (await balance()) - cents, category: "adjustment" },
      });
      expect(debit.status).toBeLessThan(300);
      expect(await balance()).toBe(cents);
    },
  };
}
