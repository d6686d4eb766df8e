// The standalone server's edges: a reader that goes away, a bad --public-url, JSON everywhere, and which package serves the API.
import { execFile, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliArgs, exited, startServe } from "../support/cli-process.js";

const run = promisify(execFile);

describe("serve | head -1", () => {
  it("still stops on SIGTERM after the reader of its output went away", async () => {
    const child = spawn(process.execPath, [...cliArgs, "serve", "--port", "0", "--log-format", "json"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    const firstLine = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once("line", resolve),
    );
    const url = (JSON.parse(firstLine) as { url: string }).url;
    // `head -1` exits: the pipe's read end closes and every later write is EPIPE.
    child.stdout!.destroy();
    expect((await fetch(`${url}/__sandbox/health`)).status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited(child)).toBe(0);
  });
});

describe("--public-url", () => {
  it.each([
    ["notaurl", "must be an absolute URL"],
    ["ftp://sandbox.example.test", "must be an http:// or https:// URL"],
    ["http://sandbox.example.test/?x=1", "must be a base URL"],
  ])("refuses %s", async (value, message) => {
    const failed = await run(process.execPath, [
      ...cliArgs,
      "serve",
      "--port",
      "0",
      "--public-url",
      value,
    ]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(message);
  });
});

describe("answers", () => {
  const server = startServe(["--port", "0"]);
  let base = "";
  beforeAll(async () => {
    base = await server.listening;
  });
  afterAll(async () => {
    server.child.kill("SIGTERM");
    await exited(server.child);
  });

  it.each(["/__sandbox", "/carrier", "/2010-04-01", "/nothing/here"])(
    "JSON, not an HTML page, for %s",
    async (path) => {
      const response = await fetch(base + path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/json/);
      await response.json();
    },
  );

  it("names the package version in the OpenAPI document, beside the API description's own", async () => {
    const manifest = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    const document = (await (await fetch(`${base}/__sandbox/openapi.json`)).json()) as {
      info: { version: string; "x-package-version": string };
    };
    expect(document.info).toMatchObject({ version: "1.0.0", "x-package-version": manifest.version });
  });
});
