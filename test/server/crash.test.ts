// Crash safety: a server child process is killed with SIGKILL mid-writes, restarted, and must keep every 2xx write.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exited, startServe } from "../support/cli-process.js";
import { fixtures } from "../support/fixtures.js";

const carrier = {
  authorization: `Bearer ${fixtures.carrierKey}`,
  "content-type": "application/vnd.api+json",
};

/** Starts the CLI on a free port and resolves once it listens. */
async function startServer(
  dataDir: string,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const server = startServe(["--port", "0", "--data-dir", dataDir, "--snapshot-every", "25"]);
  return { child: server.child, url: await server.listening, output: server.output };
}

/** A small seeded generator, so kill moments vary but the run is repeatable in intent. */
function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("crash safety", () => {
  it("keeps every acknowledged write across SIGKILLs at random moments", { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vs-crash-"));
    const random = lcg(20260101);
    const created = new Map<string, string>(); // id -> name, for creates that got a 201
    const patched = new Map<string, string>(); // id -> metadata.tag, for updates that got a 200
    const claimed = new Set<string>();
    let counter = 0;

    const checkEverything = async (url: string) => {
      const state = await (await fetch(`${url}/__sandbox/state`)).json();
      const accounts = new Map<string, { name: string; metadata: Record<string, string> }>(
        state.store.accounts.map((a: { sid: string; name: string; metadata: Record<string, string> }) => [
          a.sid,
          a,
        ]),
      );
      for (const [id, name] of created) expect(accounts.get(id)?.name, `account ${id}`).toBe(name);
      for (const [id, tag] of patched) expect(accounts.get(id)?.metadata.tag, `update of ${id}`).toBe(tag);
    };

    for (let cycle = 0; cycle < 4; cycle++) {
      const { child, url } = await startServer(dataDir);
      await checkEverything(url);
      let stop = false;
      const worker = async () => {
        while (!stop) {
          const name = `crash-${cycle}-${counter++}`;
          try {
            // Each account is updated at most once, so an acknowledged update has one expected value.
            const ids = [...created.keys()].filter((id) => !claimed.has(id));
            if (ids.length > 0 && random() < 0.3) {
              const id = ids[Math.floor(random() * ids.length)]!;
              claimed.add(id);
              const res = await fetch(`${url}/carrier/v1/accounts/${id}`, {
                method: "PATCH",
                headers: carrier,
                body: JSON.stringify({
                  data: { type: "account", id, attributes: { metadata: { tag: name } } },
                }),
              });
              if (res.status === 200) patched.set(id, name);
            } else {
              const res = await fetch(`${url}/carrier/v1/accounts`, {
                method: "POST",
                headers: carrier,
                body: JSON.stringify({ data: { type: "account", attributes: { name } } }),
              });
              if (res.status === 201) created.set((await res.json()).data.id, name);
            }
          } catch {
            // The connection died with the server: this write was never acknowledged.
          }
        }
      };
      const workers = Array.from({ length: 6 }, worker);
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(random() * 500)));
      child.kill("SIGKILL");
      stop = true;
      await Promise.all(workers);
      await exited(child);
    }

    const { child, url } = await startServer(dataDir);
    await checkEverything(url);
    expect(created.size).toBeGreaterThan(20);
    // A graceful stop flushes and exits cleanly.
    child.kill("SIGTERM");
    expect(await exited(child)).toBe(0);
    const again = await startServer(dataDir);
    await checkEverything(again.url);
    again.child.kill("SIGKILL");
    await exited(again.child);
  });
});
