// Webhook signatures, computed and checked exactly as Twilio signs its requests (HMAC-SHA1, base64).
import { createHmac, timingSafeEqual } from "node:crypto";
import { parse as parseLegacyQuery, stringify as stringifyLegacyQuery } from "node:querystring";

/** Form parameters as a receiver sees them: repeated keys become arrays (express.urlencoded does this). */
export type SignedParams = Readonly<Record<string, string | readonly string[] | undefined>>;

/** The spec's header (part 5, rule 6). */
export const signatureHeader = "X-Vendor-Signature";
/** Twilio's header, sent with the same value so `twilio.webhook()` and `validateRequest` work unmodified. */
export const twilioSignatureHeader = "X-Twilio-Signature";

/**
 * The signature of one request: the URL exactly as requested (query string included as-is), then
 * every parameter sorted by name (code-unit order, as JS `sort()`), each as name followed by value,
 * with no delimiter and no encoding; repeated keys contribute each distinct value, sorted. HMAC-SHA1
 * keyed with the account's auth token, base64. This is twilio-node's `getExpectedTwilioSignature`.
 * For GET deliveries the parameters are in the URL, so `params` is empty.
 */
export function computeSignature(authToken: string, url: string, params: SignedParams = {}): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (value === undefined) continue;
    if (typeof value === "string") data += name + value;
    else for (const item of [...new Set(value)].sort()) data += name + item;
  }
  return createHmac("sha1", authToken).update(Buffer.from(data, "utf8")).digest("base64");
}

/**
 * True when `signature` matches `url` and `params` under `authToken`. Like twilio-node's
 * `validateRequest`, it also accepts the URL with the default port added or removed, the URL as
 * WHATWG `URL` normalises it, and the query re-encoded by Node's legacy `querystring`, because
 * a receiver behind a proxy rarely sees the exact string the sender signed.
 */
export function validateSignature(
  authToken: string,
  signature: string | null | undefined,
  url: string,
  params: SignedParams = {},
): boolean {
  if (!signature) return false;
  const given = Buffer.from(signature);
  return candidateUrls(url).some((candidate) => {
    const expected = Buffer.from(computeSignature(authToken, candidate, params));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** The URL variants twilio-node 6 tries, in its order. */
function candidateUrls(url: string): string[] {
  const variants = [removePort(url), addPort(url)];
  let normalised: string | undefined;
  try {
    normalised = new URL(url).toString();
  } catch {
    normalised = undefined;
  }
  if (normalised !== undefined) {
    const without = removePort(normalised);
    const withPort = addPort(normalised);
    variants.push(without, withPort, withLegacyQuerystring(without), withLegacyQuerystring(withPort));
  }
  return [...new Set(variants)];
}

interface UrlParts {
  scheme: string;
  userInfo: string;
  host: string;
  port: string;
  rest: string;
}

/** Splits without normalising, so the path and query keep the exact characters that were signed. */
function splitUrl(url: string): UrlParts | null {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)/i.exec(url);
  if (!match) return null;
  const [prefix, scheme = "", authority = ""] = match;
  const userInfoEnd = authority.lastIndexOf("@");
  const hostAndPort = authority.slice(userInfoEnd + 1);
  // A colon starts the port only after an IPv6 literal's closing bracket.
  const portStart = hostAndPort.indexOf(":", hostAndPort.lastIndexOf("]") + 1);
  return {
    scheme,
    userInfo: authority.slice(0, userInfoEnd + 1),
    host: portStart === -1 ? hostAndPort : hostAndPort.slice(0, portStart),
    port: portStart === -1 ? "" : hostAndPort.slice(portStart),
    rest: url.slice(prefix.length),
  };
}

function addPort(url: string): string {
  const parts = splitUrl(url);
  if (!parts || parts.port) return url;
  const port = parts.scheme.toLowerCase() === "https://" ? ":443" : ":80";
  return parts.scheme + parts.userInfo + parts.host + port + parts.rest;
}

function removePort(url: string): string {
  const parts = splitUrl(url);
  return parts ? parts.scheme + parts.userInfo + parts.host + parts.rest : url;
}

function withLegacyQuerystring(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart === -1 || queryStart === url.length - 1) return url;
  return `${url.slice(0, queryStart)}?${stringifyLegacyQuery(parseLegacyQuery(url.slice(queryStart + 1)))}`;
}

/** The URL a GET delivery requests: the parameters appended to the configured URL's query string. */
export function urlWithQuery(url: string, params: Readonly<Record<string, string>>): string {
  const query = new URLSearchParams(params).toString();
  if (!query) return url;
  const hash = url.indexOf("#");
  const base = hash === -1 ? url : url.slice(0, hash);
  const separator = base.includes("?") ? (base.endsWith("?") || base.endsWith("&") ? "" : "&") : "?";
  return base + separator + query;
}
