// Packs the repository with npm, installs the tarball into a fresh project and uses it from plain Node.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

// The install pulls the dependencies and the msw peer from the registry, so the setup gets a long allowance.
const setupTimeout = 240_000;

interface PackageJson {
  version: string;
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
}

// Children get an environment without loaders: NODE_OPTIONS could carry tsx or a vitest hook into them,
// and the point is that the published JavaScript runs on Node alone.
const plainEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.VITEST;
  delete env.VITEST_WORKER_ID;
  delete env.VITEST_POOL_ID;
  // The CLI reads these; a value left in the caller's shell would change what is tested.
  for (const name of Object.keys(env)) if (name.startsWith("VOICE_SANDBOX_")) delete env[name];
  delete env.NODE_DISABLE_COMPILE_CACHE;
  // The CLI keeps compiled code in the user's cache folder; the test's own folder keeps the machine's clean.
  env.VOICE_SANDBOX_COMPILE_CACHE = join(work, "compile-cache");
  return env;
};

const npm = (args: string[], cwd: string) =>
  run("npm", args, { cwd, env: plainEnv(), maxBuffer: 64 * 1024 * 1024 });

let work = "";
let app = "";
let tarball = "";
let tarEntries: string[] = [];
let manifest: PackageJson;
const children = new Set<ChildProcess>();
/** Children started as the leaders of their own process groups. */
const groups = new Set<ChildProcess>();

/** Runs an ES module in the consumer project with plain `node` and returns what it printed as JSON. */
async function runScript(name: string, source: string): Promise<unknown> {
  const file = join(app, name);
  await writeFile(file, source);
  const { stdout } = await run(process.execPath, [file], { cwd: app, env: plainEnv(), timeout: 30_000 });
  return JSON.parse(stdout);
}

beforeAll(async () => {
  manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as PackageJson;
  work = await mkdtemp(join(tmpdir(), "voice-sandbox-pack-"));
  app = join(work, "app");

  // Build explicitly, then pack without scripts: `prepare` would rebuild and its output would land in the
  // middle of the JSON that `npm pack --json` prints.
  await npm(["run", "build"], repoRoot);
  const packed = await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", work], repoRoot);
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as [{ filename: string }];
  tarball = join(work, info.filename);

  // The tarball itself, not npm's report of it, is what customers get.
  const listing = await run("tar", ["-tzf", tarball]);
  tarEntries = listing.stdout
    .split("\n")
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ""));

  await mkdir(app);
  await npm(["init", "-y"], app);
  await npm(["pkg", "set", "type=module"], app);
  await npm(["install", "--no-audit", "--no-fund", tarball], app);
}, setupTimeout);

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const leader of groups) {
    try {
      process.kill(-leader.pid!, "SIGKILL");
    } catch {
      // The group has ended.
    }
  }
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the npm package", () => {
  it("ships the build and the default fixtures, and no sources or tests", () => {
    expect(tarEntries).toContain("package.json");
    expect(tarEntries).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", "LICENSE"]));
    expect(tarEntries).toContain("dist/index.js");
    expect(tarEntries).toContain("dist/index.d.ts");
    expect(tarEntries).toContain("fixtures/default.yaml");
    // Parsed and validated at build time, so a library start need not load the YAML parser.
    expect(tarEntries).toContain("dist/fixtures/default.json");
    expect(tarEntries).toContain("dist/inspector/client/app.js");
    expect(tarEntries.filter((entry) => /^(src|test|bench|scripts)\//.test(entry))).toEqual([]);
  });

  it("ships every file that package.json's exports and bin point at", () => {
    const targets = Object.values(manifest.exports).flatMap((target) =>
      typeof target === "string" ? [target] : Object.values(target),
    );
    const wanted = [...targets, ...Object.values(manifest.bin)].map((path) => path.replace(/^\.\//, ""));
    expect(wanted.filter((path) => !tarEntries.includes(path))).toEqual([]);
  });

  it("serves health through createSandbox().fetch from the main entry", async () => {
    const result = await runScript(
      "main.mjs",
      `import { createSandbox } from "voice-sandbox";
const sandbox = createSandbox();
const response = await sandbox.fetch("https://api.voice-sandbox.test/__sandbox/health");
console.log(JSON.stringify({ status: response.status, body: await response.json() }));
`,
    );
    expect(result).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("opens the inspector for a library sandbox through the inspector subpath", async () => {
    const result = await runScript(
      "inspector.mjs",
      `import { createSandbox } from "voice-sandbox";
import { startInspector } from "voice-sandbox/inspector";
const inspector = await startInspector(createSandbox());
const page = await fetch(inspector.url);
const overview = await (await fetch(inspector.url + "/api/overview")).json();
await inspector.close();
console.log(JSON.stringify({ status: page.status, accounts: overview.accounts.length }));
`,
    );
    expect(result).toEqual({ status: 200, accounts: 2 });
  });

  it("installs no install-time analytics and no Swagger UI for a library user", async () => {
    const installed = (name: string) =>
      stat(join(app, "node_modules", name)).then(
        () => true,
        () => false,
      );
    expect({ scarf: await installed("@scarf/scarf"), swagger: await installed("swagger-ui-dist") }).toEqual({
      scarf: false,
      swagger: false,
    });
  });

  it("loads no server module and no msw until the handlers are asked for, then the app's own msw", async () => {
    // A resolve hook records every package the process loads, ES modules and CommonJS alike.
    await writeFile(
      join(app, "record-packages.mjs"),
      // Hooks run on a thread of their own: a synchronous append keeps the log in order and complete at exit.
      `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const at = result.url.lastIndexOf("/node_modules/");
  if (at >= 0) {
    const [scope, name] = result.url.slice(at + 14).split("/");
    appendFileSync(new URL("./loaded.log", import.meta.url), "loaded " + (scope.startsWith("@") ? scope + "/" + name : scope) + "\\n");
  }
  return result;
}
`,
    );
    await writeFile(
      join(app, "register-recorder.mjs"),
      `import { register } from "node:module";\nregister("./record-packages.mjs", import.meta.url);\n`,
    );
    const file = join(app, "light.mjs");
    await writeFile(
      file,
      `import { appendFileSync } from "node:fs";
import { createSandbox } from "voice-sandbox";
const sandbox = createSandbox();
await sandbox.fetch("https://api.voice-sandbox.test/__sandbox/health");
appendFileSync(new URL("./loaded.log", import.meta.url), "asking for handlers\\n");
const [handler] = sandbox.handlers;
const { HttpHandler } = await import("msw");
console.log(JSON.stringify({ sameMsw: handler instanceof HttpHandler }));
`,
    );
    const { stdout } = await run(process.execPath, ["--import", "./register-recorder.mjs", file], {
      cwd: app,
      env: plainEnv(),
      timeout: 30_000,
    });
    const log = await readFile(join(app, "loaded.log"), "utf8");
    const [before = "", after = ""] = log.split("asking for handlers");
    const packages = (text: string) => [
      ...new Set([...text.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1] ?? "")),
    ];
    const server = ["express", "pino", "pino-pretty", "commander", "swagger-ui-dist"];
    expect(packages(before).filter((name) => name === "msw" || server.includes(name))).toEqual([]);
    expect(packages(after)).toContain("msw");
    expect(packages(`${before}${after}`).filter((name) => server.includes(name))).toEqual([]);
    expect(JSON.parse(stdout)).toEqual({ sameMsw: true });
  });

  it("loads the scenario player only when a sandbox plays its first scenario", async () => {
    // The server builds its sandbox from the package's sandbox module (as the command line does): a load
    // hook records each file of the package's code, and a file holds the scenario format if its bundled
    // source says so.
    await writeFile(
      join(app, "record-code.mjs"),
      `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.includes("/node_modules/voice-sandbox/dist/")) appendFileSync(new URL("./code.log", import.meta.url), url + "\\n");
  return next(url, context);
}
`,
    );
    const result = await runScript(
      "player.mjs",
      `import { readFileSync, writeFileSync } from "node:fs";
import { register } from "node:module";
const log = new URL("./code.log", import.meta.url);
writeFileSync(log, "");
register("./record-code.mjs", import.meta.url);
const { createSandboxCore } = await import("./node_modules/voice-sandbox/dist/sandbox.js");
const holdsPlayer = () => readFileSync(log, "utf8").split("\\n").filter(Boolean)
  .some((url) => readFileSync(new URL(url), "utf8").includes("// src/scenarios/schema.ts"));
const sandbox = createSandboxCore();
await sandbox.handle({ method: "GET", path: "/__sandbox/health", query: "", headers: {}, body: "" });
const atStart = holdsPlayer();
const played = await sandbox.runScenario({ name: "a pause", steps: [{ wait: "1s" }] });
console.log(JSON.stringify({ atStart, afterPlaying: holdsPlayer(), status: played.status }));
`,
    );
    expect(result).toEqual({ atStart: false, afterPlaying: true, status: "passed" });
  });

  it("answers through the msw subpath with the customer's own msw", async () => {
    const result = await runScript(
      "msw.mjs",
      `import { setupServer } from "msw/node";
import { createSandbox } from "voice-sandbox";
import { createMswHandlers, defaultBaseUrl } from "voice-sandbox/msw";
const server = setupServer(...createMswHandlers(createSandbox().handle));
server.listen({ onUnhandledRequest: "error" });
const response = await fetch(defaultBaseUrl + "/__sandbox/health");
server.close();
console.log(JSON.stringify({
  exports: [typeof createMswHandlers, typeof defaultBaseUrl],
  status: response.status,
  body: await response.json(),
}));
`,
    );
    expect(result).toMatchObject({ exports: ["function", "string"], status: 200, body: { status: "ok" } });
  });

  it("answers through the express subpath's middleware", async () => {
    const result = await runScript(
      "express.mjs",
      `import { createServer } from "node:http";
import { createSandbox } from "voice-sandbox";
import { createExpressMiddleware, isSandboxPath } from "voice-sandbox/express";
const middleware = createExpressMiddleware(createSandbox().handle);
const server = createServer((req, res) => middleware(req, res, () => res.writeHead(404).end()));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = "http://127.0.0.1:" + server.address().port;
const health = await fetch(base + "/__sandbox/health");
const other = await fetch(base + "/not-the-sandbox");
server.close();
console.log(JSON.stringify({
  exports: [typeof createExpressMiddleware, typeof isSandboxPath],
  status: health.status,
  body: await health.json(),
  passedOn: other.status,
}));
`,
    );
    expect(result).toMatchObject({
      exports: ["function", "function"],
      status: 200,
      body: { status: "ok" },
      passedOn: 404,
    });
  });

  it("installs an executable bin that reports the package version", async () => {
    const bin = join(app, "node_modules", ".bin", "voice-sandbox");
    // Run directly, not through `node`, so a missing shebang or execute bit fails here.
    expect((await stat(bin)).mode & 0o111).not.toBe(0);
    const { stdout } = await run(bin, ["--version"], { cwd: app, env: plainEnv(), timeout: 15_000 });
    expect(stdout.trim()).toBe(manifest.version);
  });

  it("ends a command whose program rejects with exit code 1, and one that stops before it finishes with 13", async () => {
    // The installed entry beside a stand-in program: main rejects, or returns a promise nothing settles.
    const dir = join(work, "entry-exit-codes");
    await mkdir(dir, { recursive: true });
    const entry = join(dir, "cli.cjs");
    await writeFile(
      entry,
      await readFile(join(app, "node_modules", "voice-sandbox", manifest.bin["voice-sandbox"]!)),
    );
    await writeFile(
      join(dir, "cli-program.cjs"),
      'exports.main = (argv) => argv[2] === "fail" ? Promise.reject(new Error("the program failed")) : new Promise(() => {});\n',
    );
    const exit = (command: string) =>
      run(process.execPath, [entry, command], { cwd: dir, env: plainEnv(), timeout: 15_000 }).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    const failed = await exit("fail");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("Error: the program failed");
    const stalled = await exit("stall");
    expect(stalled.code).toBe(13);
    expect(stalled.stderr).toContain("voice-sandbox: the command stopped before it finished");
  });

  it("runs `voice-sandbox serve --port 0`, answers health, and stops on SIGTERM", async () => {
    const { child, url, exited } = await startInstalledServe();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${url}/__sandbox/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
    // Without the optional Swagger UI, the reference is a plain page listing every operation.
    const docs = await fetch(`${url}/__sandbox/docs`);
    expect(docs.status).toBe(200);
    const docsPage = await docs.text();
    expect(docsPage).not.toContain("swagger-ui-bundle.js");
    expect(docsPage).toContain("GET /2010-04-01/Accounts/{AccountSid}/Calls</code>");
    // The inspector's page, its code and its two libraries all come from the installed package.
    for (const path of ["/__sandbox/ui", "/__sandbox/ui/assets/app.js", "/__sandbox/ui/vendor/preact.mjs"]) {
      const asset = await fetch(`${url}${path}`);
      expect(asset.status, path).toBe(200);
      await asset.arrayBuffer();
    }

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 40_000);

  // npm runs a script or a bin through a shell, and hands a signal sent to npm on to that shell alone.
  it.each([
    { how: "npm start", signal: "SIGTERM" as const },
    { how: "npm start", signal: "SIGINT" as const },
    { how: "npx voice-sandbox serve", signal: "SIGTERM" as const },
  ])(
    "stops the server when $how is sent $signal",
    async ({ how, signal }) => {
      const started =
        how === "npm start"
          ? await startListening("npm", ["start", "--", "--port", "0"], repoRoot, {}, true)
          : await startListening("npx", ["voice-sandbox", "serve", "--port", "0"], app, {}, true);
      expect((await fetch(`${started.url}/__sandbox/health`)).status).toBe(200);
      // The output closes once every process holding it has ended: npm, its shell and the server.
      const closed = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 20_000);
        started.child.stdout!.once("close", () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      started.child.kill(signal);
      await started.exited;
      expect(await closed, "a process of the command still holds its output").toBe(true);
      await expect(fetch(`${started.url}/__sandbox/health`)).rejects.toThrow();
    },
    60_000,
  );

  it("keeps the program's compiled code in the compile cache folder, and a second start runs from it", async () => {
    const cache = join(work, "compile-cache-own");
    const env = { VOICE_SANDBOX_COMPILE_CACHE: cache };
    const first = await startInstalledServe(env);
    // Written once the server listens, so it may land just after the listening line.
    const [file] = await waitFor(async () =>
      (await readdir(cache).catch(() => [])).filter((name) => name.endsWith(".cache")),
    );
    expect(file).toMatch(/^cli-program-serve-node\d+\.\d+\.\d+-\w+-[0-9a-f]{16}\.cache$/);
    const written = await stat(join(cache, file!));
    expect(written.size).toBeGreaterThan(100_000);
    expect(written.mode & 0o077).toBe(0);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    // A cache V8 took is not written again; one it refused would be (the same name, a new file).
    const second = await startInstalledServe(env);
    expect((await fetch(`${second.url}/__sandbox/health`)).status).toBe(200);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(await readdir(cache)).toEqual([file]);
    expect((await stat(join(cache, file!))).mtimeMs).toBe(written.mtimeMs);
  }, 40_000);
});

/** Resolves with `probe`'s answer once it is non-empty, trying every 50 ms for up to 10 s. */
async function waitFor<T extends unknown[]>(probe: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    const found = await probe();
    if (found.length > 0 || tries === 200) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the installed bin's `serve --port 0` and resolves once it logs the URL it listens on. */
function startInstalledServe(extraEnv: Record<string, string> = {}) {
  const bin = join(app, "node_modules", ".bin", "voice-sandbox");
  return startListening(bin, ["serve", "--port", "0"], app, extraEnv);
}

/**
 * Starts a command that runs a server and resolves once the server logs the URL it listens on. `detached`
 * gives it a process group of its own, which the file's teardown ends whole (an orphaned server included).
 */
async function startListening(
  command: string,
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
  detached = false,
) {
  const child = spawn(command, args, { cwd, env: { ...plainEnv(), ...extraEnv }, detached });
  children.add(child);
  if (detached) groups.add(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  // pino writes one JSON object a line on stdout; the listening line carries the bound URL.
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 20 s; stderr: ${stderr}`)), 20_000);
    const fail = () => {
      clearTimeout(timer);
      reject(new Error(`the server exited before listening; stderr: ${stderr}`));
    };
    child.once("exit", fail);
    createInterface({ input: child.stdout }).on("line", (line) => {
      let record: { url?: unknown };
      try {
        record = JSON.parse(line) as { url?: unknown };
      } catch {
        return;
      }
      if (typeof record.url === "string") {
        clearTimeout(timer);
        child.off("exit", fail);
        resolve(record.url);
      }
    });
  });
  return { child, url, exited };
}

/** The README's complete test file, exactly as a reader copies it. */
const readmeTestFile = async () => {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const block = /```ts\n(\/\/ voice\.test\.ts\n[\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error("README.md has no ```ts block starting with // voice.test.ts");
  return block;
};

// An unmatched request to a server that is up: without the safety net it would simply succeed, so the test
// failing proves the net (no network here, so an unreachable host would fail with or without it).
const unhandledTestFile = `import { createServer } from "node:http";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, test } from "vitest";
import { createSandbox, failOnUnhandled } from "voice-sandbox";

const sandbox = createSandbox();
const server = setupServer(...sandbox.handlers);
const other = createServer((_req, res) => res.end("reached the real network"));

beforeAll(async () => {
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  server.listen(failOnUnhandled);
});
afterAll(() => {
  server.close();
  other.close();
});

test("an unmatched request", async () => {
  const address = other.address() as { port: number };
  await fetch(\`http://127.0.0.1:\${address.port}/not-mocked\`);
});
`;

const consumerTsconfig = JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
  },
  include: ["*.test.ts"],
});

/**
 * A CommonJS script that requires each subpath of the package (all but the JSON files), then uses the main
 * entry with msw's setupServer under failOnUnhandled. Node >= 20.19 and 22.12 load ES modules through
 * `require()`; one with top-level await anywhere in its graph would fail here (ERR_REQUIRE_ASYNC_MODULE).
 */
const requireScript = (subpaths: string[]) => `const failed = [];
for (const subpath of ${JSON.stringify(subpaths.filter((path) => !path.endsWith(".json")))}) {
  const name = "voice-sandbox" + subpath.slice(1);
  try {
    if (Object.keys(require(name)).length === 0) failed.push(name + ": no exports");
  } catch (error) {
    failed.push(name + ": " + error.code + " " + error.message.split("\\n")[0]);
  }
}
const { setupServer } = require("msw/node");
const { createSandbox, failOnUnhandled } = require("voice-sandbox");
const sandbox = createSandbox();
const server = setupServer(...sandbox.handlers);
server.listen(failOnUnhandled);
// A live server: an unmatched request to it would succeed but for failOnUnhandled.
const other = require("node:http").createServer((_req, res) => res.end("reached the real network"));
other.listen(0, "127.0.0.1", async () => {
  const health = await fetch(sandbox.baseUrl + "/__sandbox/health");
  const printed = console.error;
  console.error = () => {};
  const unmatched = "http://127.0.0.1:" + other.address().port + "/not-mocked";
  const refused = await fetch(unmatched).then(() => false, () => true);
  console.error = printed;
  server.close();
  other.close();
  console.log(JSON.stringify({ failed, createSandbox: typeof createSandbox, health: health.status, refused }));
});
`;

/** Node 24 for the msw 3 project: the one CI installed (VOICE_SANDBOX_NODE24), else the `node` package from npm. */
function node24(): Promise<string> {
  node24Bin ??= (async () => {
    if (process.env.VOICE_SANDBOX_NODE24) return process.env.VOICE_SANDBOX_NODE24;
    const prefix = join(work, "node24");
    await npm(["install", "--no-audit", "--no-fund", "--prefix", prefix, "node@24"], work);
    return join(prefix, "node_modules", ".bin", "node");
  })();
  return node24Bin;
}
let node24Bin: Promise<string> | undefined;

/** The docs' vitest-helper test file (docs/scenarios.md), for the typecheck under each vitest major. */
const helperTestFile = async () => {
  const page = await readFile(join(repoRoot, "docs/scenarios.md"), "utf8");
  const block = /```ts\n(\/\/ scenarios\.test\.ts\n[\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error("docs/scenarios.md has no ```ts block starting with // scenarios.test.ts");
  return block;
};

describe.each([
  { msw: "2", node: "20", vitest: "4", nodeBin: async () => process.execPath, mswSpec: "msw@^2.7" },
  { msw: "3", node: "24", vitest: "5", nodeBin: node24, mswSpec: "msw@^3" },
])("a fresh project with msw $msw, vitest $vitest, on Node $node", ({ msw, vitest, nodeBin, mswSpec }) => {
  let project = "";
  let node = "";
  // npm runs under the project's Node, so engines checks and install scripts see the real version.
  const withNode = () => ({ ...plainEnv(), PATH: `${join(node, "..")}:${process.env.PATH ?? ""}` });
  const inProject = (command: string, args: string[]) =>
    run(command, args, { cwd: project, env: withNode(), maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });

  beforeAll(async () => {
    node = await nodeBin();
    project = join(work, `msw${msw}`);
    await mkdir(project);
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "consumer", type: "module", private: true }),
    );
    await inProject("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      tarball,
      mswSpec,
      "twilio",
      `vitest@^${vitest}`,
      "typescript@~5.9",
      "@types/node",
    ]);
    await writeFile(join(project, "voice.test.ts"), await readmeTestFile());
    await writeFile(join(project, "unhandled.test.ts"), unhandledTestFile);
    await writeFile(join(project, "scenarios.test.ts"), await helperTestFile());
    await writeFile(join(project, "tsconfig.json"), consumerTsconfig);
  }, setupTimeout);

  it(`runs Node ${msw === "3" ? "24" : "20"} and msw ${msw}`, async () => {
    const { stdout } = await inProject(node, [
      "-p",
      "process.versions.node.split('.')[0] + ' ' + require('msw/package.json').version",
    ]);
    const [major, version] = stdout.trim().split(" ");
    expect(major).toBe(msw === "3" ? "24" : "20");
    expect(version!.split(".")[0]).toBe(msw);
  });

  it("passes the README's copy-paste test, unmodified", async () => {
    const { stdout } = await inProject(node, ["node_modules/vitest/vitest.mjs", "run", "voice.test.ts"]);
    expect(stdout).toMatch(/2 passed/);
  }, 120_000);

  it("typechecks the README's test, the listen options and the vitest helper's test.for under strict TypeScript", async () => {
    await inProject(node, ["node_modules/typescript/bin/tsc", "-p", "."]);
  }, 120_000);

  it("require()s every entry point from CommonJS, and answers through msw's setupServer", async () => {
    await writeFile(join(project, "require.cjs"), requireScript(Object.keys(manifest.exports)));
    const { stdout } = await inProject(node, ["require.cjs"]);
    expect(JSON.parse(stdout)).toEqual({
      failed: [],
      createSandbox: "function",
      health: 200,
      refused: true,
    });
  }, 60_000);

  it("fails a test that makes an unmatched request", async () => {
    const failed = await inProject(node, ["node_modules/vitest/vitest.mjs", "run", "unhandled.test.ts"]).then(
      () => undefined,
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(failed, "vitest must exit non-zero").toBeDefined();
    expect(`${failed!.stdout}${failed!.stderr}`).toMatch(/1 failed/);
    expect(`${failed!.stdout}${failed!.stderr}`).toMatch(/without a matching request handler/);
  }, 120_000);
});

// Jest loads ES modules (msw's, its dependencies', this package's) only under --experimental-vm-modules,
// and lets a CommonJS test require() them from Node 24.9 on: the example's `npm test` passes the flag.
describe("the Jest example (examples/jest-commonjs) with msw 3 on Node 24", () => {
  const example = join(repoRoot, "examples", "jest-commonjs");
  let project = "";
  let node = "";
  const withNode = () => ({ ...plainEnv(), PATH: `${join(node, "..")}:${process.env.PATH ?? ""}` });

  beforeAll(async () => {
    node = await node24();
    project = join(work, "jest-commonjs");
    await mkdir(project);
    // The example as a reader copies it, its devDependencies installed by hand: the package from the tarball.
    const { devDependencies, ...rest } = JSON.parse(
      await readFile(join(example, "package.json"), "utf8"),
    ) as {
      devDependencies: Record<string, string>;
    };
    await writeFile(join(project, "package.json"), JSON.stringify(rest));
    await writeFile(join(project, "voice.test.js"), await readFile(join(example, "voice.test.js")));
    await run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        tarball,
        "msw@^3",
        `jest@${devDependencies.jest}`,
        `twilio@${devDependencies.twilio}`,
      ],
      { cwd: project, env: withNode(), maxBuffer: 64 * 1024 * 1024, timeout: 240_000 },
    );
  }, setupTimeout);

  it("passes its npm test", async () => {
    const { stdout, stderr } = await run("npm", ["test"], {
      cwd: project,
      env: withNode(),
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
    });
    // Jest writes its report on stderr.
    expect(`${stdout}${stderr}`).toMatch(/Tests:\s+2 passed, 2 total/);
  }, 120_000);
});
