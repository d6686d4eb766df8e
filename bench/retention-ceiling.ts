// What a sandbox holds at its default bound (`node --expose-gc --import tsx bench/retention-ceiling.ts [messages] [calls]`): messages, then calls (one in four recorded) through the core on the virtual clock, past 100,000 of each kind; the heap after a full collection, and what each table holds.
import { accountSid, authorization, distUrl } from "./lib.js";
import { request } from "./scale-fill.js";
import { richFixtures } from "./steady-load.js";

const { createSandboxCore } = (await import(distUrl("sandbox.js"))) as typeof import("../src/sandbox.js");
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("run it with node --expose-gc");
const [messages, calls] = [Number(process.argv[2] ?? 120_000), Number(process.argv[3] ?? 120_000)];
const { mkdtempSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const sandbox = createSandboxCore({
  clock: "virtual",
  fixtures: richFixtures(mkdtempSync(join(tmpdir(), "vs-ceiling-"))),
});
const base = `/2010-04-01/Accounts/${accountSid}`;
const form = { authorization, "content-type": "application/x-www-form-urlencoded" };
const { store } = sandbox;

const report = (label: string) => {
  collect();
  collect();
  const memory = process.memoryUsage();
  const sizes = ["messages", "calls", "recordings", "events", "ledger", "ttsEvents", "usageTotals"] as const;
  console.log(
    `${label.padEnd(22)} heap ${(memory.heapUsed / 1048576).toFixed(0)} MB (RSS ${(memory.rss / 1048576).toFixed(0)} MB)  ${sizes.map((t) => `${t} ${store[t].size}`).join(", ")}`,
  );
};

const post = async (path: string, body: string) => {
  const answer = await sandbox.handle(request("POST", path, form, body));
  if (answer.status !== 201)
    throw new Error(`POST ${path} answered ${answer.status}: ${String(answer.body)}`);
};

report("started");
for (let i = 0; i < messages; i++) {
  await post(
    `${base}/Messages.json`,
    `To=%2B1555867${1000 + (i % 9000)}&From=%2B14155550100&Body=Hello+there+${i}`,
  );
  if (i % 1000 === 999) await sandbox.clock.advance(3_000);
}
await sandbox.clock.advance(5_000);
report(`${messages} messages`);
const twiml = encodeURIComponent("<Response><Say>Thank you for calling, goodbye.</Say></Response>");
for (let i = 0; i < calls; i++) {
  await post(
    `${base}/Calls.json`,
    `To=%2B1555867${1000 + (i % 9000)}&From=%2B14155550100&Twiml=${twiml}${i % 4 === 0 ? "&Record=true" : ""}`,
  );
  if (i % 200 === 199) await sandbox.clock.advance(20_000);
}
await sandbox.clock.advance(60_000);
report(`${calls} calls too`);
