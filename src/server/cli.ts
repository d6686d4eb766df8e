#!/usr/bin/env node
// The voice-sandbox command line: `voice-sandbox serve` runs the standalone sandbox.
import { Command, InvalidArgumentError, Option } from "commander";
import { pino } from "pino";
import { FixtureError } from "../fixtures/load.js";
import { defaultFixturesPath, version } from "../sandbox.js";
import { serve } from "./serve.js";

const toPort = (value: string) => {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError("must be a port number 0-65535");
  return port;
};

const program = new Command()
  .name("voice-sandbox")
  .description("A local, stateful emulator of the voice and messaging service (account API and carrier API).")
  .version(version);

program
  .command("serve")
  .description("Run the standalone sandbox server")
  .addOption(
    new Option("-p, --port <port>", "port to listen on")
      .env("VOICE_SANDBOX_PORT")
      .default(4010)
      .argParser(toPort),
  )
  .addOption(
    new Option("-H, --host <host>", "address to bind").env("VOICE_SANDBOX_HOST").default("127.0.0.1"),
  )
  .addOption(
    new Option("-f, --fixtures <file>", "fixture file (YAML)")
      .env("VOICE_SANDBOX_FIXTURES")
      .default(defaultFixturesPath),
  )
  .addOption(new Option("--seed <seed>", "seed for ids").env("VOICE_SANDBOX_SEED").default("1"))
  .addOption(
    new Option("--clock <mode>", "real or virtual time")
      .choices(["real", "virtual"])
      .env("VOICE_SANDBOX_CLOCK")
      .default("real"),
  )
  .addOption(
    new Option("--carrier-key <key>", "carrier API key (overrides the fixtures)").env(
      "VOICE_SANDBOX_CARRIER_KEY",
    ),
  )
  .addOption(
    new Option("--admin-token <token>", "require this bearer token on admin routes (except health)").env(
      "VOICE_SANDBOX_ADMIN_TOKEN",
    ),
  )
  .addOption(new Option("--log-level <level>", "log level").env("VOICE_SANDBOX_LOG_LEVEL").default("info"))
  .action(async (options) => {
    const logger = pino({ level: options.logLevel, redact: ["carrierKey", "adminToken", "*.authorization"] });
    try {
      const seed = /^\d+$/.test(options.seed) ? Number(options.seed) : options.seed;
      const running = await serve({
        port: options.port,
        host: options.host,
        fixtures: options.fixtures,
        seed,
        clock: options.clock,
        carrierKey: options.carrierKey,
        adminToken: options.adminToken,
      });
      logger.info(
        { url: running.url, fixtures: options.fixtures, clock: options.clock },
        `voice-sandbox listening on ${running.url}`,
      );
      const stop = (signal: string) => {
        logger.info({ signal }, "shutting down");
        void running.close().then(() => process.exit(0));
      };
      process.once("SIGTERM", () => stop("SIGTERM"));
      process.once("SIGINT", () => stop("SIGINT"));
    } catch (error) {
      if (error instanceof FixtureError)
        process.stderr.write(`voice-sandbox: bad fixture file\n${error.message}\n`);
      else process.stderr.write(`voice-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    }
  });

await program.parseAsync(process.argv);
