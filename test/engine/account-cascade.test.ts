// Deleting an account leaves nothing of it in any table: the cascade follows the ownership each table declares.
import { describe, expect, it } from "vitest";
import { tableDefinitions } from "../../src/domain/store.js";
import { deleteAccount } from "../../src/engine/accounts/accounts.js";
import { createAgentExtension } from "../../src/engine/accounts/agent-extensions.js";
import { createApplication } from "../../src/engine/accounts/applications.js";
import { requestValidation } from "../../src/engine/accounts/outgoing-caller-ids.js";
import { createRingGroup } from "../../src/engine/accounts/ring-groups.js";
import { createSipTrunk } from "../../src/engine/accounts/sip-trunks.js";
import { createSubaccount } from "../../src/engine/accounts/subaccounts.js";
import { foldCharges } from "../../src/engine/billing/usage-records.js";
import { sendMessage } from "../../src/engine/messaging/messages.js";
import { createSandbox } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";

const app = "https://acme.example/voice";
const idOf = (name: string, row: unknown) =>
  (tableDefinitions[name as keyof typeof tableDefinitions].id as (row: unknown) => string)(row);

/** Every sid-like value in a row (the sids it holds or points at). */
const mentions = (row: unknown, sids: Set<string>) => {
  const text = JSON.stringify(row);
  for (const sid of sids) if (text.includes(sid)) return true;
  return false;
};

describe("account deletion cascade", () => {
  it("removes every record the account owns, in every table, directly or through a parent", async () => {
    const sandbox = createSandbox({ seed: 3 });
    const { store } = sandbox;
    const ctx = sandbox.engine;
    const acme = store.accounts.get(fixtures.acme.sid)!;
    // Acme's main number answers in the app: a conference caller, a queued caller, a recorded voicemail.
    sandbox.webhooks.register(app, ({ params }) => {
      if (params.From === "+14155550201")
        return "<Response><Dial><Conference>standup</Conference></Dial></Response>";
      if (params.From === "+14155550202") return "<Response><Enqueue>support</Enqueue></Response>";
      return '<Response><Say>Leave a message</Say><Record transcribe="true" maxLength="10"/></Response>';
    });
    const main = store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
    store.phoneNumbers.replace({ ...main, voice_url: app, voice_method: "POST" });
    sandbox.calls.ring({ from: "+14155550201", to: fixtures.acme.mainNumber });
    sandbox.calls.ring({ from: "+14155550202", to: fixtures.acme.mainNumber });
    sandbox.calls.ring({
      from: "+14155550203",
      to: fixtures.acme.mainNumber,
      caller: { steps: [{ on: { verb: "Record" }, after: "1s", say: "Call me back", for: "2s" }] },
    });
    await sandbox.clock.advance(30_000);
    await sandbox.settle();
    sandbox.calls.messages.start(
      sendMessage(ctx, {
        accountSid: acme.sid,
        from: fixtures.acme.mainNumber,
        to: "+14155550123",
        body: "hi",
      }),
    );
    const agent = createAgentExtension(ctx, acme.sid, { agent_name: "Ada" });
    createRingGroup(ctx, acme.sid, { name: "Support", agent_extension_sids: [agent.sid] });
    createSipTrunk(ctx, {
      name: "Acme PBX",
      account_sid: acme.sid,
      termination_uris: ["sip:pbx.acme.example"],
      phone_number_sids: [main.sid],
    });
    createApplication(ctx, acme.sid, { voice_url: app });
    requestValidation(ctx, acme.sid, { phoneNumber: "+14155550299" });
    // A subaccount goes with its parent, and so does what it owns.
    const sub = createSubaccount(ctx, acme, "Acme EU");
    createApplication(ctx, sub.sid, { voice_url: app });
    // A charge summed up as a bound on the store would before dropping it (engine/context/retention.ts).
    foldCharges(ctx, [store.ledger.where("account", acme.sid).find((entry) => entry.kind === "charge")!]);
    /** Every row naming Globex, table by table, as text. */
    const globexRows = () =>
      JSON.stringify(
        Object.keys(tableDefinitions).map((name) =>
          store[name as keyof typeof tableDefinitions]
            .all()
            .filter((row) => mentions(row, new Set([fixtures.globex.sid]))),
        ),
      );
    const globexBefore = globexRows();

    // What Acme owns: rows naming the account, then rows naming those rows, until nothing new is found.
    const owned = new Set([acme.sid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [name, { owner: ownership }] of Object.entries(tableDefinitions)) {
        if (ownership.kind === "none") continue;
        const table = store[name as keyof typeof tableDefinitions];
        for (const row of table.all()) {
          const id = idOf(name, row);
          if (!owned.has(id) && mentions(row, owned)) {
            owned.add(id);
            grew = true;
          }
        }
      }
    }
    // Every table the account can own something in has something of Acme's, so the check below covers it.
    for (const [name, { owner: ownership }] of Object.entries(tableDefinitions)) {
      if (ownership.kind === "none") continue;
      const table = store[name as keyof typeof tableDefinitions];
      expect(
        table.all().some((row) => owned.has(idOf(name, row))),
        `${name} has a row of Acme's`,
      ).toBe(true);
    }

    deleteAccount(ctx, acme);

    for (const [name, { owner: ownership }] of Object.entries(tableDefinitions)) {
      const table = store[name as keyof typeof tableDefinitions];
      if (ownership.kind === "none") continue;
      for (const row of table.all()) {
        const id = idOf(name, row);
        // A released row (a number back in the inventory, a trunk back with the carrier) stays, naming nobody.
        if (ownership.kind === "released")
          expect(mentions(row, new Set([acme.sid])), `${name} ${id}`).toBe(false);
        else expect(owned.has(id), `${name} ${id} survived`).toBe(false);
      }
    }
    // Other accounts' records are untouched.
    const globexAfter = globexRows();
    expect(globexAfter).toBe(globexBefore);
  });
});
