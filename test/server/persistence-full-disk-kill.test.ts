// The full-disk story in a child process killed with SIGKILL at each of its steps and at each file operation of its recovery: a restart keeps every account that got a 201.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandboxCore } from "../../src/sandbox.js";
import { openDataDir } from "../../src/server/persistence/data-dir.js";
import { exited } from "../support/cli-process.js";
import { fixtures } from "../support/fixtures.js";

const child = join(import.meta.dirname, "persistence-fault-child.ts");

interface Run {
  process: ChildProcess;
  acknowledged: Map<string, string>;
  /** Each step reached, with the file operations done before it. */
  steps: Map<string, number>;
  output: () => string;
}

/** Starts the story in a child; `onStep` is told each step as it is reached. */
function tell(dir: string, stopAt?: number, onStep?: (step: string, run: Run) => void): Run {
  const process_ = spawn(process.execPath, ["--import", "tsx", child, dir], {
    env: { ...process.env, ...(stopAt ? { STOP_AT: String(stopAt) } : {}) },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  process_.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  process_.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const run: Run = { process: process_, acknowledged: new Map(), steps: new Map(), output: () => output };
  process_.on(
    "message",
    (message: { acknowledged?: [string, string]; step?: string; operations?: number }) => {
      if (message.acknowledged) run.acknowledged.set(...message.acknowledged);
      if (message.step) {
        run.steps.set(message.step, message.operations!);
        onStep?.(message.step, run);
      }
    },
  );
  return run;
}

/** Restarts from `dir` (plain node:fs), checks every acknowledged account, writes one more and restarts again. */
async function checkAfterKill(dir: string, acknowledged: Map<string, string>, moment: string) {
  const sandbox = createSandboxCore({ clock: "virtual" });
  const persistence = await openDataDir(sandbox, dir);
  for (const [sid, name] of acknowledged)
    expect(sandbox.store.accounts.get(sid)?.name, `killed ${moment}: ${name}`).toBe(name);
  const more = await persistence.wrap(sandbox.handle)({
    method: "POST",
    path: "/carrier/v1/accounts",
    query: "",
    headers: { authorization: `Bearer ${fixtures.carrierKey}`, "content-type": "application/vnd.api+json" },
    body: JSON.stringify({ data: { type: "account", attributes: { name: "after the kill" } } }),
  });
  expect(more.status).toBe(201);
  await persistence.close();
  const warnings: string[] = [];
  const again = createSandboxCore({ clock: "virtual" });
  const reopened = await openDataDir(again, dir, { warn: (message) => warnings.push(message) });
  expect(warnings, `killed ${moment}`).toEqual([]);
  for (const [sid, name] of acknowledged)
    expect(again.store.accounts.get(sid)?.name, `killed ${moment}: ${name}`).toBe(name);
  expect(again.store.accounts.get(JSON.parse(String(more.body)).data.id)?.name).toBe("after the kill");
  await reopened.close();
}

describe("a full disk and SIGKILL", () => {
  it("keeps every acknowledged account when killed at each step and each file operation of the recovery", {
    timeout: 180_000,
  }, async () => {
    const dry = tell(mkdtempSync(join(tmpdir(), "vs-kill-")), undefined, (reached, self) => {
      if (reached === "told") self.process.send("stop");
    });
    expect(await exited(dry.process), dry.output()).toBe(0);
    expect([...dry.steps.keys()]).toEqual([
      "before",
      "compaction starts",
      "disk full",
      "space back",
      "after",
      "told",
    ]);
    expect(dry.acknowledged.size).toBe(8);

    // Killed from outside as each step is reached (the story goes on a moment before the signal lands).
    for (const step of dry.steps.keys()) {
      const dir = mkdtempSync(join(tmpdir(), "vs-kill-"));
      const run = tell(dir, undefined, (reached, self) => {
        if (reached === step) self.process.kill("SIGKILL");
      });
      await exited(run.process);
      expect(run.process.signalCode, run.output()).toBe("SIGKILL");
      await checkAfterKill(dir, run.acknowledged, `at "${step}"`);
    }

    // Killing itself at each file operation from the space coming back to the recovery done: the retried
    // snapshot (its file, its rename, the journals it retires) and the journal writes beside it.
    const from = dry.steps.get("space back")! + 1;
    const to = dry.steps.get("after")!;
    expect(to - from).toBeGreaterThan(4);
    for (let stopAt = from; stopAt <= to; stopAt++) {
      const dir = mkdtempSync(join(tmpdir(), "vs-kill-"));
      const run = tell(dir, stopAt);
      await exited(run.process);
      expect(run.process.signalCode, run.output()).toBe("SIGKILL");
      await checkAfterKill(dir, run.acknowledged, `at file operation ${stopAt}`);
    }
  });
});
