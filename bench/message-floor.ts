// What a sent message must write, and nothing else: its row and the three delivery steps' new versions, the
// indexes they are filed in, the charge, and the carrier events for each change, through the store and the
// engine's own event recorder. No HTTP, no validation, no scheduler. Run in a process of its own (with the Node
// flags `npm start` uses, and --expose-gc) by the sustained POST benchmark, which sets it against the time its
// target leaves a request.
import {
  accountSid,
  authorization,
  distUrl,
  envNumber,
  formContentType,
  median,
  messageForm,
  messagesPath,
  richFixtures,
} from "./lib.js";
import { request } from "./scale-fill.js";

/** Microseconds per message, the median of the rounds. */
export interface FloorResult {
  /**
   * Rows, index filings, charge and the five carrier events (created, sending, sent, delivered, balance.charge).
   * Less than the engine does for them (no rate lookup, price arithmetic or balance read; 100,000 messages a
   * table where a minute of load leaves ~400,000): a lower bound.
   */
  withEventsUs: number;
  /** The same without the events. */
  withoutEventsUs: number;
  /**
   * The whole message in-process: form POSTs through the core (`sandbox.handle`: credentials, validation, the
   * engine, the JSON answer), their delivery run by the engine's scheduler on the virtual clock. No sockets.
   */
  throughCoreUs: number;
}

const { createSandboxCore } = (await import(distUrl("sandbox.js"))) as typeof import("../src/sandbox.js");
const { recordEvent } = (await import(
  distUrl("engine/context/events.js")
)) as typeof import("../src/engine/context/events.js");
type Message = ReturnType<ReturnType<typeof createSandboxCore>["store"]["messages"]["all"]>[number];

const messages = Math.round(envNumber("BENCH_FLOOR_MESSAGES", 100_000));
const rounds = 3;
/** The sustained POST benchmark's own request, as the core takes it. */
const messagePost = request(
  "POST",
  messagesPath,
  { authorization, "content-type": formContentType },
  messageForm,
);
/**
 * How many messages come between a message's steps: the server at ~6,000 a second (this machine's sustained
 * POST rate) sends one 500 ms and delivers it 2.5 s after it is made (message-delivery.ts).
 */
const sentLag = 3_000;
const deliveredLag = 15_000;

/** One round: `messages` created, each taken through sending, sent (charged) and delivered. */
async function round(withEvents: boolean): Promise<number> {
  // A fresh sandbox a round, so each starts from the same state (the default event retention, 100,000).
  const sandbox = createSandboxCore({ clock: "virtual", fixtures: richFixtures() });
  const created = await sandbox.handle(messagePost);
  if (created.status !== 201) throw new Error(`POST Messages.json answered ${created.status}`);
  const template = sandbox.store.messages.all().at(-1)!;
  const ctx = sandbox.engine;
  const { store, ids, clock } = ctx;
  const event = (type: string, row: { sid: string }, resourceType = "message") => {
    if (withEvents) recordEvent(ctx, type, accountSid, resourceType, row);
  };
  const sids: string[] = [];
  let balance = 0;
  const create = () => {
    const now = clock.now();
    const message = store.messages.insert({
      ...template,
      sid: ids.mint("SM"),
      created_at: now,
      updated_at: now,
    });
    event("message.created", message);
    sids.push(message.sid);
  };
  const step = (sid: string, status: "sending" | "sent" | "delivered") => {
    const now = clock.now();
    const current = store.messages.get(sid)!;
    const changes: Partial<Message> = { status, updated_at: now };
    if (status === "sent") {
      changes.date_sent = now;
      changes.price = "-0.00790";
      balance -= 1;
      const entry = store.ledger.insert({
        sid: ids.mint("BT"),
        account_sid: accountSid,
        kind: "charge",
        category: "sms",
        amount_cents: -1,
        balance_cents: balance,
        description: "outbound-api SMS to +15558675310, 1 segment",
        resource_type: "message",
        resource_sid: sid,
        created_at: now,
      });
      event("balance.charge", entry, "balance_transaction");
    }
    event(`message.${status}`, store.messages.replace({ ...current, ...changes }));
  };
  const started = performance.now();
  // In the order a server under load makes them: each new message goes to sending at once, the one sent
  // `sentLag` messages earlier is sent, and the one `deliveredLag` earlier delivered.
  for (let i = 0; i < messages + deliveredLag; i++) {
    if (i < messages) {
      store.transact(create);
      store.transact(() => step(sids[i]!, "sending"));
    }
    const sent = i - sentLag;
    if (sent >= 0 && sent < messages) store.transact(() => step(sids[sent]!, "sent"));
    const delivered = i - deliveredLag;
    if (delivered >= 0) store.transact(() => step(sids[delivered]!, "delivered"));
  }
  return ((performance.now() - started) * 1000) / messages;
}

/**
 * One round through the core: `messages` form POSTs in batches of a thousand, the virtual clock moved on 160 ms
 * after each (about 6,000 a second), so delivery steps run among the creates as on a loaded server.
 */
async function roundThroughCore(): Promise<number> {
  const sandbox = createSandboxCore({ clock: "virtual", fixtures: richFixtures() });
  const batch = 1_000;
  const started = performance.now();
  for (let sent = 0; sent < messages; sent += batch) {
    for (let i = 0; i < batch; i++) {
      const answer = await sandbox.handle(messagePost);
      if (answer.status !== 201) throw new Error(`POST Messages.json answered ${answer.status}`);
    }
    await sandbox.clock.advance(160);
  }
  // The last messages' steps, as the lagging ones of a loaded server.
  await sandbox.clock.advance(3_000);
  return ((performance.now() - started) * 1000) / messages;
}

const withEvents: number[] = [];
const withoutEvents: number[] = [];
const throughCore: number[] = [];
/** The sandbox of the round before is collected before a round starts, when the process allows it (--expose-gc). */
const collect = () => (globalThis as { gc?: () => void }).gc?.();
for (let i = 0; i < rounds; i++) {
  collect();
  withEvents.push(await round(true));
  collect();
  withoutEvents.push(await round(false));
  collect();
  throughCore.push(await roundThroughCore());
}
const result: FloorResult = {
  withEventsUs: median(withEvents),
  withoutEventsUs: median(withoutEvents),
  throughCoreUs: median(throughCore),
};
if (process.send) process.send(result);
else console.log(JSON.stringify(result));
