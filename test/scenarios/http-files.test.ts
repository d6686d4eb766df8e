// A scenario sent over HTTP names no file: fixture paths are refused (never read, never looked for), fixtures
// come inline, `fixtures: empty` and fixtures of the wrong shape are a located 422, never a 500.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scenarioSchema } from "../../src/index.js";
import { doorNames, useDoor } from "../support/doors.js";

const defaultFixtureFile = fileURLToPath(new URL("../../fixtures/default.yaml", import.meta.url));

const played = `numbers:
  - number: "+14155550100"
    voice: <Response><Say>Hello</Say></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  calls: { c1: { status: completed } }
`;

/** Fixtures written inline: a carrier key, one account, one number in the inventory. */
const inlineFixtures = `fixtures:
  carrier: { api_key: inline_carrier_key_000000000001 }
  accounts:
    - { sid: AC${"4".repeat(32)}, name: Inline Ltd, auth_token: inline_auth_token_44444444444444, balance_cents: 500 }
  phone_numbers:
    - { number: "+14155550100" }
`;

const fileRefusal =
  "<request body>:2:11: fixtures: a scenario sent over HTTP cannot name a file (the server reads none for it): give the fixtures inline (fixtures: { carrier: { api_key: ... }, accounts: [...] }), or use default";

describe.each(doorNames)("scenarios over HTTP name no file (%s)", (door) => {
  const ctx = useDoor(door);
  const post = (body: string, query = "") =>
    ctx.call("POST", `/__sandbox/scenarios${query}`, {
      body,
      headers: { "content-type": "application/yaml" },
    });

  it("refuses a fixture file path with 422, the same answer whether the file exists or not", async () => {
    const before = JSON.stringify(ctx.sandbox.snapshot());
    const paths = [
      "/etc/passwd",
      "/dev/zero",
      "/nonexistent/world.yaml",
      defaultFixtureFile,
      "./fixtures/default.yaml",
      "../../../../etc/hostname",
      "world.yaml",
    ];
    const answers = await Promise.all(
      paths.map((path) => post(`name: a file\nfixtures: ${path}\n${played}`)),
    );
    for (const [i, res] of answers.entries()) {
      expect(res.status, paths[i]).toBe(422);
      expect(res.json.error.message, paths[i]).toBe(`The scenario does not load:\n${fileRefusal}`);
    }
    // Nothing of any file comes back: every answer is the same, word for word.
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
  });

  it("refuses fixtures: empty with 422 (it leaves no account to act as), never a 500", async () => {
    const res = await post(`name: empty\nfixtures: empty\n${played}`);
    expect(res.status).toBe(422);
    expect(res.json.error.message).toContain(
      "<request body>:2:11: fixtures: empty leaves no account for the scenario to act as: use default, or give the fixtures inline",
    );
  });

  it("plays with fixtures written inline, and with fixtures: default", async () => {
    const inline = await post(`name: inline world\n${inlineFixtures}${played}`, "?keep=true");
    expect(inline.status).toBe(200);
    expect(inline.json.status, JSON.stringify(inline.json)).toBe("passed");
    // keep=true: the scenario's world, inline account and all, is now this sandbox's.
    expect(ctx.sandbox.store.accounts.get(`AC${"4".repeat(32)}`)?.name).toBe("Inline Ltd");
    const packaged = await post(`name: packaged world\nfixtures: default\n${played}`);
    expect(packaged.json.status).toBe("passed");
  });

  it("fixtures of the wrong shape are a 422 at the member at fault", async () => {
    const shortKey = await post(`name: bad key\nfixtures:\n  carrier: { api_key: short }\n${played}`);
    expect(shortKey.status).toBe(422);
    expect(shortKey.json.error.message).toContain(
      "<request body>:3:23: fixtures.carrier.api_key: must be at least 16 characters",
    );
    const badUrl = await post(
      `name: bad url\n${inlineFixtures}    - { number: "+14155550111", account: AC${"4".repeat(32)}, voice_url: "javascript:alert(1)" }\n${played}`,
    );
    expect(badUrl.status).toBe(422);
    expect(badUrl.json.error.message).toContain(
      "fixtures.phone_numbers.1.voice_url: must be an absolute http or https URL",
    );
    for (const value of [
      "5",
      "[1, 2]",
      "{ carrier: { api_key: inline_carrier_key_000000000001 }, extra: 1 }",
    ]) {
      const res = await post(`name: odd\nfixtures: ${value}\n${played}`);
      expect(res.status, value).toBe(422);
      expect(res.json.error.message, value).toMatch(
        /^The scenario does not load:\n<request body>:2:\d+: fixtures/,
      );
    }
  });

  it("every URL a scenario gives keeps to its scheme: http(s) or a handler path, ws(s) for apps", async () => {
    const hostile = ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "vbscript:msgbox(1)"];
    const numberFields = ["voice_url", "voice_fallback_url", "status_callback", "sms_url"];
    const callFields = [
      "url",
      "fallback_url",
      "status_callback",
      "recording_status_callback",
      "async_amd_status_callback",
    ];
    const wrong: string[] = [];
    for (const value of hostile) {
      const bodies = [
        ...numberFields.map(
          (f) =>
            [
              `numbers.0.${f}`,
              `name: u\nnumbers:\n  - { number: "+14155550100", ${f}: "${value}" }\n`,
            ] as const,
        ),
        ...callFields.map(
          (f) =>
            [
              `steps.0.place_call.${f}`,
              `name: u\nsteps:\n  - place_call: { id: c1, from: "+14155550100", to: "+15558675310", ${f === "url" ? "" : "url: /voice, "}${f}: "${value}" }\nhandlers: { /voice: <Response/> }\n`,
            ] as const,
        ),
        ["apps.agent", `name: u\napps: { agent: "${value}" }\n`] as const,
      ];
      for (const [path, body] of bodies) {
        const res = await post(body);
        if (res.status !== 422 || !String(res.json?.error?.message).includes(`: ${path}: must be`))
          wrong.push(`${path}=${value}: ${res.status} ${res.text}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("snapshot: true gives the timeline in the result and reads or writes no file", async () => {
    const res = await post(`name: snap\nsnapshot: true\n${played}`);
    expect(res.json.status).toBe("passed");
    expect(res.json.timeline).toContain("c1");
    expect(res.json.snapshot).toBeUndefined();
    expect(existsSync("<request body>.snap")).toBe(false);
  });
});

describe("the scenario format's fields that could name a file", () => {
  it("are reviewed: fixtures is the one (refused over HTTP); a new key needs the same review", () => {
    // A key added to the format lands here: decide whether it can name a file, and refuse that over HTTP.
    expect(Object.keys(scenarioSchema.shape).sort()).toEqual(
      [
        "name",
        "description",
        "skip",
        "seed",
        "fixtures",
        "needs_target",
        "timeout",
        // A duration (of real time, at most a minute): it names no file.
        "agent_turn_timeout",
        "snapshot",
        "allow_alerts",
        "apps",
        "account",
        "numbers",
        "handlers",
        "agents",
        "ring_groups",
        "parties",
        "transcriptions",
        "steps",
        "expect",
      ].sort(),
    );
  });
});
