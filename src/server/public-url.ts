// The server's public base URL (--public-url, or public-url in a config file): checked once, the same way from either.

/**
 * `value` as the base of handed-out URLs: an absolute http(s) URL with nothing after the host but an optional
 * path, without its trailing slashes. Throws an Error saying what is wrong.
 */
export function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error("must be an absolute URL such as http://sandbox.example.test:4010");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`must be an http:// or https:// URL, not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password)
    throw new Error("must be a base URL: no query, fragment or credentials");
  return value.replace(/\/+$/, "");
}
