// Routes are data (method, path, surface, auth, scope, input schemas, one handler), and what handlers may reach.
import type { z } from "zod";
import type { CallEngine } from "../engine/calls/call-engine.js";
import type { EngineContext } from "../engine/context/context.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";
import type { HealthBoard } from "./admin-api/health-board.js";
import type { AuthRequirement, Principal } from "./principal.js";
import type { RequestJournal } from "./request-journal.js";
import type { SandboxAdmin, SandboxSettings, ScenarioPlayer } from "./services.js";
import type { HttpMethod, SandboxRequest, SandboxResponse, Surface } from "./types.js";

/**
 * What route handlers may reach: the state, the call engine, the settings, and the admin API's sandbox-wide
 * operations.
 */
export interface RouteServices {
  /** The store, clock, ids and faults: record-level engine operations take this. */
  context: EngineContext;
  /** The running call engine: starting, controlling and observing calls, messages, conferences, queues. */
  calls: CallEngine;
  settings: SandboxSettings;
  admin: SandboxAdmin;
  /** The request journal (`GET /__sandbox/requests`); absent, requests are not recorded. */
  journal?: RequestJournal;
  /** The webhook dispatcher and its delivery log (`GET /__sandbox/webhooks`). */
  webhooks?: WebhookDispatcher;
  /** Scenario playback; absent, the scenarios route answers 404. */
  scenarios?: ScenarioPlayer;
  /** Problems parts of the sandbox report (`GET /__sandbox/health` says "degraded" while any is open). */
  health?: HealthBoard;
  /** The route table being served (the OpenAPI document describes it); `createHandle` fills it in. */
  routes?: readonly AnyRoute[];
}

export interface RouteContext<Q, B> {
  request: SandboxRequest;
  params: Record<string, string>;
  query: Q;
  body: B;
  principal: Principal;
  services: RouteServices;
}

export interface Route<Q = unknown, B = unknown> {
  method: HttpMethod;
  /** `:Name` marks a path parameter; account API paths also answer with a `.json` suffix. */
  path: string;
  surface: Surface;
  summary: string;
  auth: AuthRequirement;
  /**
   * Validates the path parameters (decoded): a bad one is a 400 naming it, before the handler looks anything up.
   * Every admin route with a parameter has one (a test holds the table to it).
   */
  params?: z.ZodType<Record<string, string>>;
  /** Validates the parsed query (and, on the account API, the path's own `.json` suffix is not part of it). */
  query?: z.ZodType<Q>;
  /** Validates the parsed body: form parameters (account API) or the JSON document (carrier and admin). */
  body?: z.ZodType<B>;
  /** Carrier API: the `data.type` the body must carry (409 otherwise). */
  resourceType?: string;
  /** Carrier API: the body must carry `data.id` equal to this path parameter (409 otherwise). */
  idParam?: string;
  /**
   * Admin API: the media types a state-changing route's body may have (default application/json, and its
   * `streamsBody` type). Never a type a page may send to another origin unasked (text/plain, a form): see
   * cross-site.ts, where the rule for every non-GET admin route is written.
   */
  bodyTypes?: readonly string[];
  /** Takes a body of this media type as a stream (`request.bodyStream`) instead of parsing it. */
  streamsBody?: string;
  /** Carrier API: the body is a bare JSON object, not a JSON:API document. */
  plainJsonBody?: boolean;
  /** Account API: Twilio error codes for invalid parameters, by parameter name. */
  errorCodes?: Record<string, number>;
  /** Account API: Twilio error codes for missing required parameters, where they differ from `errorCodes`. */
  missingCodes?: Record<string, number>;
  /** Success status, for the OpenAPI document. */
  status?: number;
  /** The success response body, for the OpenAPI document and response checks (omit for empty bodies). */
  response?: z.ZodType;
  /**
   * The success body is raw bytes of this media type (audio, say) rather than JSON; the document lists the
   * type and the response check compares the `content-type` header with it.
   */
  contentType?: string;
  /**
   * A redirect the route answers: alone when `status` is the redirect's status, or besides its `response`
   * (Twilio's recording URL without an extension). `location` describes the `Location` header.
   */
  redirect?: { status: 301 | 302 | 303 | 307 | 308; location: z.ZodType<string>; description: string };
  handle(ctx: RouteContext<Q, B>): SandboxResponse | Promise<SandboxResponse>;
  /**
   * Account API: answers Twilio test credentials in place of `handle` (only the Calls, Messages and
   * IncomingPhoneNumbers creates have one); routes without it answer them 403 with code 20008.
   */
  testCredentials?(ctx: RouteContext<Q, B>): SandboxResponse | Promise<SandboxResponse>;
}

/** Keeps a route's query and body types tied to its schemas. */
export function defineRoute<Q = undefined, B = undefined>(route: Route<Q, B>): Route<Q, B> {
  return route;
}

// biome-ignore lint/suspicious/noExplicitAny: a table holds routes of every input type.
export type AnyRoute = Route<any, any>;
