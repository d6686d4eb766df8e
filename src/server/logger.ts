// The server's logger: pino, pretty on a terminal and JSON elsewhere, secrets redacted, a closed pipe never stalling it.
import { type Logger, pino } from "pino";
import { importPackage } from "../import-package.js";

/** Secrets never reach the logs, whatever logs them. */
export const redactPaths = [
  "carrierKey",
  "adminToken",
  "authorization",
  "*.carrierKey",
  "*.adminToken",
  "*.authorization",
  "*.headers.authorization",
  "*.auth_token",
  "*.test_auth_token",
];

export async function createLogger(level: string, format: string | undefined): Promise<Logger> {
  const pretty = format === "pretty" || (format === undefined && process.stdout.isTTY === true);
  const options = {
    level,
    base: { name: "voice-sandbox" },
    redact: { paths: redactPaths, censor: "[redacted]" },
  };
  // A reader that went away (`serve | head -1`) must not stall the server: once stdout is a broken pipe,
  // log lines are dropped instead of waiting on a pipe that never drains.
  const destination = pino.destination({ fd: 1, sync: true });
  destination.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    destination.write = () => true;
  });
  if (!pretty) return pino(options, destination);
  // Loaded only for a terminal: JSON logs (CI, Docker) never need it.
  const { default: pinoPretty } = (await importPackage("pino-pretty")) as {
    default: typeof import("pino-pretty");
  };
  // One line per event in a terminal: each message says what happened; the fields are for JSON readers.
  return pino(options, pinoPretty({ colorize: true, hideObject: true, destination }));
}
