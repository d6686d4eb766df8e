// Exposure rules: no admin API open beyond loopback unless asked, a generated token in the image, and Host names checked.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExposureError } from "../../src/server/exposure.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { exited, startServeStoppedAfterEach } from "../support/cli-process.js";
import { acmeAuth } from "../support/fixtures.js";
import { getWithHost } from "../support/host-request.js";

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const startStopped = startServeStoppedAfterEach("SIGKILL");
const start = (args: string[], env: Record<string, string> = {}) =>
  startStopped(["--port", "0", ...args], {
    VOICE_SANDBOX_ADMIN_TOKEN: "",
    VOICE_SANDBOX_INSECURE_ADMIN: "",
    VOICE_SANDBOX_GENERATE_ADMIN_TOKEN: "",
    ...env,
  });

describe("listening beyond loopback", () => {
  it("refuses to start on 0.0.0.0 without an admin token, and says how to go on", async () => {
    const server = start(["--host", "0.0.0.0"]);
    expect(await exited(server.child)).toBe(1);
    expect(server.output()).toMatch(/refusing to listen on 0\.0\.0\.0 without an admin token/);
    expect(server.output()).toMatch(/--admin-token/);
    expect(server.output()).toMatch(/--insecure-admin/);
  });

  it("starts with --insecure-admin, warning that the admin API is open", async () => {
    const server = start(["--host", "0.0.0.0", "--insecure-admin"]);
    const url = await server.listening;
    expect(server.output()).toMatch(/admin API is open to anyone/);
    expect((await fetch(url.replace("0.0.0.0", "127.0.0.1") + "/__sandbox/health")).status).toBe(200);
  });

  it("takes insecure-admin from a config file, and the environment's no over it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-exposure-"));
    const config = join(dir, "open.yaml");
    writeFileSync(config, "host: 0.0.0.0\ninsecure-admin: true\n");
    const open = start(["--config", config]);
    await open.listening;
    expect(open.output()).toMatch(/admin API is open to anyone/);
    const refused = start(["--config", config], { VOICE_SANDBOX_INSECURE_ADMIN: "0" });
    expect(await exited(refused.child)).toBe(1);
    expect(refused.output()).toMatch(/refusing to listen on 0\.0\.0\.0 without an admin token/);
  });

  it("starts with an admin token, which the admin API then requires", async () => {
    const server = start(["--host", "0.0.0.0", "--admin-token", "admin_token_exposure_0000000000"]);
    const url = (await server.listening).replace("0.0.0.0", "127.0.0.1");
    expect((await fetch(`${url}/__sandbox/state`)).status).toBe(401);
    const state = await fetch(`${url}/__sandbox/state`, {
      headers: { authorization: "Bearer admin_token_exposure_0000000000" },
    });
    expect(state.status).toBe(200);
  });

  it("generates a token when asked and none is given, and prints it once", async () => {
    const server = start(["--host", "0.0.0.0"], { VOICE_SANDBOX_GENERATE_ADMIN_TOKEN: "1" });
    const url = (await server.listening).replace("0.0.0.0", "127.0.0.1");
    const token = /admin token \(generated[^)]*\): (\S+)/.exec(server.output())?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(server.output().split(token!).length - 1).toBe(1);
    expect((await fetch(`${url}/__sandbox/state`)).status).toBe(401);
    const state = await fetch(`${url}/__sandbox/state`, { headers: { authorization: `Bearer ${token}` } });
    expect(state.status).toBe(200);
  });

  it("generates a token when a config file asks", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-exposure-"));
    const config = join(dir, "token.json");
    writeFileSync(config, JSON.stringify({ host: "0.0.0.0", "generate-admin-token": true }));
    const server = start(["--config", config]);
    const url = (await server.listening).replace("0.0.0.0", "127.0.0.1");
    expect(server.output()).toMatch(/admin token \(generated/);
    expect((await fetch(`${url}/__sandbox/state`)).status).toBe(401);
  });

  it("keeps a given token rather than generating one", async () => {
    const server = start(["--host", "0.0.0.0", "--admin-token", "admin_token_given_000000000000"], {
      VOICE_SANDBOX_GENERATE_ADMIN_TOKEN: "1",
    });
    await server.listening;
    expect(server.output()).not.toMatch(/admin token \(generated/);
  });

  it("listens on loopback without a token, as before", async () => {
    const server = start(["--host", "127.0.0.1"]);
    const url = await server.listening;
    expect((await fetch(`${url}/__sandbox/state`)).status).toBe(200);
  });

  it("applies the same rule to serve() used as a library", async () => {
    await expect(serve({ port: 0, host: "0.0.0.0" })).rejects.toBeInstanceOf(ExposureError);
  });
});

describe("Host names the admin API answers", () => {
  it("refuses a foreign Host name (DNS rebinding) with a 403, and answers loopback, addresses and the public URL", async () => {
    const running = await serve({ port: 0, publicBaseUrl: "http://sandbox.internal:4010" });
    servers.push(running);
    const port = new URL(running.url).port;
    const refused = await getWithHost(running.url, "/__sandbox/state", `rebind.attacker.example:${port}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { status: 403, message: expect.stringMatching(/Host/) },
    });
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      "sandbox.internal:4010",
      "10.1.2.3",
    ]) {
      expect((await getWithHost(running.url, "/__sandbox/state", host)).status, host).toBe(200);
    }
  });

  it("leaves the account API and recording media to their own rules", async () => {
    const running = await serve({ port: 0 });
    servers.push(running);
    const basic = `Basic ${Buffer.from(acmeAuth.basic.join(":")).toString("base64")}`;
    const calls = await getWithHost(
      running.url,
      `/2010-04-01/Accounts/${acmeAuth.basic[0]}/Calls.json`,
      "api.example.test",
      { authorization: basic },
    );
    expect(calls.status).toBe(200);
    const media = await getWithHost(
      running.url,
      "/__sandbox/media/RE00000000000000000000000000000000.wav",
      "cdn.example.test",
    );
    expect(media.status).toBe(404);
  });
});
