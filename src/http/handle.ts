// The core: one plain request in, one plain response out. Route lookup, auth, parsing, validation, one handler.
import type { z } from "zod";
import { errors } from "../domain/errors.js";
import { authorize, resolvePrincipal } from "./auth.js";
import {
  checkJsonApiAccept,
  checkJsonApiContentType,
  refuseFixedRelationships,
} from "./carrier-api/negotiation.js";
import { bodyTypesOf, changesState, refuseCrossSite } from "./cross-site.js";
import { accountOf, observeRequests, type RequestTrace } from "./observe-requests.js";
import { mediaType, parseParams } from "./params.js";
import { renderError } from "./render-error.js";
import type { AnyRoute, RouteServices } from "./route.js";
import { createRouter } from "./router.js";
import { bodyLimitBytes, type SandboxRequest, type SandboxResponse, type Surface } from "./types.js";
import { accountParameterError, documentErrors, queryErrors } from "./validation.js";

export type Handle = (request: SandboxRequest) => Promise<SandboxResponse>;

/** The surface a path belongs to, for the error format even when no route matches. */
export function surfaceOf(path: string): Surface {
  if (path.startsWith("/carrier/")) return "carrier";
  if (path.startsWith("/__sandbox")) return "admin";
  return "account";
}

export function createHandle(routes: AnyRoute[], given: RouteServices): Handle {
  const router = createRouter(routes);
  const services: RouteServices = { ...given, routes };

  const serve = async (request: SandboxRequest, trace: RequestTrace): Promise<SandboxResponse> => {
    const surface = trace.surface;
    try {
      if (request.bodyTooLarge || Buffer.byteLength(request.body) > bodyLimitBytes) {
        throw errors.bodyTooLarge(bodyLimitBytes);
      }
      const method = request.method.toUpperCase();
      const match = router.match(method === "HEAD" ? "GET" : method, request.path);
      if (match.kind === "none") throw errors.notFound(request.path);
      if (match.kind === "wrong-method") throw errors.methodNotAllowed(method, request.path, match.allowed);
      const { route, params } = match;
      if (surface === "carrier") checkJsonApiAccept(request);
      // Before credentials are even read: a page of another site changes nothing, whatever it holds.
      if (changesState(route)) refuseCrossSite(request, bodyTypesOf(route));

      const principal = resolvePrincipal(
        request.headers.authorization,
        services.context.store,
        services.settings,
      );
      trace.accountSid = accountOf(principal, params);
      authorize(route.auth, principal, {
        store: services.context.store,
        settings: services.settings,
        path: request.path,
        pathAccountSid: params.AccountSid,
        acceptsTestCredentials: route.testCredentials !== undefined,
      });
      // The stored sid rather than the path's copy: a path parameter is a slice of the request path to V8,
      // and every row made with it (a message, its ledger entry, its events) would keep that path alive.
      if (params.AccountSid !== undefined)
        params.AccountSid = services.context.store.accounts.get(params.AccountSid)?.sid ?? params.AccountSid;

      checkPathParams(route, params);
      const query = parseQuery(route, request);
      const body = parseBody(route, request, params);
      // Test credentials get the route's own answer for them: validated as usual, nothing stored.
      const handler =
        principal.kind === "account-test" && route.testCredentials ? route.testCredentials : route.handle;
      const response = await handler({ request, params, query, body, principal, services });
      if (method === "HEAD") {
        const { stream: _unsent, ...head } = response;
        return { ...head, body: "" };
      }
      return response;
    } catch (error) {
      return renderError(surface, error, request.path);
    }
  };
  // Faults and the request journal wrap the core in one place, so every door gets them.
  return observeRequests(serve, services, surfaceOf);
}

/**
 * Checks `input` against `schema`, and once more with zod's `reportInput` only when it fails: the issues then tell
 * a missing parameter (input undefined) from a wrong one. Asked on every parse, `reportInput` made a valid
 * message's form take 2.0 instead of 0.55 us (docs/decisions.md).
 */
function validate<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  const result = schema.safeParse(input);
  return result.success ? result : schema.safeParse(input, { reportInput: true });
}

function checkPathParams(route: AnyRoute, params: Record<string, string>): void {
  const result = route.params && validate(route.params, params);
  if (!result || result.success) return;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? "");
  throw errors.invalidParameter(
    name,
    `${name} ${JSON.stringify(params[name])} in the path ${issue.message}.`,
  );
}

function parseQuery(route: AnyRoute, request: SandboxRequest): unknown {
  const raw = parseParams(request.query);
  if (!route.query) return raw;
  const result = validate(route.query, raw);
  if (result.success) return result.data;
  throw route.surface === "account"
    ? accountParameterError(result.error.issues, route.errorCodes, route.missingCodes)
    : queryErrors(result.error.issues);
}

function parseBody(route: AnyRoute, request: SandboxRequest, params: Record<string, string>): unknown {
  if (request.bodyStream) {
    if (route.streamsBody) return undefined;
    throw errors.unsupportedMediaType(
      "An NDJSON body is accepted only by PUT /__sandbox/state; send this request's body as its route documents.",
    );
  }
  if (!route.body) return undefined;
  const type = mediaType(request.headers["content-type"]);
  if (route.surface === "account") {
    if (request.body !== "" && type !== "application/x-www-form-urlencoded") {
      throw errors.unsupportedMediaType(
        `Send parameters as application/x-www-form-urlencoded (got ${type || "no Content-Type"}).`,
      );
    }
    const result = validate(route.body, parseParams(request.body));
    if (result.success) return result.data;
    throw accountParameterError(result.error.issues, route.errorCodes, route.missingCodes);
  }

  if (route.surface === "carrier") checkJsonApiContentType(request);
  else if (type !== "application/json" && request.body !== "") {
    throw errors.unsupportedMediaType(
      `Send a JSON body with Content-Type: application/json (got ${type || "none"}).`,
    );
  }
  let document: unknown;
  try {
    document = request.body === "" ? {} : JSON.parse(request.body);
  } catch (error) {
    throw errors.malformedBody(`The body is not valid JSON: ${(error as Error).message}`);
  }
  if (route.surface === "carrier" && !route.plainJsonBody)
    checkResourceIdentity(route, request.method, document, params);
  const result = validate(route.body, document);
  if (result.success) {
    if (route.surface === "carrier" && !route.plainJsonBody) refuseFixedRelationships(document, result.data);
    return result.data;
  }
  throw route.surface === "carrier" ? documentErrors(result.error.issues) : queryErrors(result.error.issues);
}

/**
 * JSON:API: a `type` the endpoint does not serve, or an `id` that is not the URL's, is a 409 Conflict;
 * a client-generated id on create is a 403, since ids are always minted by the server here.
 */
function checkResourceIdentity(
  route: AnyRoute,
  method: string,
  document: unknown,
  params: Record<string, string>,
): void {
  const data = (document as { data?: unknown } | null)?.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return;
  const { type, id } = data as { type?: unknown; id?: unknown };
  if (route.resourceType && typeof type === "string" && type !== route.resourceType) {
    throw errors.conflict(
      "/data/type",
      `This endpoint takes resources of type "${route.resourceType}", not "${type}".`,
    );
  }
  if (method.toUpperCase() === "POST" && !route.idParam && id !== undefined) {
    throw errors.forbidden(
      "Client-generated ids are not supported: leave out data.id and the server mints one.",
      {
        pointer: "/data/id",
      },
    );
  }
  if (route.idParam && typeof id === "string" && id !== params[route.idParam]) {
    throw errors.conflict(
      "/data/id",
      `data.id "${id}" does not match the id in the URL (${params[route.idParam]}).`,
    );
  }
}
