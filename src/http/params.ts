// Form and query parameters: repeated keys become arrays, `+` and `%20` both mean a space.

export type Params = Record<string, string | string[]>;

export function parseParams(text: string): Params {
  // No prototype: `__proto__=x` and `constructor=x` are parameters like any other, not members of Object.
  const out: Params = Object.create(null);
  if (text === "") return out;
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = out[key];
    if (existing === undefined) out[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[key] = [existing, value];
  }
  return out;
}

/** Builds a query string the way Twilio's URIs echo filters: keys in the order given, values encoded. */
export function buildQuery(params: [string, string | number][]): string {
  return params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join("&");
}

/** A header value by lower-case name. */
export const header = (headers: Record<string, string>, name: string): string | undefined => headers[name];

/** The media type of a Content-Type header without parameters, lower case ("" when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}
