// Disk faults: a write the disk refuses answers 503 in each surface's format, is logged with the file and the reason, reports health degraded, and recovers by itself once the disk accepts writes, with nothing half-written.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { SandboxRequest } from "../../src/http/types.js";
import { createSandboxCore } from "../../src/sandbox.js";
import { openDataDir } from "../../src/server/persistence/data-dir.js";
import { type DataDirFiles, nodeFiles, type WritableFile } from "../../src/server/persistence/files.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

/** node:fs, except that while `full` is set a write puts down half its bytes and then fails as a full disk does. */
function fillableDisk() {
  const disk = { full: false };
  const guard = (file: WritableFile): WritableFile => ({
    ...file,
    async write(data) {
      if (!disk.full) return file.write(data);
      await file.write(data.subarray(0, Math.floor(data.length / 2)));
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    },
  });
  const files: DataDirFiles = {
    ...nodeFiles,
    openAppend: async (path) => guard(await nodeFiles.openAppend(path)),
    openWrite: async (path) => guard(await nodeFiles.openWrite(path)),
  };
  return { disk, files };
}

const basic = `Basic ${Buffer.from(acmeAuth.basic.join(":")).toString("base64")}`;
const request = (
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = "",
): SandboxRequest => ({
  method,
  path,
  query: "",
  headers,
  body,
});
const sendMessage = (text: string) =>
  request(
    "POST",
    `/2010-04-01/Accounts/${fixtures.acme.sid}/Messages.json`,
    { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
    `To=%2B15558675310&From=%2B14155550100&Body=${text}`,
  );
const createAccount = (name: string) =>
  request(
    "POST",
    "/carrier/v1/accounts",
    { authorization: `Bearer ${fixtures.carrierKey}`, "content-type": "application/vnd.api+json" },
    JSON.stringify({ data: { type: "account", attributes: { name } } }),
  );
const json = (response: { body: string | Uint8Array }) => JSON.parse(String(response.body));

describe("disk faults", () => {
  it("answers 503, logs, reports degraded, refuses changes, then recovers by itself with nothing half-written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-disk-"));
    const { disk, files } = fillableDisk();
    const logged: { level: string; details: Record<string, unknown>; message: string }[] = [];
    const sandbox = createSandboxCore({ clock: "virtual" });
    const persistence = await openDataDir(sandbox, dir, {
      files,
      retryMs: 5,
      log: {
        error: (details, message) => logged.push({ level: "error", details, message }),
        info: (details, message) => logged.push({ level: "info", details, message }),
      },
    });
    const handle = persistence.wrap(sandbox.handle);
    const health = async () => json(await handle(request("GET", "/__sandbox/health")));
    expect((await health()).status).toBe("ok");

    disk.full = true;
    // The change was made when the disk refused it: the client hears 503, in the account API's format.
    const failed = await handle(sendMessage("first"));
    expect(failed.status).toBe(503);
    expect(json(failed)).toMatchObject({ code: 20503, status: 503 });
    expect(json(failed).message).toMatch(/could not save changes to .*journal.*ENOSPC/);
    const error = logged.find((entry) => entry.level === "error")!;
    expect(error.details).toMatchObject({ reason: expect.stringMatching(/^ENOSPC/) });
    expect(String(error.details.path)).toContain(dir);

    const degraded = await health();
    expect(degraded.status).toBe("degraded");
    expect(degraded.problems).toEqual([
      { component: "data-dir", message: expect.stringMatching(/cannot write .*ENOSPC/) },
    ]);
    // Reads go on; changes are refused before they are made, here in the carrier API's format.
    const accountsBefore = sandbox.store.accounts.size;
    const refused = await handle(createAccount("While full"));
    expect(refused.status).toBe(503);
    expect(json(refused).errors[0]).toMatchObject({ status: "503", title: "Service Unavailable" });
    expect(sandbox.store.accounts.size).toBe(accountsBefore);
    expect(
      (
        await handle(
          request("GET", "/carrier/v1/accounts", { authorization: `Bearer ${fixtures.carrierKey}` }),
        )
      ).status,
    ).toBe(200);

    disk.full = false;
    for (let tries = 0; (await health()).status !== "ok"; tries++) {
      expect(tries).toBeLessThan(2000);
      await sleep(5);
    }
    expect(logged.at(-1)).toMatchObject({
      level: "info",
      message: expect.stringMatching(/accepts writes again/),
    });
    const created = await handle(createAccount("After"));
    expect(created.status).toBe(201);
    const afterSid = json(created).data.id;
    await persistence.close();

    // The half-written bytes were taken back: the directory replays cleanly, with the change the disk first refused.
    const warnings: string[] = [];
    const restarted = createSandboxCore({ clock: "virtual" });
    const again = await openDataDir(restarted, dir, { warn: (message) => warnings.push(message) });
    expect(warnings).toEqual([]);
    expect(again.replayed.droppedTornRecord).toBe(false);
    expect(restarted.store.accounts.has(afterSid)).toBe(true);
    expect(restarted.store.messages.all().map((m) => m.body)).toEqual(
      sandbox.store.messages.all().map((m) => m.body),
    );
    expect(restarted.store.messages.all().some((m) => m.body === "first")).toBe(true);
    await again.close();
  });
});
