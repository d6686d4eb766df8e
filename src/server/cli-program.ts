// The voice-sandbox command line's program: `voice-sandbox serve` runs the standalone sandbox (cli.ts runs `main`).
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import type { Logger } from "pino";
import { defaultFinishedCallsKept } from "../engine/calls/call-registry.js";
import { defaultEventRetention } from "../engine/context/events.js";
import { defaultRecordRetention, parseRetention } from "../engine/context/retention.js";
import { parseDuration } from "../engine/time/duration.js";
import { FixtureError } from "../fixtures/load.js";
import { defaultFixturesPath, version } from "../sandbox.js";
import { addScenarioCommands } from "./cli-scenarios.js";
import {
  loadConfigFile,
  parseAgentTurnTimeout,
  parseMediaBudget,
  parseSenderThreads,
} from "./config-file.js";
import { isLoopback, parseAllowedHosts } from "./exposure.js";
import { createLogger } from "./logger.js";
import { DataDirError } from "./persistence/data-dir.js";
import { parsePublicUrl } from "./public-url.js";
import { serve } from "./serve.js";

const toPort = (value: string) => {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError("must be a port number 0-65535");
  return port;
};
const toCount = (minimum: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < minimum)
    throw new InvalidArgumentError(`must be a whole number, ${minimum} or more`);
  return n;
};
/** An option read by `parse`, which throws an Error saying what is wrong: commander shows its message. */
const argument =
  <T>(parse: (value: string) => T) =>
  (value: string): T => {
    try {
      return parse(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
const toPublicUrl = argument(parsePublicUrl);
const toDuration = argument(parseDuration);
const toAllowedHosts = argument(parseAllowedHosts);
const toRetention = argument(parseRetention);
const toAgentTurnTimeout = argument(parseAgentTurnTimeout);
const toMediaBudget = argument(parseMediaBudget);
const toSenderThreads = argument(parseSenderThreads);

/** A yes/no environment variable: 1, true or yes (any case) mean yes. */
const envFlag = (name: string) => /^(1|true|yes)$/i.test(process.env[name] ?? "");

const program = new Command()
  .name("voice-sandbox")
  .description("A local, stateful emulator of the voice and messaging service (account API and carrier API).")
  .version(version);

const serveCommand = program
  .command("serve")
  .description(
    "Run the standalone sandbox server. Every option also reads an environment variable (shown) or a key of the --config file; the command line wins over the environment, the environment over the file.",
  )
  .addOption(
    new Option("-c, --config <file>", "config file (JSON or YAML) with option names as keys").env(
      "VOICE_SANDBOX_CONFIG",
    ),
  )
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
    new Option("--clock <mode>", "real or virtual time (switchable later: POST /__sandbox/clock)")
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
  .option(
    "--insecure-admin",
    "listen beyond loopback with no admin token anyway (env VOICE_SANDBOX_INSECURE_ADMIN=1); without it or --admin-token, a host other than loopback refuses to start",
  )
  .option(
    "--generate-admin-token",
    "when no admin token is given, make one at start and print it once (env VOICE_SANDBOX_GENERATE_ADMIN_TOKEN=1; the Docker image sets it)",
  )
  .addOption(
    new Option(
      "--public-url <url>",
      "base of the URLs handed out in webhooks (RecordingUrl...): how clients reach this server (default: the bound address)",
    )
      .env("VOICE_SANDBOX_PUBLIC_URL")
      .argParser(toPublicUrl),
  )
  .addOption(
    new Option(
      "--allowed-hosts <names>",
      "Host names answered besides loopback, IP addresses and the public URL's, comma-separated (a Compose service, a tunnel); others are refused",
    )
      .env("VOICE_SANDBOX_ALLOWED_HOSTS")
      .argParser(toAllowedHosts),
  )
  .addOption(
    new Option(
      "-d, --data-dir <dir>",
      "keep the state in this directory: replayed at start, each acknowledged change on disk before its response",
    ).env("VOICE_SANDBOX_DATA_DIR"),
  )
  .addOption(
    new Option(
      "--snapshot-every <records>",
      "compact the change journal into a snapshot after this many records",
    )
      .env("VOICE_SANDBOX_SNAPSHOT_EVERY")
      .default(1000)
      .argParser(toCount(1)),
  )
  .addOption(
    new Option(
      "--fsync <policy>",
      "with --data-dir: periodic (a change is written before its response and fdatasync'd within a second; a crash of the server loses nothing, a power loss the last second) or always (fdatasync'd before its response)",
    )
      .choices(["periodic", "always"])
      .env("VOICE_SANDBOX_FSYNC")
      .default("periodic"),
  )
  .addOption(
    new Option("--journal-limit <requests>", "how many requests GET /__sandbox/requests keeps (0: none)")
      .env("VOICE_SANDBOX_JOURNAL_LIMIT")
      .default(1000)
      .argParser(toCount(0)),
  )
  .addOption(
    new Option(
      "--event-limit <events>",
      "how many carrier events GET /carrier/v1/events keeps, oldest dropped first",
    )
      .env("VOICE_SANDBOX_EVENT_LIMIT")
      .default(defaultEventRetention.maxCount)
      .argParser(toCount(0)),
  )
  .addOption(
    new Option(
      "--call-timeline-limit <calls>",
      "how many finished calls keep their timeline and what their parties heard, oldest dropped first",
    )
      .env("VOICE_SANDBOX_CALL_TIMELINE_LIMIT")
      .default(defaultFinishedCallsKept)
      .argParser(toCount(0)),
  )
  .addOption(
    new Option(
      "--retain <bounds>",
      `finished calls, messages, conferences, recordings, transcriptions and ledger entries kept, each kind, oldest dropped first: a count (${defaultRecordRetention.maxCount}, the default), an age (7d), both (${defaultRecordRetention.maxCount},7d), or all`,
    )
      .env("VOICE_SANDBOX_RETAIN")
      .argParser(toRetention),
  )
  .addOption(
    new Option(
      "--event-max-age <duration>",
      "drop carrier events older than this (sandbox time), e.g. 24h",
    ).env("VOICE_SANDBOX_EVENT_MAX_AGE"),
  )
  .addOption(
    new Option(
      "--agent-turn-timeout <duration>",
      "virtual clock: real time to wait for a <Connect> app that owes the caller an answer before noting that the agent did not answer (default 10s, at most 1m)",
    )
      .env("VOICE_SANDBOX_AGENT_TURN_TIMEOUT")
      .argParser(toAgentTurnTimeout),
  )
  .addOption(
    new Option(
      "--media-budget <MiB>",
      "what every media stream's queue of its app's audio and marks may hold together, shared equally by the streams open (default 64)",
    )
      .env("VOICE_SANDBOX_MEDIA_BUDGET")
      .argParser(toMediaBudget),
  )
  .addOption(
    new Option(
      "--sender-threads <n>",
      "real clock: threads that hold media streams' sockets and send their frames on time (default: the cores less one, 1 to 4; 0: the main thread sends them)",
    )
      .env("VOICE_SANDBOX_SENDER_THREADS")
      .argParser(toSenderThreads),
  )
  .addOption(
    new Option(
      "--shutdown-grace <duration>",
      "on SIGTERM/SIGINT, wait at most this long for requests and webhook deliveries",
    )
      .env("VOICE_SANDBOX_SHUTDOWN_GRACE")
      .default("5s"),
  )
  .addOption(
    new Option(
      "--port-file <file>",
      "write the bound port to this file once listening (the Docker image's HEALTHCHECK reads it)",
    ).env("VOICE_SANDBOX_PORT_FILE"),
  )
  .addOption(
    new Option("--log-level <level>", "log level")
      .choices(["trace", "debug", "info", "warn", "error", "fatal", "silent"])
      .env("VOICE_SANDBOX_LOG_LEVEL")
      .default("info"),
  )
  .addOption(
    new Option("--log-format <format>", "pretty or json (default: pretty on a terminal, JSON otherwise)")
      .choices(["pretty", "json"])
      .env("VOICE_SANDBOX_LOG_FORMAT"),
  );

serveCommand.action(async (options) => {
  /**
   * A yes/no option: on with its flag on the command line; else as its environment variable says, when set
   * (`0` turns off what a config file turns on); else as the config file says; else off.
   */
  const yesNo = (key: string, variable: string) =>
    serveCommand.getOptionValueSource(key) === "cli"
      ? options[key] === true
      : process.env[variable] !== undefined
        ? envFlag(variable)
        : options[key] === true;
  // The token line is written straight to stdout: a reader that went away must not crash the server.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
  let logger: Logger | undefined;
  try {
    if (options.config) {
      // The file fills in only what neither the command line nor the environment set.
      for (const [key, value] of Object.entries(loadConfigFile(options.config))) {
        const source = serveCommand.getOptionValueSource(key);
        if (source === undefined || source === "default")
          serveCommand.setOptionValueWithSource(key, value, "config");
      }
      options = serveCommand.opts();
    }
    logger = await createLogger(options.logLevel, options.logFormat);
    let adminToken: string | undefined = options.adminToken || undefined;
    if (!adminToken && yesNo("generateAdminToken", "VOICE_SANDBOX_GENERATE_ADMIN_TOKEN")) {
      adminToken = randomBytes(24).toString("base64url");
      // Printed once, here, and never logged: the logs redact it like any other secret.
      process.stdout.write(
        `voice-sandbox: admin token (generated, shown once; give --admin-token to choose one): ${adminToken}\n`,
      );
    }
    const insecureAdmin = yesNo("insecureAdmin", "VOICE_SANDBOX_INSECURE_ADMIN");
    const seed = /^\d+$/.test(String(options.seed)) ? Number(options.seed) : String(options.seed);
    const running = await serve({
      port: options.port,
      host: options.host,
      fixtures: options.fixtures,
      seed,
      clock: options.clock,
      carrierKey: options.carrierKey,
      adminToken,
      insecureAdmin,
      ...(options.publicUrl ? { publicBaseUrl: String(options.publicUrl) } : {}),
      allowedHosts: options.allowedHosts,
      dataDir: options.dataDir,
      snapshotEvery: options.snapshotEvery,
      fsync: options.fsync,
      journalLimit: options.journalLimit,
      events: {
        maxCount: options.eventLimit,
        ...(options.eventMaxAge ? { maxAgeMs: toDuration(String(options.eventMaxAge)) } : {}),
      },
      finishedCallsKept: options.callTimelineLimit,
      ...(options.retain !== undefined ? { retain: options.retain } : {}),
      ...(options.agentTurnTimeout !== undefined ? { agentTurnTimeout: options.agentTurnTimeout } : {}),
      streams: {
        ...(options.mediaBudget !== undefined ? { maxQueuedBytes: options.mediaBudget } : {}),
        ...(options.senderThreads !== undefined ? { senderThreads: options.senderThreads } : {}),
      },
      shutdownGraceMs: toDuration(String(options.shutdownGrace)),
      logger,
    });
    if (!adminToken && !isLoopback(options.host)) {
      logger.warn(
        { host: options.host },
        `the admin API is open to anyone who reaches ${running.url} (--insecure-admin): they can read every credential and reset the state`,
      );
    }
    if (options.portFile) writeFileSync(options.portFile, `${new URL(running.url).port}\n`);
    logger.info(
      {
        url: running.url,
        fixtures: options.fixtures,
        clock: options.clock,
        dataDir: options.dataDir ?? null,
        ...(options.dataDir ? { fsync: options.fsync } : {}),
        adminToken,
        carrierKey: options.carrierKey,
      },
      `voice-sandbox listening on ${running.url} (${options.clock} clock, ${
        options.fixtures === defaultFixturesPath ? "the default fixtures" : `fixtures ${options.fixtures}`
      }${options.dataDir ? `, state kept in ${options.dataDir}, fsync ${options.fsync}` : ""})`,
    );
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        logger?.warn({ signal }, "second signal: exiting now");
        process.exit(1);
      }
      stopping = true;
      logger?.info(
        { signal },
        "shutting down: no new requests, finishing those in flight, flushing the journal",
      );
      running.close().then(
        () => {
          logger?.info({}, "stopped");
          logger?.flush();
          process.exit(0);
        },
        (error: unknown) => {
          process.stderr.write(`voice-sandbox: shutdown failed: ${(error as Error).message}\n`);
          process.exit(1);
        },
      );
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  } catch (error) {
    if (error instanceof FixtureError)
      process.stderr.write(`voice-sandbox: bad fixture file\n${error.message}\n`);
    else if (error instanceof DataDirError)
      process.stderr.write(`voice-sandbox: cannot load the data directory\n${error.message}\n`);
    else process.stderr.write(`voice-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
});

addScenarioCommands(program);

/** Runs the command line; resolves once the command has done its work (`serve`: once the server listens). */
export async function main(argv: readonly string[]): Promise<void> {
  // An empty VOICE_SANDBOX_* variable counts as not set, for every option alike (commander would take `` as a
  // value, so an empty VOICE_SANDBOX_PUBLIC_URL= in a compose file would fail and an empty admin token win over
  // the config file's).
  for (const [name, value] of Object.entries(process.env))
    if (name.startsWith("VOICE_SANDBOX_") && value === "") delete process.env[name];
  await program.parseAsync([...argv]);
}
