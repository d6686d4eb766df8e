// A sandbox whose Acme number runs markup the test gives, for phone API tests: /voice, /next (an action) and /sms.
import { expect } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { fixtures } from "./fixtures.js";

/** Where the number's markup is served (an in-process receiver). */
export const phoneApp = "https://phone-tests.example.test";

/** A sandbox whose Acme number answers with `voice` (and `/next` with `next`), and texts with `sms`. */
export async function sandboxWith(markup: { voice: string; next?: string; sms?: string }): Promise<Sandbox> {
  const sandbox = createSandbox();
  sandbox.webhooks.register(`${phoneApp}/`, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/voice") return markup.voice;
    if (path === "/next") return markup.next ?? "<Response/>";
    if (path === "/sms") return markup.sms ?? "<Response/>";
    return "";
  });
  const number = sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
  const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers/${number.sid}.json`;
  const response = await sandbox.fetch(`${sandbox.baseUrl}${base}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${fixtures.carrierKey}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ VoiceUrl: `${phoneApp}/voice`, SmsUrl: `${phoneApp}/sms` }),
  });
  expect(response.status).toBe(200);
  return sandbox;
}
