// Exposure rules: no admin API open beyond loopback unless asked, no token that guards nothing, a generated token in
// the image, and Host names checked on every surface of a server on loopback (the admin API's wherever it listens).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ExposureError } from "../../src/server/exposure.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { exited, startServeStoppedAfterEach } from "../support/cli-process.js";
import { acmeAuth, carrierAuth } from "../support/fixtures.js";
import { getWithHost, sendRaw } from "../support/host-request.js";

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
    VOICE_SANDBOX_ALLOWED_HOSTS: "",
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

describe("Host names the server answers", () => {
  it("refuses a foreign Host name (DNS rebinding) with a 403, and answers loopback, addresses and the public URL", async () => {
    const running = await serve({ port: 0, publicBaseUrl: "http://sandbox.internal:4010" });
    servers.push(running);
    const port = new URL(running.url).port;
    const refused = await getWithHost(running.url, "/__sandbox/state", `rebind.attacker.example:${port}`);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { status: 403, message: expect.stringMatching(/Host/) },
    });
    // A Compose service's name is refused until named at start, and the refusal says how to name it.
    const compose = await getWithHost(running.url, "/__sandbox/state", "voice-sandbox:4010");
    expect(compose.status).toBe(403);
    const { message } = JSON.parse(compose.body).error as { message: string };
    expect(message).toContain('Host "voice-sandbox:4010"');
    expect(message).toContain("--allowed-hosts voice-sandbox (VOICE_SANDBOX_ALLOWED_HOSTS=voice-sandbox)");
    expect(message).toContain("--public-url http://voice-sandbox:4010");
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

  const basic = `Basic ${Buffer.from(acmeAuth.basic.join(":")).toString("base64")}`;
  const callsPath = `/2010-04-01/Accounts/${acmeAuth.basic[0]}/Calls.json`;
  /** A read of each surface, with the credentials it needs: what a rebinding page would try first. */
  const reads: { path: string; headers: Record<string, string> }[] = [
    { path: callsPath, headers: { authorization: basic } },
    {
      path: "/carrier/v1/accounts",
      headers: { authorization: `Bearer ${carrierAuth.bearer}`, accept: "application/vnd.api+json" },
    },
    { path: "/__sandbox/state", headers: {} },
    { path: "/__sandbox/media/RE00000000000000000000000000000000.wav", headers: {} },
  ];

  it("refuses a foreign Host on every surface of a server on loopback, each in its own error format", async () => {
    const running = await serve({ port: 0 });
    servers.push(running);
    const host = `rebind.attacker.example:${new URL(running.url).port}`;
    const [calls, carrier, state, media] = await Promise.all(
      reads.map((read) => getWithHost(running.url, read.path, host, read.headers)),
    );
    expect(calls!.status).toBe(403);
    expect(JSON.parse(calls!.body)).toMatchObject({
      status: 403,
      code: expect.any(Number),
      more_info: expect.any(String),
    });
    expect(JSON.parse(calls!.body).message).toMatch(/Host "rebind\.attacker\.example/);
    expect(carrier!.status).toBe(403);
    expect(JSON.parse(carrier!.body)).toMatchObject({
      errors: [{ status: "403", detail: expect.stringMatching(/Host/) }],
    });
    expect(state!.status).toBe(403);
    expect(JSON.parse(state!.body).error.message).toMatch(/--allowed-hosts/);
    expect(media!.status).toBe(403);
    // A write is refused before anything changes.
    const before = running.sandbox.store.messages.size;
    const post = await sendRaw(running.url, {
      method: "POST",
      path: `/2010-04-01/Accounts/${acmeAuth.basic[0]}/Messages.json`,
      headers: { host, authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: "To=%2B15005550006&From=%2B14155550100&Body=hi",
    });
    expect(post.status).toBe(403);
    expect(running.sandbox.store.messages.size).toBe(before);
    // The same message from this machine's own name is sent: the refusal was the Host's.
    const own = await sendRaw(running.url, {
      method: "POST",
      path: `/2010-04-01/Accounts/${acmeAuth.basic[0]}/Messages.json`,
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: "To=%2B15005550006&From=%2B14155550100&Body=hi",
    });
    expect(own.status).toBe(201);
    expect(running.sandbox.store.messages.size).toBe(before + 1);
  });

  it("answers loopback names, addresses, the public URL's host and the allowed hosts on every surface", async () => {
    const running = await serve({
      port: 0,
      publicBaseUrl: "http://sandbox.internal:4010",
      allowedHosts: ["Sandbox", "tunnel.example.test"],
    });
    servers.push(running);
    const port = new URL(running.url).port;
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      "10.1.2.3",
      "sandbox.internal:4010",
      `sandbox:${port}`,
      "TUNNEL.example.test",
    ]) {
      for (const read of reads.slice(0, 3))
        expect(
          (await getWithHost(running.url, read.path, host, read.headers)).status,
          `${host} ${read.path}`,
        ).toBe(200);
      expect((await getWithHost(running.url, reads[3]!.path, host)).status, host).toBe(404);
    }
    expect((await getWithHost(running.url, callsPath, "other.example.test", reads[0]!.headers)).status).toBe(
      403,
    );
    // Not a subdomain of an allowed name, and not a name that merely ends like one.
    expect((await getWithHost(running.url, callsPath, "x.sandbox", reads[0]!.headers)).status).toBe(403);
  });

  it("leaves the account and carrier APIs to any Host when listening beyond loopback (Compose), the admin API not", async () => {
    const running = await serve({ port: 0, host: "0.0.0.0", adminToken: "admin_token_compose_000000000" });
    servers.push(running);
    const url = running.url.replace("0.0.0.0", "127.0.0.1");
    expect((await getWithHost(url, callsPath, "sandbox:4010", reads[0]!.headers)).status).toBe(200);
    expect((await getWithHost(url, reads[1]!.path, "sandbox:4010", reads[1]!.headers)).status).toBe(200);
    const admin = await getWithHost(url, "/__sandbox/state", "sandbox:4010", {
      authorization: "Bearer admin_token_compose_000000000",
    });
    expect(admin.status).toBe(403);
  });

  it("takes --allowed-hosts from the command line, the environment and a config file", async () => {
    const check = async (server: ReturnType<typeof start>, names: string[]) => {
      const url = await server.listening;
      for (const name of names)
        expect((await getWithHost(url, callsPath, name, reads[0]!.headers)).status, name).toBe(200);
      expect((await getWithHost(url, callsPath, "stranger.example", reads[0]!.headers)).status).toBe(403);
    };
    await check(start(["--allowed-hosts", "sandbox,tunnel.example.test"]), [
      "sandbox",
      "tunnel.example.test:443",
    ]);
    await check(start([], { VOICE_SANDBOX_ALLOWED_HOSTS: "from-env.example" }), ["from-env.example"]);
    const dir = mkdtempSync(join(tmpdir(), "vs-exposure-"));
    const config = join(dir, "hosts.yaml");
    writeFileSync(config, "allowed-hosts:\n  - from-file.example\n  - sandbox\n");
    await check(start(["--config", config]), ["from-file.example", "sandbox"]);
  });

  it("refuses at start an allowed host that is no host name, naming it", async () => {
    const bad = start(["--allowed-hosts", "sandbox,https://tunnel.example.test"]);
    expect(await exited(bad.child)).toBe(1);
    expect(bad.output()).toMatch(/--allowed-hosts.*"https:\/\/tunnel\.example\.test" is not a host name/);
    const dir = mkdtempSync(join(tmpdir(), "vs-exposure-"));
    const config = join(dir, "hosts.yaml");
    writeFileSync(config, "allowed-hosts: [sandbox:4010]\n");
    const file = start(["--config", config]);
    expect(await exited(file.child)).toBe(1);
    expect(file.output()).toMatch(/allowed-hosts: "sandbox:4010" is not a host name/);
  });
});

describe("admin tokens that guard nothing", () => {
  it.each([
    [" ", /admin token is blank/],
    ["x", /admin token is 1 character long/],
    ["short-token", /admin token is 11 characters long/],
    ["a token with spaces in it", /admin token holds a space/],
  ])("refuses --admin-token %j at start, saying what to give", async (token, reason) => {
    const server = start(["--admin-token", token]);
    expect(await exited(server.child)).toBe(1);
    expect(server.output()).toMatch(reason);
    expect(server.output()).toMatch(/at least 16 characters/);
  });

  it("refuses one from the environment and from a config file alike", async () => {
    const env = start([], { VOICE_SANDBOX_ADMIN_TOKEN: "   " });
    expect(await exited(env.child)).toBe(1);
    expect(env.output()).toMatch(/admin token is blank/);
    const dir = mkdtempSync(join(tmpdir(), "vs-exposure-"));
    const config = join(dir, "token.yaml");
    writeFileSync(config, "admin-token: abc\n");
    const file = start(["--config", config]);
    expect(await exited(file.child)).toBe(1);
    expect(file.output()).toMatch(/admin token is 3 characters long/);
  });

  it("refuses one given to serve() used as a library", async () => {
    await expect(serve({ port: 0, adminToken: "1234567" })).rejects.toThrow(/at least 16 characters/);
    const running = await serve({ port: 0, adminToken: "0123456789abcdef" });
    servers.push(running);
    expect((await fetch(`${running.url}/__sandbox/state`)).status).toBe(401);
  });
});
