// Fills a sandbox for the scale benchmark: N calls and N messages shaped like real ones, each with two events.
import { accountSid, authorization, distUrl } from "./lib.js";

const { recordEvent } = (await import(
  distUrl("engine/context/events.js")
)) as typeof import("../src/engine/context/events.js");
type Sandbox = ReturnType<typeof import("../src/sandbox.js").createSandboxCore>;

const account = { authorization };

export function request(method: string, path: string, headers: Record<string, string>, body = "") {
  const q = path.indexOf("?");
  return {
    method,
    path: q < 0 ? path : path.slice(0, q),
    query: q < 0 ? "" : path.slice(q + 1),
    headers,
    body,
  };
}

export const hexOf = (n: number) => n.toString(16).padStart(32, "0");
const statuses = ["completed", "completed", "completed", "busy", "no-answer", "failed", "canceled"] as const;

/** Fills the store with `size` calls and messages shaped like real ones, each with two events. */
export async function fill(sandbox: Sandbox, size: number) {
  const base = `/2010-04-01/Accounts/${accountSid}`;
  const form = { ...account, "content-type": "application/x-www-form-urlencoded" };
  await sandbox.handle(
    request(
      "POST",
      `${base}/Calls.json`,
      form,
      "To=%2B15558675310&From=%2B14155550100&Twiml=%3CResponse%2F%3E",
    ),
  );
  await sandbox.handle(
    request("POST", `${base}/Messages.json`, form, "To=%2B15558675310&From=%2B14155550100&Body=hello+there"),
  );
  const callTemplate = sandbox.store.calls.all().at(-1)!;
  const messageTemplate = sandbox.store.messages.all().at(-1)!;
  const { store, clock } = sandbox.engine;
  const start = clock.now();
  for (let n = 0; n < size; n++) {
    const to = `+1555${String(n % 10_000).padStart(7, "0")}`;
    const created = start + n * 1000;
    const call = store.calls.insert({
      ...callTemplate,
      sid: `CA${hexOf(n)}`,
      to,
      status: statuses[n % statuses.length]!,
      created_at: created,
      updated_at: created,
    });
    recordEvent(sandbox.engine, "phone_call.created", call.account_sid, "phone_call", call);
    recordEvent(sandbox.engine, `phone_call.${call.status}`, call.account_sid, "phone_call", call);
    const message = store.messages.insert({
      ...messageTemplate,
      sid: `SM${hexOf(n)}`,
      to,
      body: `message number ${n}`,
      status: n % 10 === 0 ? "undelivered" : "delivered",
      created_at: created,
      updated_at: created,
    });
    recordEvent(sandbox.engine, "message.queued", message.account_sid, "message", message);
    recordEvent(sandbox.engine, `message.${message.status}`, message.account_sid, "message", message);
  }
}
