// What goes with a dropped record and what holds it back: a call's recordings and their transcriptions, a conference's recordings, an account's newest charge; the age bound; the logs' own bounds.
import { describe, expect, it } from "vitest";
import type { Call } from "../../src/domain/call.js";
import { createAccount } from "../../src/engine/accounts/accounts.js";
import { billCall } from "../../src/engine/billing/billing.js";
import { balanceOf, charge, topUp } from "../../src/engine/billing/ledger.js";
import { splitUsage, summarizeUsage } from "../../src/engine/billing/usage-records.js";
import { commitsPerCheck } from "../../src/engine/context/retention.js";
import { createSandbox, type Sandbox } from "../../src/index.js";
import {
  insertCall,
  insertConference,
  insertRecording,
  insertTranscription,
} from "../support/account-records.js";
import { fixtures } from "../support/fixtures.js";

/** Each insert as its own change, as the engine makes them: the bound runs at the end of each. */
const change = <T>(sandbox: Sandbox, make: () => T): T => sandbox.store.transact(make);

const finishedCall = (sandbox: Sandbox, changes: Partial<Call> = {}) =>
  change(sandbox, () => {
    const call = insertCall(sandbox, changes);
    billCall(sandbox.engine, call);
    return call;
  });

/** Every day of an account's usage, its own only. */
const allDays = (sandbox: Sandbox, accountSid: string) => ({
  account: sandbox.store.accounts.get(accountSid)!,
  includeSubaccounts: false,
  startDay: 0,
  endDay: Number.MAX_SAFE_INTEGER,
});

const usageOf = (sandbox: Sandbox, accountSid: string = fixtures.acme.sid) =>
  summarizeUsage(sandbox.engine, allDays(sandbox, accountSid)).filter((r) => r.count > 0);

/** The same usage day by day. */
const dailyUsageOf = (sandbox: Sandbox, accountSid: string) =>
  splitUsage(sandbox.engine, allDays(sandbox, accountSid), "daily").filter((r) => r.count > 0);

describe("what goes with a dropped record", () => {
  it("a call waits for its recording's transcription, then goes with both", () => {
    const sandbox = createSandbox({ retain: { maxCount: 1 } });
    const first = finishedCall(sandbox);
    const recording = change(sandbox, () => insertRecording(sandbox, first));
    const transcription = change(sandbox, () =>
      insertTranscription(sandbox, recording, { status: "in-progress", text: null, segments: null }),
    );
    const second = finishedCall(sandbox);
    const third = finishedCall(sandbox);
    // The first call's transcription runs: it stays, the second goes, the newest is kept.
    expect(sandbox.store.calls.has(first.sid)).toBe(true);
    expect(sandbox.store.calls.has(second.sid)).toBe(false);
    expect(sandbox.store.calls.has(third.sid)).toBe(true);

    change(sandbox, () => sandbox.store.transcriptions.replace({ ...transcription, status: "completed" }));
    expect(sandbox.store.calls.has(first.sid)).toBe(false);
    expect(sandbox.store.recordings.has(recording.sid)).toBe(false);
    expect(sandbox.store.transcriptions.has(transcription.sid)).toBe(false);
    expect(sandbox.store.calls.all().map((c) => c.sid)).toEqual([third.sid]);
  });

  it("a conference goes with its recordings and their transcriptions; a call leaves a conference's recording alone", () => {
    const sandbox = createSandbox({ retain: { maxCount: 1 } });
    const call = finishedCall(sandbox);
    const room = change(sandbox, () => insertConference(sandbox, { status: "completed" }));
    const inRoom = change(sandbox, () => insertRecording(sandbox, call, { conference_sid: room.sid }));
    const transcribed = change(sandbox, () => insertTranscription(sandbox, inRoom));
    finishedCall(sandbox);
    // The call went; the room's recording did not go with it.
    expect(sandbox.store.calls.has(call.sid)).toBe(false);
    expect(sandbox.store.recordings.has(inRoom.sid)).toBe(true);
    change(sandbox, () => insertConference(sandbox, { status: "completed" }));
    expect(sandbox.store.conferences.has(room.sid)).toBe(false);
    expect(sandbox.store.recordings.has(inRoom.sid)).toBe(false);
    expect(sandbox.store.transcriptions.has(transcribed.sid)).toBe(false);
  });

  it("keeps a conference still running and a recording still running however old", () => {
    const sandbox = createSandbox({ retain: { maxCount: 0 } });
    const running = change(sandbox, () => insertConference(sandbox));
    const live = insertCall(sandbox, { status: "in-progress", end_time: null, duration: null });
    const recording = change(sandbox, () => insertRecording(sandbox, live, { status: "in-progress" }));
    finishedCall(sandbox);
    // The finished call's charge is no longer the newest entry, which the balance reads: it may go.
    change(sandbox, () => topUp(sandbox.engine, fixtures.acme.sid, { category: "voice", amount_cents: 100 }));
    expect(sandbox.store.conferences.has(running.sid)).toBe(true);
    expect(sandbox.store.calls.has(live.sid)).toBe(true);
    expect(sandbox.store.recordings.has(recording.sid)).toBe(true);
    expect(sandbox.store.calls.size).toBe(1);
  });

  it("recordings and transcriptions have a bound of their own", () => {
    const sandbox = createSandbox({ retain: { maxCount: 2 } });
    const call = insertCall(sandbox, { status: "in-progress", end_time: null });
    const recordings = [0, 1, 2, 3].map(() => change(sandbox, () => insertRecording(sandbox, call)));
    expect(sandbox.store.recordings.all().map((r) => r.sid)).toEqual(recordings.slice(2).map((r) => r.sid));
    const transcriptions = [0, 1, 2].map(() =>
      change(sandbox, () => insertTranscription(sandbox, recordings[3]!)),
    );
    expect(sandbox.store.transcriptions.all().map((t) => t.sid)).toEqual(
      transcriptions.slice(1).map((t) => t.sid),
    );
  });
});

describe("the ledger past the bound", () => {
  it("keeps each account's newest entry, so balances read as before, and usage totals too", () => {
    const kept = createSandbox({ retain: false });
    const bounded = createSandbox({ retain: { maxCount: 2 } });
    for (const sandbox of [kept, bounded]) {
      for (let n = 0; n < 6; n++) finishedCall(sandbox, { duration: 30 + n * 40 });
      change(sandbox, () =>
        charge(sandbox.engine, fixtures.globex.sid, { category: "sms", amount_cents: 3 }),
      );
    }
    for (const account of [fixtures.acme.sid, fixtures.globex.sid])
      expect(balanceOf(bounded.engine, account)).toBe(balanceOf(kept.engine, account));
    expect(usageOf(bounded)).toEqual(usageOf(kept));
    expect(usageOf(bounded, fixtures.globex.sid)).toEqual(usageOf(kept, fixtures.globex.sid));
    expect(bounded.store.calls.size).toBe(2);
    expect(bounded.store.ledger.size).toBeLessThanOrEqual(2 + 2);
    expect(bounded.store.usageTotals.size).toBeGreaterThan(0);
  });

  it("charges dropped together in one pass sum up per account and day as they were", async () => {
    const kept = createSandbox({ retain: false });
    const bounded = createSandbox({ retain: { maxCount: 2 } });
    for (const sandbox of [kept, bounded]) {
      // Each day's calls are one change: the bound then drops dozens in one pass, of both accounts.
      for (let day = 0; day < 3; day++) {
        change(sandbox, () => {
          for (let n = 0; n < 30; n++) {
            const account_sid = n % 3 === 0 ? fixtures.globex.sid : fixtures.acme.sid;
            billCall(sandbox.engine, insertCall(sandbox, { account_sid, duration: 20 + n * 50 }));
          }
        });
        await sandbox.clock.advance(86_400_000);
      }
    }
    // The two newest, and Globex's last call: its charge is Globex's newest entry, which the balance reads.
    expect(bounded.store.calls.size).toBe(3);
    // One total for each account and day.
    expect(bounded.store.usageTotals.size).toBe(6);
    for (const account of [fixtures.acme.sid, fixtures.globex.sid]) {
      expect(balanceOf(bounded.engine, account)).toBe(balanceOf(kept.engine, account));
      expect(usageOf(bounded, account)).toEqual(usageOf(kept, account));
      expect(dailyUsageOf(bounded, account)).toEqual(dailyUsageOf(kept, account));
      expect(dailyUsageOf(kept, account).length).toBe(3);
    }
  });

  it("drops what comes after the newest entries of many idle accounts", () => {
    const sandbox = createSandbox({ retain: { maxCount: 5 } });
    // 150 accounts, each left with one entry, its newest: they stay, ahead of everything else.
    const idle = Array.from({ length: 150 }, (_, n) =>
      change(sandbox, () => {
        const account = createAccount(sandbox.engine, { name: `idle ${n}` });
        topUp(sandbox.engine, account.sid, { category: "voice", amount_cents: 100 });
        return account;
      }),
    );
    const calls = Array.from({ length: 400 }, () => finishedCall(sandbox));
    for (const account of idle) expect(balanceOf(sandbox.engine, account.sid)).toBe(100);
    expect(sandbox.store.calls.all().map((c) => c.sid)).toEqual(calls.slice(-5).map((c) => c.sid));
    // The ledger holds the idle accounts' entries and a few beyond the bound, not all 400 calls' charges.
    expect(sandbox.store.ledger.size).toBeLessThan(150 + 80);
  });
});

describe("the age bound", () => {
  it("drops finished records made longer ago, and carrier events that old", async () => {
    const sandbox = createSandbox({ retain: { maxAgeMs: 60_000 } });
    const old = finishedCall(sandbox);
    const live = insertCall(sandbox, { status: "in-progress", end_time: null });
    await sandbox.clock.advance(61_000);
    const fresh = finishedCall(sandbox);
    expect(sandbox.store.calls.has(old.sid)).toBe(false);
    expect(sandbox.store.calls.has(live.sid)).toBe(true);
    expect(sandbox.store.calls.has(fresh.sid)).toBe(true);
    const cutoff = sandbox.clock.now() - 60_000;
    expect(sandbox.store.events.all().every((e) => e.occurred_at >= cutoff)).toBe(true);
    expect(sandbox.store.events.size).toBeGreaterThan(0);
  });
});

describe("the logs' own bounds", () => {
  it("keeps the newest events, webhook attempts and requests within their limits", async () => {
    const sandbox = createSandbox({
      events: { maxCount: 5 },
      journalLimit: 4,
      webhooks: { logLimit: 3 },
    });
    sandbox.webhooks.register("https://app.example.com/", () => "");
    const authorization = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
    for (let n = 0; n < 10; n++) {
      const response = await sandbox.fetch(
        `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Messages.json`,
        {
          method: "POST",
          headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            To: "+15558675310",
            From: fixtures.acme.mainNumber,
            Body: `m${n}`,
            StatusCallback: "https://app.example.com/status",
          }),
        },
      );
      expect(response.status).toBe(201);
    }
    await sandbox.clock.advance(5_000);
    await sandbox.settle();
    expect(sandbox.store.events.size).toBe(5);
    expect(sandbox.requests.list()).toHaveLength(4);
    expect(sandbox.requests.total()).toBe(10);
    expect(sandbox.webhooks.deliveries).toHaveLength(3);
  });
});

describe("a large bound, looked at every few commits", () => {
  it("holds at most a commit's share more than 3,000 finished calls, and exactly 3,000 once looked at", () => {
    // 3,000 records: looked at every 3 commits (commitsPerCheck), so never more than 2 over.
    expect(commitsPerCheck({ maxCount: 3_000 })).toBe(3);
    expect(commitsPerCheck({ maxCount: 999 })).toBe(1);
    expect(commitsPerCheck({ maxAgeMs: 1_000 })).toBe(1);
    const sandbox = createSandbox({ retain: { maxCount: 3_000 } });
    const sizes: number[] = [];
    for (let i = 0; i < 3_010; i++) {
      finishedCall(sandbox);
      sizes.push(sandbox.store.calls.size);
    }
    expect(Math.max(...sizes)).toBe(3_002);
    // The excess goes at the next look: one call in three is followed by the bound exactly.
    expect(sizes.slice(3_000).filter((size) => size === 3_000).length).toBeGreaterThanOrEqual(3);
    expect(sizes.slice(-3)).toContain(3_000);
  });
});
