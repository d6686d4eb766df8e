// The app's socket URL as streams, ConversationRelay and the account API's Streams take it.

/** A `ws:`/`wss:` URL for the socket: relative URLs resolve against the document, http(s) becomes ws(s). */
export function socketUrl(url: string, base: string | null): URL | null {
  try {
    const resolved = new URL(url, base ?? undefined);
    if (resolved.protocol === "https:") resolved.protocol = "wss:";
    if (resolved.protocol === "http:") resolved.protocol = "ws:";
    // A WebSocket URL has no fragment (RFC 6455, 3): it never reaches the server, and `ws` refuses one.
    resolved.hash = "";
    return resolved.protocol === "ws:" || resolved.protocol === "wss:" ? resolved : null;
  } catch {
    return null;
  }
}
