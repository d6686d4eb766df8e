// Talks to the sandbox: the admin API and the inspector's reads, with the admin token when one is needed, and the live feed.

const tokenKey = "voice-sandbox.admin-token";
const authListeners = new Set();

export const token = {
  get: () => sessionStorage.getItem(tokenKey) ?? "",
  set(value) {
    if (value) sessionStorage.setItem(tokenKey, value);
    else sessionStorage.removeItem(tokenKey);
    feed.restart();
  },
  /**
   * Called with `{ status, message }` when the server refuses the inspector's access (401: no token, 403: a
   * wrong token, a Host name it does not answer), with the server's own message.
   */
  onRefused(listener) {
    authListeners.add(listener);
    return () => authListeners.delete(listener);
  },
};

/** Every request says it is the inspector's: the server logs the page's reads at debug, not info. */
const headers = (extra = {}) => {
  const value = token.get();
  const own = { ...extra, "x-voice-sandbox-client": "inspector" };
  return value ? { ...own, authorization: `Bearer ${value}` } : own;
};

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * One request; JSON in and out. Throws ApiError with the server's own message. Whatever is not a read names
 * its body type even with no body: the server changes nothing for a request without one (a page of another
 * site could send it).
 */
export async function api(method, path, body, contentType = "application/json") {
  const read = method === "GET" || method === "HEAD";
  const init = {
    method,
    headers: headers(read && body === undefined ? {} : { "content-type": contentType }),
  };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await fetch(path, init);
  const text = await res.text();
  const json = text && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : null;
  const message = json?.error?.message ?? json?.message ?? `HTTP ${res.status}`;
  if (path.startsWith("/__sandbox/")) refused(res.status, message);
  if (!res.ok) throw new ApiError(res.status, message);
  return json;
}

/** Tells the page the admin API refused it (the account API's own 401s are the caller's to show). */
function refused(status, message) {
  if (status !== 401 && status !== 403) return;
  for (const listener of authListeners) listener({ status, message });
}

/** The admin error's message of a refused read whose body was not read yet. */
async function refusal(res) {
  try {
    const json = await res.json();
    return json?.error?.message ?? json?.message ?? `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
}

/**
 * A write to the account API as the account itself (the admin token is refused there): its credentials read
 * through the admin API, then a form POST with HTTP Basic, as the account's own client sends it. Throws
 * ApiError with the account API's message.
 */
export async function accountPost(accountSid, path, form) {
  const credentials = await api("GET", `/__sandbox/accounts/${accountSid}/credentials`);
  const res = await fetch(`/2010-04-01/Accounts/${accountSid}${path}`, {
    method: "POST",
    headers: {
      "x-voice-sandbox-client": "inspector",
      authorization: `Basic ${btoa(`${accountSid}:${credentials.auth_token}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(form).toString(),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, json?.message ?? `HTTP ${res.status}`);
  return json;
}

/** The raw answer as a Blob (snapshot download). */
export async function download(path) {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) {
    const message = await refusal(res);
    refused(res.status, message);
    throw new ApiError(res.status, message);
  }
  return res.blob();
}

/**
 * The live feed: server-sent events read from a streamed fetch (EventSource cannot send the token).
 * Listeners get (event, data); the feed reconnects by itself.
 */
export const feed = (() => {
  const listeners = new Set();
  let controller = null;
  let connected = false;
  const statusListeners = new Set();
  const setConnected = (value) => {
    connected = value;
    for (const listener of statusListeners) listener(value);
  };

  const dispatch = (frame) => {
    let event = "message";
    let data = "";
    for (const line of frame.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    }
    const parsed = data ? JSON.parse(data) : {};
    for (const listener of listeners) listener(event, parsed);
  };

  const run = async () => {
    const mine = new AbortController();
    controller = mine;
    while (controller === mine) {
      try {
        const res = await fetch("/__sandbox/ui/api/feed", { headers: headers(), signal: mine.signal });
        if (res.status === 401 || res.status === 403) refused(res.status, await refusal(res));
        if (!res.ok || !res.body) throw new Error(`feed answered ${res.status}`);
        setConnected(true);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            dispatch(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf("\n\n");
          }
        }
      } catch {
        // Reconnected below; a stopped feed leaves the loop.
      }
      setConnected(false);
      if (controller !== mine) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      listener(connected);
      return () => statusListeners.delete(listener);
    },
    start() {
      if (!controller) void run();
    },
    restart() {
      controller?.abort();
      controller = null;
      void run();
    },
  };
})();
