// What createSandbox takes: fixtures, clock, seed, credentials, bounds and the engine's pluggable parts.
import type { EventRetention, RecordRetention } from "./engine/context/context.js";
import type { Transcriber } from "./engine/media-streams/agent-utterances.js";
import type { Clock, ClockMode } from "./engine/time/clock.js";
import type { FixtureInput } from "./fixtures/schema.js";
import type { WebhookOptions } from "./webhooks/webhook-options.js";

export interface SandboxOptions {
  /**
   * Fixtures: a path to a YAML file, a fixture object, or `false` for an empty sandbox
   * (then `carrierKey` is required). Default: the packaged `fixtures/default.yaml`.
   */
  fixtures?: string | FixtureInput | false;
  /** `virtual` (default in library mode: time moves only when told), `real`, or a clock of your own. */
  clock?: ClockMode | Clock;
  /** Seed for ids and seeded randomness: the same seed gives the same sids. Default 1. */
  seed?: number | string;
  /** Overrides the fixtures' carrier key. */
  carrierKey?: string;
  /** When set, admin routes other than health need `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** How many requests the request journal keeps (`GET /__sandbox/requests`). Default 1000; 0 keeps none. */
  journalLimit?: number;
  /** Webhook delivery: `timeoutMs` (15000), `maxAttempts` (3), `backoffMs` (1000), `logLimit` (10000), `concurrency` (64), `perHostConcurrency` (8), `maxQueuedPerHost` (10000), and a `fetch` of your own (default: the global one, so MSW sees deliveries). */
  webhooks?: WebhookOptions & { fetch?: typeof fetch };
  /**
   * Carrier events kept (`GET /carrier/v1/events`): `maxCount` (default 20000) and `maxAgeMs` of sandbox
   * time (default none); the oldest are dropped first.
   */
  events?: EventRetention;
  /**
   * Finished calls whose timeline, and what their parties heard, stay readable (`GET
   * /__sandbox/calls/{sid}/timeline`, scenarios, the inspector). Default 1000; the oldest finished call's
   * are dropped first (its call record stays; 0 keeps none). Recordings still running hear a finished leg
   * whatever this is.
   */
  finishedCallsKept?: number;
  /**
   * Media streams: `maxQueuedBytes`, what every bidirectional stream's queue of the app's audio and marks
   * may hold together (default 64 MiB), shared out equally between the streams open (docs/limits.md, Audio).
   * `senderThreads`: on the real clock, worker threads that hold the streams' sockets and send their frames
   * on time whatever the main thread is doing (default: the machine's cores less one, 1 to 4; 0 sends them
   * from the main thread, as the virtual clock always does). docs/voice-agents.md, Frame senders.
   */
  streams?: { maxQueuedBytes?: number; senderThreads?: number };
  /**
   * Turns what a `<Connect><Stream>` app plays into words: `transcribe(audio)` gets each turn of the app's
   * audio (8 kHz mu-law and PCM) once it ends and answers its text, or a promise of it. The words join the
   * call's timeline (`stream.said`) and what the caller heard (a `say`). None by default (docs/engine.md).
   */
  transcriber?: Transcriber;
  /**
   * Finished records kept: calls, messages, conferences, recordings, transcriptions and ledger entries, each
   * kind on its own, the oldest finished dropped first with what hangs on them (docs/limits.md). `maxCount`
   * (default 10000 of each kind; 0 keeps none) and/or `maxAgeMs` of sandbox time (default none; it also
   * drops carrier events that old unless `events.maxAgeMs` says otherwise); `false` keeps every record.
   */
  retain?: RecordRetention | false;
  /**
   * Virtual clock: how long (real time) the sandbox waits for a `<Connect>` app (media stream or
   * ConversationRelay) that owes the call an answer before it records that the agent did not answer and
   * lets sandbox time go on: ms or a duration such as "10s" (default 10 s; docs/voice-agents.md).
   */
  agentTurnTimeout?: number | string;
  /** Base of the URLs the sandbox hands out in webhooks (RecordingUrl, TranscriptionUrl). Default `https://api.voice-sandbox.test`. */
  publicBaseUrl?: string | (() => string);
}
