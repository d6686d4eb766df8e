// The optional config file (`--config`): JSON or YAML with the same names as the command-line options.
import { parse } from "yaml";
import { z } from "zod";
import { parsedBy } from "../domain/fields.js";
import { checkAgentTurnTimeout } from "../engine/calls/call-streams.js";
import { parseRetention } from "../engine/context/retention.js";
import { parseDuration } from "../engine/time/duration.js";
import { FileReadError, readBoundedText } from "../fixtures/bounded-read.js";
import { parseAllowedHosts } from "./exposure.js";
import { parsePublicUrl } from "./public-url.js";

/** `--agent-turn-timeout`: a duration ("10s") or ms, from 0 to 1 minute; in ms. */
export const parseAgentTurnTimeout = (value: string | number): number => {
  try {
    return checkAgentTurnTimeout(parseDuration(value));
  } catch {
    throw new Error(`must be a duration from 0 to 1m, such as 10s or 2500ms (got ${String(value)})`);
  }
};

/** `--media-budget`: MiB (a whole number from 1 to 4096) all streams' queues of their apps' audio may hold; in bytes. */
export const parseMediaBudget = (value: string | number): number => {
  const mib = typeof value === "number" ? value : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(mib) || mib < 1 || mib > 4096)
    throw new Error(`must be a whole number of MiB from 1 to 4096, such as 64 (got ${String(value)})`);
  return mib * 1024 * 1024;
};

/** `--sender-threads`: frame sender threads for real-clock media streams, a whole number from 0 (the main thread sends) to 64. */
export const parseSenderThreads = (value: string | number): number => {
  const n = typeof value === "number" ? value : /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 64)
    throw new Error(`must be a whole number of threads from 0 to 64, such as 1 (got ${String(value)})`);
  return n;
};

/** What a config file may set; names as the long options, in kebab-case or camelCase. */
export const configFileSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().optional(),
  fixtures: z.string().optional(),
  seed: z.union([z.string(), z.number()]).transform(String).optional(),
  clock: z.enum(["real", "virtual"]).optional(),
  carrierKey: z.string().optional(),
  adminToken: z.string().optional(),
  insecureAdmin: z.boolean().optional(),
  generateAdminToken: z.boolean().optional(),
  publicUrl: z.string().transform(parsedBy(parsePublicUrl)).optional(),
  /** A list, or one comma-separated string as on the command line. */
  allowedHosts: z
    .union([z.string(), z.array(z.string())])
    .transform(parsedBy(parseAllowedHosts))
    .optional(),
  portFile: z.string().optional(),
  logLevel: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).optional(),
  logFormat: z.enum(["pretty", "json"]).optional(),
  dataDir: z.string().optional(),
  snapshotEvery: z.number().int().min(1).optional(),
  fsync: z.enum(["periodic", "always"]).optional(),
  journalLimit: z.number().int().min(0).optional(),
  eventLimit: z.number().int().min(0).optional(),
  eventMaxAge: z.union([z.string(), z.number()]).transform(String).optional(),
  callTimelineLimit: z.number().int().min(0).optional(),
  retain: z.union([z.string(), z.number()]).transform(parsedBy(parseRetention)).optional(),
  shutdownGrace: z.union([z.string(), z.number()]).transform(String).optional(),
  agentTurnTimeout: z.union([z.string(), z.number()]).transform(parsedBy(parseAgentTurnTimeout)).optional(),
  mediaBudget: z.union([z.string(), z.number()]).transform(parsedBy(parseMediaBudget)).optional(),
  senderThreads: z.union([z.string(), z.number()]).transform(parsedBy(parseSenderThreads)).optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

const camel = (key: string) => key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Reads and checks a config file; throws an Error naming the file and the bad key. */
export function loadConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readBoundedText(path);
  } catch (error) {
    const reason =
      error instanceof FileReadError ? error.reason : ((error as NodeJS.ErrnoException).code ?? "error");
    throw new Error(`${path}: cannot read the config file (${reason})`);
  }
  let raw: unknown;
  try {
    // YAML is a superset of JSON. No custom tags, and a small alias budget against alias bombs.
    raw = parse(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message.split("\n")[0]}`);
  }
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new Error(`${path}: the config file must be a mapping of option names to values`);
  const named = Object.fromEntries(Object.entries(raw).map(([key, value]) => [camel(key), value]));
  const result = configFileSchema.safeParse(named);
  if (result.success) return result.data;
  // Errors name a key as the file spells it (public-url, not publicUrl).
  const spelled = new Map(Object.keys(raw).map((key) => [camel(key), key]));
  const asWritten = (key: string) => spelled.get(key) ?? key;
  const issue = result.error.issues[0]!;
  const key =
    issue.code === "unrecognized_keys"
      ? issue.keys.map(asWritten).join(", ")
      : issue.path.map(String).map(asWritten).join(".") || "(top level)";
  throw new Error(
    `${path}: ${key}: ${issue.code === "unrecognized_keys" ? "not an option (see voice-sandbox serve --help)" : issue.message}`,
  );
}
