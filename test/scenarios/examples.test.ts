// Every example scenario in scenarios/ runs as a test (the customer-app one against the real example app).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { startCustomerApp } from "../../examples/customer-app/app.mjs";
import { createSandboxCore } from "../../src/index.js";
import { scenarioTests } from "../../src/scenarios/vitest.js";
import { fixtures } from "../support/fixtures.js";

const repoRoot = join(import.meta.dirname, "../..");
let app: Awaited<ReturnType<typeof startCustomerApp>>;

beforeAll(async () => {
  app = await startCustomerApp({ authToken: fixtures.acme.authToken });
});
afterAll(async () => app.close());

describe("example scenarios", () => {
  const cases = scenarioTests("scenarios/*.yaml", { cwd: repoRoot, target: () => app.url });

  it("finds every example file", () => {
    expect(cases.map((c) => c.file.split("/").pop()).sort()).toEqual([
      "agent-dual-channel-recording.yaml",
      "conference-coaching.yaml",
      "conference-recording.yaml",
      "customer-app-ivr.yaml",
      "dial-ringback.yaml",
      "dial-sip-then-number.yaml",
      "failed-transcription.yaml",
      "inbound-sms-auto-reply.yaml",
      "ivr-menu.yaml",
      "outbound-call-outcomes.yaml",
      "queue-dequeue-front.yaml",
      "ring-group-sequential.yaml",
      "suspended-account.yaml",
      "voicemail-drop.yaml",
      "voicemail-transcribed.yaml",
    ]);
  });

  test.for(cases)("$name", async (scenario, context) => {
    const result = await scenario.play(context);
    expect(result.status).toBe("passed");
  });

  it("the customer-app scenario really reached the app, whose signature checks passed", async () => {
    app.received.length = 0;
    const result = await scenarioTests("scenarios/customer-app-ivr.yaml", {
      cwd: repoRoot,
      target: app.url,
    })[0]!.play();
    expect(result.status).toBe("passed");
    expect(app.received.map((r) => r.path)).toContain("/voice/recorded");
  });

  it("each example starts with the yaml-language-server schema comment", async () => {
    const { readFile } = await import("node:fs/promises");
    for (const c of cases) {
      const text = await readFile(c.file, "utf8");
      expect(text.split("\n")[0], c.file).toBe("# yaml-language-server: $schema=../scenario.schema.json");
    }
  });
});

describe("determinism", () => {
  const play = (seed?: number) =>
    createSandboxCore().runScenario(join(repoRoot, "scenarios/voicemail-transcribed.yaml"), { seed });

  it("the same file and seed give the same ids, timestamps, webhooks and verdict", async () => {
    const [a, b] = [await play(), await play()];
    const strip = ({ wallMs: _w, ...rest }: typeof a) => rest;
    expect(JSON.stringify(strip(a))).toBe(JSON.stringify(strip(b)));
    expect(a.trace.length).toBeGreaterThan(2);
  });

  it("another seed gives other ids and the same verdict", async () => {
    const [a, b] = [await play(7), await play(8)];
    expect(a.status).toBe("passed");
    expect(b.status).toBe("passed");
    expect(a.calls.c1).not.toBe(b.calls.c1);
  });
});
