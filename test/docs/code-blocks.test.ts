// Every code block of the README and docs/ is checked, so the pages cannot drift: TypeScript is compiled
// and run, JavaScript run, shell run against a live server, YAML and JSON parsed and validated.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { startCustomerApp } from "../../examples/customer-app/app.mjs";
import { createSandbox, parseScenario } from "../../src/index.js";
import { configFileSchema } from "../../src/server/config-file.js";
import { type CliProcess, exited, startServe } from "../support/cli-process.js";
import { fixtures } from "../support/fixtures.js";
import { type DocBlock, extractBlocks } from "./markdown-blocks.js";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../../", import.meta.url));
/** Where blocks are written to be compiled and imported (git-ignored, outside the project's tsconfig). */
const blockDir = join(repo, ".doc-blocks");
/** The address the pages use for the standalone server and for the example app; each run gets free ports. */
const docServer = "http://127.0.0.1:4010";
const docApp = "http://127.0.0.1:3000";

const pages = [
  "README.md",
  ...(await readdir(join(repo, "docs")))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];
const blocksOf = new Map<string, DocBlock[]>();
for (const page of pages) blocksOf.set(page, extractBlocks(page, await readFile(join(repo, page), "utf8")));
const allBlocks = [...blocksOf.values()].flat();

type Check = "json" | "yaml" | "sh" | "run" | "typecheck" | "server" | "setup" | "same-as" | "not-run";

/** What is done with a block: its marker decides, else its language. */
function checkOf(block: DocBlock): Check | undefined {
  switch (block.marker?.kind) {
    case "skip":
    case "output":
      return "not-run";
    case "typecheck":
    case "server":
    case "setup":
    case "same-as":
      return block.marker.kind;
  }
  if (block.lang === "json") return "json";
  if (block.lang === "yaml") return "yaml";
  if (block.lang === "sh") return "sh";
  if (block.lang === "ts" || block.lang === "js") return "run";
  return undefined;
}

const slug = (block: DocBlock) => `${block.file.replace(/[^A-Za-z0-9]+/g, "-")}-${block.line}`;
const needsServer = (block: DocBlock) => block.code.includes(docServer) || /\bclient\./.test(block.code);

/** The package's entry points, mapped to their sources, so blocks import exactly what package.json exports. */
const entryPoints: Record<string, string> = {
  "voice-sandbox": "../src/index.js",
  "voice-sandbox/webhooks": "../src/webhooks/index.js",
  "voice-sandbox/vitest": "../src/scenarios/vitest.js",
  "voice-sandbox/msw": "../src/adapters/msw.js",
  "voice-sandbox/express": "../src/adapters/express.js",
  "voice-sandbox/inspector": "../src/inspector/index.js",
};

/**
 * A block as a module: imports point at the sources, the documented addresses at this run's servers. JS
 * blocks on the account API page may use `twilio` and `client` (Acme's client) without setting them up;
 * the page says so.
 */
function asModule(block: DocBlock, servers: { server?: string; app?: string }): string {
  let code = block.code.replace(/from "(voice-sandbox(?:\/[a-z]+)?)"/g, (_whole, name: string) => {
    const target = entryPoints[name];
    if (!target) throw new Error(`${block.file}:${block.line}: ${name} is not an entry point of the package`);
    return `from "${target}"`;
  });
  if (servers.server) code = code.replaceAll(docServer, servers.server);
  if (servers.app) code = code.replaceAll(docApp, servers.app);
  const prelude: string[] = [];
  const setsUpClient = /\bclient\./.test(code) && !/\b(const|let) client\b/.test(code);
  if ((setsUpClient || /\btwilio\(/.test(code)) && !/import twilio\b/.test(code))
    prelude.push('import twilio from "twilio";');
  if (setsUpClient)
    prelude.push(
      `const client = twilio("${fixtures.acme.sid}", "${fixtures.acme.authToken}");`,
      `client.api.baseUrl = "${servers.server}";`,
    );
  return `${prelude.join("\n")}\n${code}\nexport {};\n`;
}

/** Runs a shell block with bash, in a scratch directory that sees the repository's scenarios and fixtures. */
async function runShell(
  block: DocBlock,
  setup: string,
  servers: { server?: string; app?: string },
  cwd: string,
) {
  let code = block.code;
  if (servers.server) code = code.replaceAll(docServer, servers.server);
  if (servers.app) code = code.replaceAll(docApp, servers.app);
  const tsx = pathToFileURL(join(repo, "node_modules/tsx/dist/loader.mjs")).href;
  const script = [
    "set -euo pipefail",
    // A page's curl must fail on an HTTP error, as a reader would notice one.
    'curl() { command curl -sS --fail-with-body "$@"; echo; }',
    // `npx voice-sandbox` is this repository's CLI; nothing is fetched from the registry.
    `npx() { if [ "$1" = voice-sandbox ]; then shift; node --import ${tsx} ${join(repo, "src/server/cli.ts")} "$@"; else echo "npx $1: not run by the docs check" >&2; return 127; fi; }`,
    setup,
    code,
  ].join("\n");
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  for (const name of Object.keys(env)) if (name.startsWith("VOICE_SANDBOX_")) delete env[name];
  try {
    return await run("bash", ["-c", script], { cwd, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr, message } = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${block.file}:${block.line} failed: ${message}\n${stdout ?? ""}\n${stderr ?? ""}`);
  }
}

let scratch = "";

beforeAll(async () => {
  await rm(blockDir, { recursive: true, force: true });
  await mkdir(blockDir, { recursive: true });
  scratch = await mkdtemp(join(tmpdir(), "voice-sandbox-docs-"));
  for (const entry of ["scenarios", "fixtures", "examples", "scenario.schema.json"])
    await symlink(join(repo, entry), join(scratch, entry));
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("the docs' code blocks", () => {
  it("are each checked, or marked with the reason they are not", () => {
    const unknown = allBlocks.filter((block) => checkOf(block) === undefined);
    expect(unknown.map((b) => `${b.file}:${b.line} \`\`\`${b.lang}`)).toEqual([]);
    const unexplained = allBlocks.filter(
      (block) => (checkOf(block) === "not-run" || checkOf(block) === "typecheck") && !block.marker?.note,
    );
    expect(unexplained.map((b) => `${b.file}:${b.line}`)).toEqual([]);
    // Few blocks are left unchecked; the rest run.
    expect(allBlocks.filter((block) => checkOf(block) === "not-run").length).toBeLessThan(
      allBlocks.length / 3,
    );
  });

  it("compile under strict TypeScript (every ts block)", async () => {
    const typed = allBlocks.filter(
      (block) => block.lang === "ts" && ["run", "typecheck", "same-as"].includes(checkOf(block)!),
    );
    const dir = blockDir;
    for (const block of typed)
      await writeFile(join(dir, `${slug(block)}.ts`), asModule(block, { server: docServer, app: docApp }));
    await writeFile(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: "../tsconfig.json",
        compilerOptions: { noEmit: true, rootDir: ".." },
        include: ["*.ts"],
      }),
    );
    try {
      await run(process.execPath, [join(repo, "node_modules/typescript/bin/tsc"), "-p", dir], { cwd: repo });
    } catch (error) {
      throw new Error(`TypeScript errors in the docs' blocks:\n${(error as { stdout: string }).stdout}`);
    }
  }, 120_000);
});

for (const page of pages) {
  const blocks = blocksOf.get(page)!;
  if (blocks.length === 0) continue;
  describe(page, () => {
    const servers: { server?: string; app?: string } = {};
    let serve: CliProcess | undefined;
    let app: Awaited<ReturnType<typeof startCustomerApp>> | undefined;
    const setup = blocks
      .filter((block) => checkOf(block) === "setup")
      .map((block) => block.code)
      .join("\n");

    beforeAll(async () => {
      if (blocks.some((block) => ["sh", "run"].includes(checkOf(block)!) && needsServer(block))) {
        serve = startServe(["--port", "0", "--log-level", "info"]);
        servers.server = await serve.listening;
      }
      if (blocks.some((block) => block.code.includes(docApp))) {
        app = await startCustomerApp({ authToken: fixtures.acme.authToken });
        servers.app = app.url;
      }
    }, 30_000);

    afterAll(async () => {
      if (serve) {
        serve.child.kill("SIGTERM");
        await exited(serve.child);
      }
      await app?.close();
    });

    for (const block of blocks) {
      const check = checkOf(block);
      const name = `${block.file}:${block.line} ${block.lang || "text"} (${check}${block.marker?.note ? `: ${block.marker.note}` : ""})`;
      if (check === "not-run" || check === "setup" || check === "typecheck") {
        it.skip(name, () => undefined);
        continue;
      }
      it(name, async () => {
        switch (check) {
          case "json":
            expect(() => JSON.parse(block.code)).not.toThrow();
            break;
          case "yaml":
            await checkYaml(block);
            break;
          case "sh":
            await runShell(block, setup, servers, scratch);
            break;
          case "run": {
            const file = join(blockDir, `${slug(block)}.ts`);
            await writeFile(file, asModule(block, servers));
            await import(pathToFileURL(file).href);
            break;
          }
          case "server":
            await checkServerCommand(block);
            break;
          case "same-as":
            await checkSameAs(block);
            break;
        }
      });
    }
  });
}

/** A scenario must load and pass; a `handlers` fragment must load inside a scenario; anything else is a config file. */
async function checkYaml(block: DocBlock) {
  const value = parseYaml(block.code, { uniqueKeys: true }) as Record<string, unknown>;
  if ("name" in value) {
    parseScenario(block.code, `${block.file}:${block.line}`);
    const result = await createSandbox().runScenario(block.code);
    expect(result.failures, `${block.file}:${block.line}`).toEqual([]);
    expect(result.status).toBe("passed");
  } else if (Object.keys(value).every((key) => key === "handlers")) {
    parseScenario(`name: fragment\n${block.code}`, `${block.file}:${block.line}`);
  } else {
    const camel = Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
        v,
      ]),
    );
    expect(configFileSchema.safeParse(camel).error).toBeUndefined();
  }
}

/** `npx voice-sandbox serve ...`: started as written (on a free port), it must answer health and stop cleanly. */
async function checkServerCommand(block: DocBlock) {
  const line = block.code
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .find((l) => l.startsWith("npx voice-sandbox serve"));
  expect(line, `${block.file}:${block.line} starts the server`).toBeDefined();
  const args = line!.replace("npx voice-sandbox serve", "").trim().split(/\s+/).filter(Boolean);
  const port = args.indexOf("--port");
  if (port >= 0) args.splice(port, 2);
  const child = startServe([...args, "--port", "0", "--log-level", "info"]);
  try {
    const base = await child.listening;
    expect((await fetch(`${base}/__sandbox/health`)).status).toBe(200);
  } finally {
    child.child.kill("SIGTERM");
  }
  expect(await exited(child.child)).toBe(0);
}

/** The block is a file this suite runs; the two may differ only where the file imports the sources. */
async function checkSameAs(block: DocBlock) {
  const path = block.marker!.note;
  const file = await readFile(join(repo, path), "utf8");
  const body = file
    .slice(file.indexOf("\n") + 1)
    .replace('from "../../src/index.js"', 'from "voice-sandbox"');
  expect(block.code.replace(/^\/\/ [\w.-]+\n/, "")).toBe(body);
}
