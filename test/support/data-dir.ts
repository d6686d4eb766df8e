// Test support: a sandbox on a data directory, and a carrier account created through it (persistence tests).
import { expect } from "vitest";
import { createSandboxCore, type SandboxCore } from "../../src/sandbox.js";
import { openDataDir } from "../../src/server/persistence/data-dir.js";
import { fixtures } from "./fixtures.js";

export async function createAccount(handle: SandboxCore["handle"], name: string): Promise<string> {
  const response = await handle({
    method: "POST",
    path: "/carrier/v1/accounts",
    query: "",
    headers: { authorization: `Bearer ${fixtures.carrierKey}`, "content-type": "application/vnd.api+json" },
    body: JSON.stringify({ data: { type: "account", attributes: { name } } }),
  });
  expect(response.status).toBe(201);
  return JSON.parse(String(response.body)).data.id;
}

/** A virtual-clock sandbox on `dir`, its warnings collected, with the handle that journals each change. */
export async function start(dir: string, warnings: string[] = [], snapshotEvery?: number) {
  const sandbox = createSandboxCore({ clock: "virtual" });
  const persistence = await openDataDir(sandbox, dir, {
    warn: (message) => warnings.push(message),
    ...(snapshotEvery ? { snapshotEvery } : {}),
  });
  return { sandbox, persistence, handle: persistence.wrap(sandbox.handle) };
}
