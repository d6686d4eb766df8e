// POST /__sandbox/scenarios through both doors: play YAML, refuse what does not load, keep the final state on request.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

const scenario = (status: string) => `name: over http
numbers:
  - number: "+14155550100"
    voice: <Response><Say>Hello from a scenario</Say></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  calls: { c1: { status: ${status} } }
`;

describe.each(doorNames)("POST /__sandbox/scenarios (%s)", (door) => {
  const ctx = useDoor(door);
  const post = (body: string, query = "") =>
    ctx.call("POST", `/__sandbox/scenarios${query}`, {
      body,
      headers: { "content-type": "application/yaml" },
    });

  it("plays the scenario in a fresh sandbox and answers with its verdict; this sandbox is left as it was", async () => {
    const before = JSON.stringify(ctx.sandbox.snapshot());
    const res = await post(scenario("completed"));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: "over http",
      file: "<request body>",
      status: "passed",
      failures: [],
      seed: 1,
    });
    expect(res.json.calls.c1).toMatch(/^CA[0-9a-f]{32}$/);
    expect(res.json.trace[0]).toMatchObject({ kind: "voice-markup", url: "/numbers/14155550100/voice" });
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
  });

  it("a failing scenario is still a 200: the verdict and its located failures are the answer", async () => {
    const res = await post(scenario("busy"), "?seed=5");
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("failed");
    expect(res.json.seed).toBe(5);
    expect(res.json.failures[0]).toMatchObject({
      where: "<request body>:8:26",
      path: "expect.calls.c1.status",
      message: 'call c1: status is "completed", expected "busy"',
    });
  });

  it("keep=true loads the scenario's final state into this sandbox, to look at through the APIs", async () => {
    const res = await post(scenario("completed"), "?keep=true");
    const calls = await ctx.twilioClient().calls.list();
    expect(calls.map((c) => c.sid)).toEqual([res.json.calls.c1]);
    expect(calls[0]).toMatchObject({
      status: "completed",
      from: "+14155550123",
      to: fixtures.acme.mainNumber,
    });
  });

  it("refuses a scenario that does not load with 422, naming line and column, and changes nothing", async () => {
    const before = JSON.stringify(ctx.sandbox.snapshot());
    const res = await post("name: bad\nsteps:\n  - wiat: 5s\n");
    expect(res.status).toBe(422);
    expect(res.text).toContain('<request body>:3:11: steps.0: Unrecognized key: \\"wiat\\"');
    expect((await post("")).status).toBe(422);
    const badPattern = await post(
      scenario("completed").replace(
        "expect:",
        '  - speak: { call: c1, text: hi }\n    on: { agent: { said: { pattern: "(unclosed" } } }\nexpect:',
      ),
    );
    expect(badPattern.status).toBe(422);
    expect(badPattern.text).toContain(
      "steps.1.on.agent.said.pattern: said.pattern is not a valid regular expression",
    );
    expect((await post(scenario("completed"), "?keep=maybe")).status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
  });
});

describe("POST /__sandbox/scenarios?live=true (express, real clock)", () => {
  const ctx = useDoor("express", { clock: "real" });

  it("plays in this sandbox, so the app can call its API mid-scenario; the clock goes back to real after", async () => {
    const { createServer } = await import("node:http");
    const auth = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
    // The app texts the caller while answering the call: an API request made during the scenario.
    const app = createServer((req, res) => {
      req.resume();
      req.on("end", async () => {
        const sent = await fetch(`${ctx.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Messages.json`, {
          method: "POST",
          headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            To: "+14155550123",
            From: fixtures.acme.mainNumber,
            Body: "Thanks for calling",
          }),
        });
        if (sent.status !== 201) throw new Error(`the app could not send its SMS: ${sent.status}`);
        res.writeHead(200, { "content-type": "text/xml" }).end("<Response><Say>Hi</Say></Response>");
      });
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(app.address() as { port: number }).port}`;
    try {
      const yaml = `name: live
needs_target: true
numbers: [{ number: "+14155550100", voice_url: /voice }]
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  calls: { c1: { status: completed } }
  messages: [{ direction: outbound-api, to: "+14155550123", body: Thanks for calling, status: delivered }]
`;
      const res = await ctx.call(
        "POST",
        `/__sandbox/scenarios?live=true&target=${encodeURIComponent(target)}`,
        {
          body: yaml,
          headers: { "content-type": "application/yaml" },
        },
      );
      expect(res.status).toBe(200);
      expect(res.json.failures).toEqual([]);
      expect(res.json.status).toBe("passed");
      expect(ctx.sandbox.clock.mode).toBe("real");
      // The played world stays: the call is in this sandbox's records.
      expect(ctx.sandbox.store.calls.get(res.json.calls.c1)?.status).toBe("completed");
    } finally {
      await new Promise((resolve) => app.close(resolve));
    }
  });
});
