// Shared pieces of the benchmarks: the request they all make, the built package's location, small statistics.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The built package, not src: the benchmarks measure what ships. `npm run bench` builds first. */
export const distUrl = (path: string) => new URL(`../dist/${path}`, import.meta.url).href;

export const accountSid = "AC11111111111111111111111111111111";
export const authToken = "acme_auth_token_1111111111111111";
export const authorization = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
export const listPath = `/2010-04-01/Accounts/${accountSid}/IncomingPhoneNumbers.json`;
export const itemPath = (sid: string) =>
  `/2010-04-01/Accounts/${accountSid}/IncomingPhoneNumbers/${sid}.json`;
/** The form POST the sustained POST benchmark and the message floor send: one SMS from a number of the account's. */
export const messagesPath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
export const messageForm = "To=%2B15558675310&From=%2B14155550100&Body=Sustained+load";
export const formContentType = "application/x-www-form-urlencoded";

/** The sid of the first number the default fixtures assign to the account, from a list response body. */
export function firstSid(listBody: string): string {
  const sid = (JSON.parse(listBody) as { incoming_phone_numbers?: { sid?: string }[] })
    .incoming_phone_numbers?.[0]?.sid;
  if (!sid) throw new Error(`no incoming phone number in the list response: ${listBody.slice(0, 200)}`);
  return sid;
}

/**
 * The Node flags `npm start` runs the server with (package.json's start script), which the Docker image sets in
 * NODE_OPTIONS too (test/package/node-flags.test.ts keeps the two alike).
 */
export function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  // `exec`: the shell npm runs the script in becomes node, so a signal npm passes on reaches the server.
  const words = manifest.scripts.start
    .trim()
    .replace(/^exec\s+/, "")
    .split(/\s+/);
  const entry = words.findIndex((word) => word.endsWith("cli.cjs"));
  if (words[0] !== "node" || entry < 0) throw new Error(`unexpected start script: ${manifest.scripts.start}`);
  return words.slice(1, entry);
}

/** Seconds from an environment variable, so a quick trial run does not need code changes. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

export const verdict = (ratio: number, target: number) => (ratio >= target ? "PASS" : "BELOW TARGET");

/** What each benchmark reports back to bench/run.ts. */
export interface BenchResult {
  name: string;
  ours: number;
  baseline: number;
  ratio: number;
  target: number;
  /** Non-2xx responses or transport errors on either side: the figures are then not comparable. */
  failed: boolean;
}

/** Runs a benchmark script in a fresh Node process (with tsx) and resolves with the result it sends back over IPC. */
export function runInChild<T>(script: string, args: string[] = [], nodeFlags: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags, "--import", "tsx", join(repoRoot, script), ...args],
      {
        cwd: repoRoot,
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      },
    );
    let result: T | undefined;
    child.on("message", (message) => {
      result = message as T;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (result) resolve(result);
      else reject(new Error(`${script} ${args.join(" ")} exited with ${code} and no result`));
    });
  });
}

/**
 * The default fixtures with balances that last any run (messages and calls are admitted against the balance),
 * written to a fresh temporary folder; the path of the file.
 */
export function richFixtures(dir = mkdtempSync(join(tmpdir(), "voice-sandbox-bench-"))): string {
  const path = join(dir, "fixtures.yaml");
  writeFileSync(
    path,
    readFileSync(join(repoRoot, "fixtures/default.yaml"), "utf8").replace(
      /balance_cents: \d+/g,
      "balance_cents: 100000000000",
    ),
  );
  return path;
}
