// Cookies kept for customer apps as Twilio keeps them: one jar per call, one per pair of SMS numbers.
import { parse } from "set-cookie-parser";
import type { CookieJars, CookieScope } from "../../webhooks/contract.js";

/** Twilio keeps SMS cookies four hours at most ("Longer expirations may be capped to 4 hours"). */
export const smsCookieLifetimeMs = 4 * 60 * 60 * 1000;

/** A call's jar: its markup fetches and status callbacks, for as long as the call lasts. */
export const callCookies = (callSid: string): CookieScope => ({ jar: `call ${callSid}` });

/** An SMS number pair's jar: inbound messages from `from` to `to`, each cookie four hours at most. */
export const smsCookies = (from: string, to: string): CookieScope => ({
  jar: `sms ${from} ${to}`,
  maxAgeMs: smsCookieLifetimeMs,
});

interface Kept {
  value: string;
  /** Sandbox clock time the cookie stops being sent, or null for the end of the call. */
  expiresAt: number | null;
}

/** Jars kept at once: the least recently used goes first, so finished calls cannot pile up. */
export const maxCookieJars = 10_000;
/** Per jar and host, as browsers bound them; past it the oldest cookie is dropped. */
const maxCookiesPerHost = 50;
/** A name and value longer than a browser keeps (4096 bytes) is ignored. */
const maxCookieLength = 4096;

/** Cookies are kept per receiving host (`host:port`): one app's cookies never go to another's. */
const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};

export function createCookieJars(limit = maxCookieJars): CookieJars {
  /** Jar name -> host -> cookie name -> cookie; a Map keeps use order for eviction. */
  const jars = new Map<string, Map<string, Map<string, Kept>>>();

  const touch = (name: string, create: boolean) => {
    const jar = jars.get(name);
    if (jar) {
      jars.delete(name);
      jars.set(name, jar);
      return jar;
    }
    if (!create) return undefined;
    const made = new Map<string, Map<string, Kept>>();
    jars.set(name, made);
    if (jars.size > limit) jars.delete(jars.keys().next().value as string);
    return made;
  };

  return {
    header(scope, url, now) {
      const host = hostOf(url);
      const cookies = host === null ? undefined : touch(scope.jar, false)?.get(host);
      if (!cookies) return null;
      const pairs: string[] = [];
      for (const [name, kept] of cookies) {
        if (kept.expiresAt !== null && kept.expiresAt <= now) cookies.delete(name);
        else pairs.push(`${name}=${kept.value}`);
      }
      return pairs.length > 0 ? pairs.join("; ") : null;
    },

    store(scope, url, setCookies, now) {
      const host = hostOf(url);
      if (setCookies.length === 0 || host === null) return;
      const jar = touch(scope.jar, true)!;
      let cookies = jar.get(host);
      if (!cookies) {
        cookies = new Map();
        jar.set(host, cookies);
      }
      // Values are kept as sent: the Cookie header gives them back byte for byte.
      for (const cookie of parse([...setCookies], { decodeValues: false, silent: true })) {
        if (!cookie.name || cookie.name.length + cookie.value.length > maxCookieLength) continue;
        let expiresAt: number | null =
          cookie.maxAge !== undefined
            ? now + cookie.maxAge * 1000
            : cookie.expires
              ? cookie.expires.getTime()
              : null;
        if (scope.maxAgeMs !== undefined) expiresAt = Math.min(expiresAt ?? Infinity, now + scope.maxAgeMs);
        cookies.delete(cookie.name);
        if (expiresAt !== null && expiresAt <= now) continue;
        cookies.set(cookie.name, { value: cookie.value, expiresAt });
        if (cookies.size > maxCookiesPerHost) cookies.delete(cookies.keys().next().value as string);
      }
    },

    get size() {
      return jars.size;
    },
    clear() {
      jars.clear();
    },
  };
}
