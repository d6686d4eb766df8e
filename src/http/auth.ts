// Who is calling: resolves credentials to a principal, then checks it against a route's requirement.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Account } from "../domain/account.js";
import type { ApiKey } from "../domain/api-key.js";
import { errors } from "../domain/errors.js";
import type { Store } from "../domain/store.js";
import type { AuthRequirement, Principal } from "./principal.js";

export interface AuthSettings {
  carrierKey: string;
  /** When set, admin routes other than health need `Authorization: Bearer <adminToken>`. */
  adminToken?: string | undefined;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Digests of the secrets the sandbox holds (carrier key, admin token, auth tokens, API keys), so each request
 * hashes only what it presents. Bounded: a sandbox holds few secrets, and the cache starts over when full.
 */
const knownDigests = new Map<string, Buffer>();
const knownDigestLimit = 10_000;

function digestOfKnown(secret: string): Buffer {
  let value = knownDigests.get(secret);
  if (!value) {
    if (knownDigests.size >= knownDigestLimit) knownDigests.clear();
    value = digest(secret);
    knownDigests.set(secret, value);
  }
  return value;
}

/** A presented secret, hashed once and compared in constant time with any number of known ones. */
class Presented {
  private hashed: Buffer | undefined;
  constructor(readonly value: string) {}
  equals(known: string): boolean {
    this.hashed ??= digest(this.value);
    return timingSafeEqual(this.hashed, digestOfKnown(known));
  }
}

/** Constant-time string comparison (hashing first makes the lengths equal). */
export function secretsEqual(presented: string, known: string): boolean {
  return new Presented(presented).equals(known);
}

/**
 * The rows a header's credentials name, looked up without reading the secret: the account or API key its
 * Basic username names (or the test account it is the test sid of), the API key a bearer token is.
 */
interface Named {
  account: Account | undefined;
  testOf: Account | undefined;
  key: ApiKey | undefined;
}

/** What a header names rows by: a Basic username, or a bearer token. */
type Names = { scheme: "basic"; username: string } | { scheme: "bearer"; token: string };

/** An Authorization header that passed the full check, with the rows and settings it was checked against. */
interface Verified {
  principal: Principal;
  names: Names;
  named: Named;
  carrierKey: string;
  adminToken: string | undefined;
}

/**
 * Headers that passed, per store: a client sends the same header on every request, and hashing it each time
 * was a fifth of a read's cost. A hit still holds only while every row and setting it was checked against is
 * the same object (rows are immutable: a new token or new scopes is a new row), so a changed credential is
 * checked in full again. Failed headers are never kept. Bounded: it starts over when full.
 */
const verifiedByStore = new WeakMap<Store, Map<string, Verified>>();
const verifiedLimit = 1000;

const anonymous: Principal = { kind: "anonymous" };

export function resolvePrincipal(
  authorization: string | undefined,
  store: Store,
  settings: AuthSettings,
): Principal {
  if (!authorization) return anonymous;
  let verified = verifiedByStore.get(store);
  const hit = verified?.get(authorization);
  if (hit && stillHolds(hit, store, settings)) return hit.principal;
  const checked = checkCredentials(authorization, store, settings);
  if (checked.basis) {
    if (!verified) {
      verified = new Map();
      verifiedByStore.set(store, verified);
    }
    if (verified.size >= verifiedLimit) verified.clear();
    verified.set(authorization, {
      principal: checked.principal,
      ...checked.basis,
      carrierKey: settings.carrierKey,
      adminToken: settings.adminToken,
    });
  }
  return checked.principal;
}

function stillHolds(hit: Verified, store: Store, settings: AuthSettings): boolean {
  if (hit.carrierKey !== settings.carrierKey || hit.adminToken !== settings.adminToken) return false;
  const now = rowsNamedBy(hit.names, store);
  return now.account === hit.named.account && now.testOf === hit.named.testOf && now.key === hit.named.key;
}

/** Splits `Scheme value`. */
function schemeOf(authorization: string): { scheme: string; value: string } {
  const space = authorization.indexOf(" ");
  return {
    scheme: authorization.slice(0, space < 0 ? undefined : space).toLowerCase(),
    value: space < 0 ? "" : authorization.slice(space + 1).trim(),
  };
}

/** Basic credentials' username and password, or why they cannot be read. */
function basicParts(value: string): { username: string; password: string } | string {
  let decoded: string;
  try {
    decoded = Buffer.from(value, "base64").toString("utf8");
  } catch {
    return "the Basic credentials are not valid base64";
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return "the Basic credentials have no password";
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The rows the same names lead to now. */
function rowsNamedBy(names: Names, store: Store): Named {
  if (names.scheme === "bearer") return bearerRows(names.token, store);
  return basicRows(names.username, store);
}

function bearerRows(token: string, store: Store): Named {
  return { account: undefined, testOf: undefined, key: store.apiKeys.findOne("key", token) };
}

function basicRows(username: string, store: Store): Named {
  const account = store.accounts.get(username);
  // Twilio test credentials name the account by its test sid.
  const testOf = account ? undefined : store.accounts.findOne("testSid", username);
  // Twilio-style API key credentials: `SK...:<key>`.
  const key = account || testOf ? undefined : store.apiKeys.get(username);
  return { account, testOf, key };
}

/** The full check: the presented secret hashed once and compared in constant time with each candidate. */
function checkCredentials(
  authorization: string,
  store: Store,
  settings: AuthSettings,
): { principal: Principal; basis?: { names: Names; named: Named } } {
  const { scheme, value } = schemeOf(authorization);

  if (scheme === "bearer") {
    if (!value) return { principal: { kind: "invalid", reason: "the bearer token is empty" } };
    const token = new Presented(value);
    const names: Names = { scheme: "bearer", token: value };
    const named = bearerRows(value, store);
    if (token.equals(settings.carrierKey)) return { principal: { kind: "carrier" }, basis: { names, named } };
    if (settings.adminToken && token.equals(settings.adminToken))
      return { principal: { kind: "admin" }, basis: { names, named } };
    // Candidate by index, then a constant-time comparison of the whole secret.
    const key = named.key;
    if (key && token.equals(key.key)) {
      return {
        principal: { kind: "api-key", accountSid: key.account_sid, keySid: key.sid, scopes: key.scopes },
        basis: { names, named },
      };
    }
    return { principal: { kind: "invalid", reason: "the bearer token is not a valid key" } };
  }

  if (scheme === "basic") {
    const parts = basicParts(value);
    if (typeof parts === "string") return { principal: { kind: "invalid", reason: parts } };
    const password = new Presented(parts.password);
    const names: Names = { scheme: "basic", username: parts.username };
    const named = basicRows(parts.username, store);
    const { account, testOf, key } = named;
    if (account && password.equals(account.auth_token))
      return { principal: { kind: "account", accountSid: account.sid }, basis: { names, named } };
    if (testOf && password.equals(testOf.test_auth_token)) {
      return {
        principal: { kind: "account-test", accountSid: testOf.sid, testAccountSid: testOf.test_account_sid },
        basis: { names, named },
      };
    }
    if (key && password.equals(key.key)) {
      return {
        principal: { kind: "api-key", accountSid: key.account_sid, keySid: key.sid, scopes: key.scopes },
        basis: { names, named },
      };
    }
    // The carrier key works as a Basic password too, so Twilio clients can act as the carrier.
    if (password.equals(settings.carrierKey))
      return { principal: { kind: "carrier" }, basis: { names, named } };
    return { principal: { kind: "invalid", reason: "Your AccountSid or AuthToken was incorrect." } };
  }
  return {
    principal: {
      kind: "invalid",
      reason: `the ${scheme} authorization scheme is not supported; use Basic or Bearer`,
    },
  };
}

/** What `authorize` checks a principal against besides the route's requirement. */
export interface AuthorizeRequest {
  store: Store;
  settings: AuthSettings;
  /** The request path (named in a 404 for an account that does not exist). */
  path: string;
  /** The `:AccountSid` of an account API path. */
  pathAccountSid?: string | undefined;
  /** The route answers Twilio test credentials (it has a `testCredentials` handler). */
  acceptsTestCredentials?: boolean | undefined;
}

/** Throws the 401 or 403 the requirement calls for (a key without the route's scope: 403, code 20003). */
export function authorize(
  requirement: AuthRequirement,
  principal: Principal,
  request: AuthorizeRequest,
): void {
  const { store, settings, path, pathAccountSid, acceptsTestCredentials = false } = request;
  if (requirement.kind === "none") return;
  if (requirement.kind === "admin") {
    // Without an admin token the admin API is open, as a local tool's should be.
    if (!settings.adminToken || principal.kind === "admin") return;
    throw principal.kind === "anonymous"
      ? errors.unauthenticated("this admin route needs Authorization: Bearer <admin token>", "Bearer")
      : errors.forbidden("This admin route needs the admin token (--admin-token).");
  }
  // Recording media is public, as Twilio serves it, unless its account turned media auth on.
  if (requirement.kind === "account" && requirement.publicMedia && !path.endsWith(".json")) {
    const owner = store.accounts.get(pathAccountSid ?? "");
    if (owner && !owner.media_auth) return;
  }
  if (principal.kind === "anonymous") {
    throw errors.unauthenticated(
      requirement.kind === "carrier"
        ? "No credentials provided. Send Authorization: Bearer <carrier API key>."
        : "No credentials provided. Send HTTP Basic AccountSid:AuthToken or Authorization: Bearer <API key>.",
      requirement.kind === "carrier" ? "Bearer" : "Basic",
    );
  }
  if (principal.kind === "invalid") {
    throw errors.unauthenticated(principal.reason, requirement.kind === "carrier" ? "Bearer" : "Basic");
  }

  if (requirement.kind === "carrier") {
    if (principal.kind === "carrier") return;
    throw errors.forbidden(
      "The carrier API needs the carrier API key (scope carrier_api); account credentials and API keys cannot use it.",
    );
  }

  // Account API.
  // Routes without an account in the path (the account list, subaccount create) act on the caller's own.
  const accountSid =
    pathAccountSid ??
    (principal.kind === "account" || principal.kind === "api-key" ? principal.accountSid : "");
  if (principal.kind === "carrier") {
    if (requirement.carrier === "allowed" || requirement.carrier === "only") {
      if (!store.accounts.has(accountSid)) throw errors.notFound(path);
      return;
    }
    throw errors.forbidden(
      "The carrier key cannot be used on this account API route. Use the account's AuthToken or an API key with the right scope.",
    );
  }
  if (principal.kind === "admin")
    throw errors.forbidden("The admin token cannot be used on the account API.");
  if (principal.kind === "account-test") {
    authorizeTestCredentials(principal, store, accountSid, path, acceptsTestCredentials);
    return;
  }
  if (requirement.carrier === "only") {
    throw errors.forbidden(
      "Only carrier administrators may provision numbers: authenticate with the carrier API key. Account credentials cannot do this.",
    );
  }
  // Twilio: a parent's master credentials act on its subaccounts too.
  const target = principal.accountSid === accountSid ? undefined : store.accounts.get(accountSid);
  const parentActs = principal.kind === "account" && target?.parent_account_sid === principal.accountSid;
  if (principal.accountSid !== accountSid && !parentActs) {
    throw errors.forbidden(
      `These credentials belong to account ${principal.accountSid} and cannot act on ${accountSid}.`,
    );
  }
  const account = store.accounts.get(principal.accountSid);
  if (!account) throw errors.unauthenticated("the account of these credentials no longer exists", "Basic");
  if (account.status === "suspended") throw errors.accountSuspended(account.sid);
  // A suspended subaccount stays manageable by its parent (to reactivate it), and serves nothing else.
  if (target && target.status === "suspended" && requirement.scope !== null) {
    throw errors.accountSuspended(target.sid);
  }
  if (principal.kind === "api-key" && requirement.scope === null) {
    throw errors.forbidden(
      `API key ${principal.keySid} cannot manage accounts: as with Twilio's standard keys, this needs the account's AuthToken.`,
    );
  }
  if (principal.kind === "api-key" && !principal.scopes.includes(requirement.scope!)) {
    throw errors.forbidden(
      `API key ${principal.keySid} lacks the ${requirement.scope} scope needed for this operation. It has: ${principal.scopes.join(", ") || "no scopes"}.`,
    );
  }
}

/**
 * Twilio test credentials act on the test Account SID in the path (as the twilio package sends it), reach
 * only the routes that answer them (403, code 20008, elsewhere), and share the live account's suspension.
 * The carrier-only rule for provisioning numbers does not apply: a test purchase provisions nothing.
 */
function authorizeTestCredentials(
  principal: Extract<Principal, { kind: "account-test" }>,
  store: Store,
  accountSid: string,
  path: string,
  acceptsTestCredentials: boolean,
): void {
  if (principal.testAccountSid !== accountSid) {
    throw errors.forbidden(
      `These are the test credentials of ${principal.testAccountSid} (test Account SID of ${principal.accountSid}) and cannot act on ${accountSid}: put the test Account SID in the path.`,
    );
  }
  const account = store.accounts.get(principal.accountSid);
  if (!account) throw errors.unauthenticated("the account of these credentials no longer exists", "Basic");
  if (account.status === "suspended") throw errors.accountSuspended(account.sid);
  if (!acceptsTestCredentials) throw errors.testCredentialsNotAccepted(path);
}
