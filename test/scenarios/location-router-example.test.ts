// The location-router example app under its scenario: routing on FromState, an SMS count kept in a cookie.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocationRouter } from "../../examples/location-router/app.mjs";
import { scenarioTests } from "../../src/scenarios/vitest.js";

const repoRoot = join(import.meta.dirname, "../..");
let app: Awaited<ReturnType<typeof startLocationRouter>>;

beforeAll(async () => {
  app = await startLocationRouter();
});
afterAll(async () => app.close());

describe("location-router example", () => {
  it("passes its scenario against the running app", async () => {
    const [scenario] = scenarioTests("examples/location-router/scenario.yaml", {
      cwd: repoRoot,
      target: app.url,
    });
    const result = await scenario!.play();
    expect(result.status, JSON.stringify(result, null, 1).slice(0, 3000)).toBe("passed");
    // The app really saw the cookie it set, on the pair's second and third message, and not after four hours.
    expect(app.received.filter((r) => r.path === "/sms").map((r) => r.cookie)).toEqual([
      null,
      "count=1",
      "count=2",
      null,
    ]);
  });
});
