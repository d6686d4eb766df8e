// Runs the real command line as a child process, the way an operator or a Docker container does.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach } from "vitest";

export const cliEntry = join(import.meta.dirname, "../../src/server/cli.ts");
/** Node arguments that run the CLI from source (no build needed). */
export const cliArgs = ["--import", "tsx", cliEntry];

export interface CliProcess {
  child: ChildProcess;
  /** Resolves with the server's URL once it logs that it listens; rejects if it exits first. */
  listening: Promise<string>;
  /** Everything printed so far, stdout and stderr together. */
  output(): string;
}

/** Starts `voice-sandbox serve <args>`; its logs are JSON, since its output is not a terminal. */
export function startServe(args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, [...cliArgs, "serve", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[0-9.:]+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
  // A caller that never awaits `listening` must not see an unhandled rejection.
  listening.catch(() => undefined);
  return { child, listening, output: () => output };
}

/** Resolves with the exit code once the process has exited. */
export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

/**
 * `startServe` for a test file whose servers must not outlive their test: each one started is sent `signal`
 * after the test (whatever it asserted) and awaited, so a test body needs no try/finally of its own.
 */
export function startServeStoppedAfterEach(signal: NodeJS.Signals = "SIGTERM") {
  const started: CliProcess[] = [];
  afterEach(async () => {
    for (const server of started.splice(0)) {
      server.child.kill(signal);
      await exited(server.child);
    }
  });
  return (args: string[], env: Record<string, string> = {}): CliProcess => {
    const server = startServe(args, env);
    started.push(server);
    return server;
  };
}
