// Public API: createSandbox() with its three doors (MSW handlers, Express middleware, fetch) over one state.
import type { HttpHandler } from "msw";
import { createExpressMiddleware } from "./adapters/express.js";
import { createFetch } from "./adapters/fetch.js";
import { createMswHandlers, defaultBaseUrl } from "./adapters/msw.js";
import { createPhoneBook, type PhoneBook } from "./phone/phone-book.js";
import { createSandboxCore, type SandboxCore, type SandboxOptions } from "./sandbox.js";

export interface CreateSandboxOptions extends SandboxOptions {
  /** Base URL(s) the MSW handlers intercept. Default `https://api.voice-sandbox.test`. */
  baseUrl?: string | string[];
}

export interface Sandbox extends SandboxCore {
  /** MSW request handlers: `setupServer(...sandbox.handlers)`. */
  readonly handlers: HttpHandler[];
  /** Fetch-shaped door: `await sandbox.fetch(url, init)`. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Express 5 middleware: `app.use(sandbox.express())`. */
  express(): ReturnType<typeof createExpressMiddleware>;
  readonly baseUrl: string;
  /** The simulated phone at a number, for tests on the virtual clock: `sandbox.phone("+14155550123").expectCall()`. */
  phone: PhoneBook["phone"];
  /** An inbound call from a simulated phone to one of the sandbox's numbers: `sandbox.call({ from, to })`. */
  call: PhoneBook["call"];
  /** Every phone made here; `phones.verify()` fails on calls and texts no expectation claimed. */
  readonly phones: PhoneBook;
}

export function createSandbox(options: CreateSandboxOptions = {}): Sandbox {
  const { baseUrl = defaultBaseUrl, ...coreOptions } = options;
  const core = createSandboxCore({
    publicBaseUrl: Array.isArray(baseUrl) ? (baseUrl[0] ?? defaultBaseUrl) : baseUrl,
    ...coreOptions,
  });
  const fetchDoor = createFetch(core.handle);
  const url = Array.isArray(baseUrl) ? (baseUrl[0] ?? defaultBaseUrl) : baseUrl;
  // The phones reach this sandbox through its own fetch door (no network), and set parties at once.
  const phones = createPhoneBook({
    url,
    carrierKey: core.settings.carrierKey,
    adminToken: core.settings.adminToken,
    fetch: (input, init) => fetchDoor(input, init),
    setParty: (number, behaviour) => void core.calls.setParty(number, behaviour),
  });
  // reset() and restore() replace the calls, texts and parties phones know: the next phone() starts anew.
  core.onStateReplaced(() => phones.forget());
  let handlers: HttpHandler[] | undefined;
  const sandbox = Object.assign(core, {
    fetch: fetchDoor,
    express: () => createExpressMiddleware(core.handle),
    baseUrl: url,
    phone: phones.phone,
    call: phones.call,
    phones,
  });
  // msw loads when the handlers are first asked for, so a sandbox used only through fetch or Express never loads it.
  Object.defineProperty(sandbox, "handlers", {
    enumerable: true,
    get: () => {
      handlers ??= createMswHandlers(core.handle, baseUrl);
      return handlers;
    },
  });
  return sandbox as typeof sandbox & { readonly handlers: HttpHandler[] };
}

export { createExpressMiddleware } from "./adapters/express.js";
export { createFetch } from "./adapters/fetch.js";
export { createMswHandlers, defaultBaseUrl } from "./adapters/msw.js";
export { type FailOnUnhandled, failOnUnhandled } from "./adapters/msw-listen-options.js";
export { createNodeListener } from "./adapters/node.js";
export type { AccountScope } from "./domain/api-key.js";
export { accountScopes } from "./domain/api-key.js";
export type { Respond } from "./engine/calls/party-cue-schema.js";
export { type AgentMetrics, agentMetrics, type Spread } from "./engine/media-streams/agent-metrics.js";
export type { AgentAudio, Transcriber } from "./engine/media-streams/agent-utterances.js";
export type { TurnRecord } from "./engine/media-streams/conversation.js";
export { type Clock, createRealClock, createVirtualClock } from "./engine/time/clock.js";
export { parseDuration } from "./engine/time/duration.js";
export { FixtureError } from "./fixtures/load.js";
export type { FixtureInput } from "./fixtures/schema.js";
export type { Handle } from "./http/handle.js";
export type { SandboxRequest, SandboxResponse } from "./http/types.js";
export {
  connectPhones,
  Phone,
  type PhoneBook,
  PhoneCall,
  PhoneExpectationError,
  PhoneMessage,
  type PhoneOptions,
} from "./phone/index.js";
export { createSandboxCore, type SandboxCore, type SandboxOptions, type SandboxSnapshot } from "./sandbox.js";
export {
  exitCodeOf,
  formatLoadResult,
  formatLoadTable,
  formatResult,
  formatSummary,
  type GateResult,
  jsonReport,
  junitReport,
  type LoadedScenario,
  type LoadMergeData,
  LoadMergeError,
  type LoadMergeInput,
  type LoadMetrics,
  type LoadOptions,
  type LoadProgress,
  type LoadResult,
  type LoadShard,
  type LoadShardInfo,
  type LoadSpread,
  LoadUsageError,
  loadJsonReport,
  loadJunitReport,
  loadScenario,
  loadScenarioFile,
  mergeLoadResults,
  parseLoadShard,
  parseScenario,
  type RunScenarioOptions,
  type RunSummary,
  runLoad,
  runScenarioFiles,
  type Scenario,
  type ScenarioFailure,
  type ScenarioInput,
  ScenarioLoadError,
  type ScenarioResult,
  type ScenarioSource,
  scenarioJsonSchema,
  scenarioSchema,
} from "./scenarios/index.js";
export {
  type AttemptOutcome,
  computeSignature,
  createWebhookReceiverMiddleware,
  type DeliveryAttempt,
  type DeliveryFilter,
  defaultWebhookOptions,
  isSandboxWebhook,
  type OutboundKind,
  type OutboundRequest,
  type OutboundResult,
  type ReceivedWebhook,
  type ReceiverAnswer,
  type ReceiverMiddlewareOptions,
  signatureHeader,
  twilioSignatureHeader,
  validateSignature,
  verifyWebhookRequest,
  type WebhookDispatcher,
  type WebhookOptions,
  type WebhookReceiver,
} from "./webhooks/index.js";
