// Calls at once on a small wallet: each holds its first minute from admission and every next minute as it starts,
// so the wallet is never overdrawn by call minutes, and the ledger still sums to the balance.
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { acmeWallet, useEngine } from "./harness.js";

describe("credit held by running calls", () => {
  const h = useEngine();
  const { balance, ledgerSum, leaveOnly } = acmeWallet(h);

  it("admits only the calls whose first minute fits, cuts them when the next does not, never overdraws", async () => {
    await leaveOnly(5);
    // US minutes cost 1.3 cents, held as 2: five cents hold two calls' first minutes, and nothing more.
    const callees = Array.from({ length: 10 }, (_, i) => `+1415555030${i}`);
    for (const to of callees)
      h.door.sandbox.calls.setParty(to, { ringAfter: 0, answerAfter: 0, hangupAfter: "170s" });
    const placed = await Promise.allSettled(
      callees.map((to) =>
        h.door.twilioClient().calls.create({
          from: fixtures.acme.mainNumber,
          to,
          twiml: '<Response><Pause length="600"/></Response>',
        }),
      ),
    );
    const admitted = placed.filter((p) => p.status === "fulfilled").map((p) => p.value.sid);
    const refused = placed.filter((p) => p.status === "rejected").map((p) => p.reason);
    expect(admitted).toHaveLength(2);
    expect(refused).toHaveLength(8);
    for (const error of refused) expect(error).toMatchObject({ status: 402, code: 20042 });

    await h.run();
    for (const sid of admitted) {
      const call = await h.door.twilioClient().calls(sid).fetch();
      // Cut when its second minute could not be held: one billed minute each.
      expect(call).toMatchObject({ status: "completed", duration: "60", price: "-0.01300" });
    }
    expect(await balance()).toBe(1);
    expect(ledgerSum()).toBe(1);
    expect(h.door.sandbox.calls.timeline(admitted[0]!).map((e) => e.kind)).toContain("credit.exhausted");
  });

  it("lets a call run on while the wallet can spare each next minute", async () => {
    await leaveOnly(20);
    h.door.sandbox.calls.setParty("+14155550399", { ringAfter: 0, answerAfter: 0, hangupAfter: "170s" });
    const call = await h.door.twilioClient().calls.create({
      from: fixtures.acme.mainNumber,
      to: "+14155550399",
      twiml: '<Response><Pause length="600"/></Response>',
    });
    await h.run();
    expect(await h.door.twilioClient().calls(call.sid).fetch()).toMatchObject({
      status: "completed",
      duration: "170",
      price: "-0.03900",
    });
    expect(await balance()).toBe(16);
    expect(ledgerSum()).toBe(16);
  });
});
