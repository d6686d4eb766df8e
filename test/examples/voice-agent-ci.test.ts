// The voice agent CI example's gates catch what they are for: an agent that talks through the caller fails the
// persona scenario, a slow one fails the load run, and the load command's exit code says so.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startAgent } from "../../examples/voice-agent-ci/agent.mjs";
import { runLoad } from "../../src/index.js";
import { scenarioTests } from "../../src/scenarios/vitest.js";

const repo = join(import.meta.dirname, "../..");
const folder = join(repo, "examples/voice-agent-ci");

describe("the voice agent CI example's gates", () => {
  it("fail the persona scenario against an agent that never stops when talked over", async () => {
    const agent = await startAgent({ stopAfterMs: Number.POSITIVE_INFINITY });
    try {
      const [impatient] = scenarioTests(join(folder, "persona-impatient.yaml"), {
        target: () => agent.url(""),
      });
      // Its answer only stops when it runs out, well past the gate.
      await expect(impatient!.play()).rejects.toThrow(/barge-in stop max is \d+ ms, expected < 300ms/);
    } finally {
      await agent.close();
    }
  });

  it("fail the load run against an agent that thinks for 4 s a turn", async () => {
    const slow = await startAgent({ think: () => 4000 });
    try {
      const result = await runLoad(join(folder, "load.yaml"), {
        calls: 2,
        concurrency: 2,
        target: slow.url(""),
      });
      expect(result.passed).toBe(false);
      expect(result.thresholds.find((g) => g.path.endsWith("response_latency.p95"))).toMatchObject({
        passed: false,
      });
    } finally {
      await slow.close();
    }
  }, 60_000);

  it("runs from the command line: voice-sandbox load exits 0 when the gates hold, 1 when they do not", async () => {
    const load = async (think: number) => {
      const agent = await startAgent({ think: () => think });
      try {
        const args = [
          "--import",
          "tsx",
          join(repo, "src/server/cli.ts"),
          "load",
          "examples/voice-agent-ci/load.yaml",
        ];
        return await promisify(execFile)(
          process.execPath,
          [...args, "--target", agent.url(""), "--calls", "2", "--concurrency", "2"],
          { cwd: repo, timeout: 60_000 },
        ).then(
          (out) => ({ code: 0, ...out }),
          (error: { code: number; stdout: string; stderr: string }) => error,
        );
      } finally {
        await agent.close();
      }
    };
    const [fast, slow] = await Promise.all([load(0), load(4000)]);
    expect(fast.code, fast.stdout + fast.stderr).toBe(0);
    expect(fast.stdout).toContain("PASSED");
    expect(slow.code, slow.stdout + slow.stderr).toBe(1);
    expect(slow.stdout).toContain("response_latency.p95");
  }, 90_000);
});
