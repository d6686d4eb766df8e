// Requests with headers fetch does not let a caller set (Host, Origin, Sec-Fetch-Site), for the Host and cross-site checks.
import { request as httpRequest } from "node:http";

export interface RawAnswer {
  status: number;
  body: string;
}

/** Any request over node:http, with exactly the headers given (a `host` among them replaces the URL's). */
export function sendRaw(
  url: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string },
) {
  const { hostname, port } = new URL(url);
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        path: options.path,
        method: options.method,
        // Framed as curl frames it: a DELETE's body would otherwise be read as the next request.
        headers: {
          ...(options.body ? { "content-length": String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

export function getWithHost(url: string, path: string, host: string, headers: Record<string, string> = {}) {
  return sendRaw(url, { method: "GET", path, headers: { host, ...headers } });
}
