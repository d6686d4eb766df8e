// sandbox.runScenario: objects and files, the sandbox's own options inherited, its state kept only on request.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { describe, expect, it } from "vitest";
import { createSandbox, formatResult, type ScenarioInput, ScenarioLoadError } from "../../src/index.js";

const scenario: ScenarioInput = {
  name: "object scenario",
  numbers: [{ number: "+14155550100", voice: "<Response><Say>From an object</Say></Response>" }],
  steps: [{ call: { id: "c1", from: "+14155550123", to: "+14155550100" } }, { wait: "30s" }],
  expect: { calls: { c1: { status: "completed" } }, heard: { c1: [{ say: "From an object" }] } },
};

describe("sandbox.runScenario", () => {
  it("plays a scenario object and leaves the sandbox as it was", async () => {
    const sandbox = createSandbox();
    const before = JSON.stringify(sandbox.snapshot());
    const result = await sandbox.runScenario(scenario);
    expect(result).toMatchObject({ status: "passed", file: "<inline>", simulatedMs: 30_000 });
    expect(JSON.stringify(sandbox.snapshot())).toBe(before);
  });

  it("keep: true loads the final state into the sandbox", async () => {
    const sandbox = createSandbox();
    const result = await sandbox.runScenario(scenario, { keep: true });
    expect(sandbox.store.calls.get(result.calls.c1!)?.status).toBe("completed");
  });

  it("plays in a sandbox built with this one's fixtures", async () => {
    const sandbox = createSandbox({
      fixtures: {
        carrier: { api_key: "carrier_key_for_library_test_01" },
        accounts: [
          { sid: `AC${"3".repeat(32)}`, name: "Initech", auth_token: "initech_auth_token_3333333333333" },
        ],
        phone_numbers: [{ number: "+14155550100" }],
      },
    });
    // The fixture account has no credit: the scenario tops it up to 500 cents first.
    const result = await sandbox.runScenario({
      ...scenario,
      account: { balance_cents: 500 },
      expect: {
        ...scenario.expect,
        events: [{ type: "phone_call.completed" }],
        ledger: [{ kind: "top_up", amount_cents: 500, balance_cents: 500 }],
      },
    });
    expect(result.status, formatResult(result)).toBe("passed");
    expect(sandbox.store.accounts.has(`AC${"3".repeat(32)}`)).toBe(true);
  });

  it("rejects with ScenarioLoadError for a scenario that does not validate", async () => {
    const sandbox = createSandbox();
    await expect(sandbox.runScenario({ name: "bad", steps: [{ wait: "soon" }] })).rejects.toThrow(
      ScenarioLoadError,
    );
  });

  it("callbacks to absolute URLs go through the global fetch, so the test's own MSW handlers receive them", async () => {
    const received: string[] = [];
    const server = setupServer(
      http.post("https://customer.example.com/status", async ({ request }) => {
        received.push(new URLSearchParams(await request.text()).get("CallStatus") ?? "");
        return new HttpResponse(null, { status: 204 });
      }),
    );
    server.listen({ onUnhandledRequest: "error" });
    try {
      const result = await createSandbox().runScenario({
        ...scenario,
        numbers: [{ ...scenario.numbers![0]!, status_callback: "https://customer.example.com/status" }],
        expect: { webhooks: [{ url: "https://customer.example.com/status", status: 204 }] },
      });
      expect(result.status).toBe("passed");
      expect(received).toEqual(["completed"]);
    } finally {
      server.close();
    }
  });
});
