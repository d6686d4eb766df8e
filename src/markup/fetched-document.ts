// A fetched markup answer read as Twilio reads it: the failure's 11xxx code, or the verbs its content type gives.
import type { OutboundResult } from "../webhooks/contract.js";
import { MarkupError, type MarkupNode, parseMarkup } from "./parse.js";
import { validateVoiceDocument } from "./schema.js";

/**
 * Twilio's codes for a request that brought no document: 11210 "HTTP bad host name" (the name does not
 * resolve), 11215 "HTTP too many redirects", 11202 "TCP connection refused", 11205 "HTTP connection
 * failure" (no answer in time, or the connection broke), and 11200 "HTTP retrieval failure" for the rest
 * (an error status).
 */
export function fetchFailure(result: Extract<OutboundResult, { ok: false }>): MarkupError {
  if (result.reason === "network-error") {
    if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME/.test(result.error))
      return new MarkupError(11210, `HTTP bad host name: ${result.error}`);
    if (/too many redirects|redirect count exceeded/.test(result.error))
      return new MarkupError(11215, `HTTP too many redirects: ${result.error}`);
    if (/ECONNREFUSED/.test(result.error))
      return new MarkupError(11202, `TCP connection refused: ${result.error}`);
  }
  if (result.reason === "timeout" || result.reason === "network-error") {
    return new MarkupError(11205, `HTTP connection failure: ${result.error}`);
  }
  return new MarkupError(11200, `HTTP retrieval failure: ${result.error}`);
}

const escapeXml = (text: string) =>
  text.replace(/[<>&]/g, (c) => (c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&amp;"));

/**
 * The verbs of a fetched answer, by its Content-Type as Twilio documents them: XML or HTML types (or
 * none) are markup, `text/plain` is read out as one `<Say>`, `audio/*` is played as one `<Play>`, and
 * anything else is 12300 "Invalid Content-Type". Throws MarkupError.
 */
export function documentOf(result: Extract<OutboundResult, { ok: true }>, url: string): MarkupNode[] {
  const type = (result.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  let markup = result.body;
  if (type === "text/plain") markup = `<Response><Say>${escapeXml(result.body)}</Say></Response>`;
  else if (type.startsWith("audio/"))
    markup = `<Response><Play>${escapeXml(result.url || url)}</Play></Response>`;
  else if (type !== "" && !/^(text|application)\/(.+\+)?(xml|html)$/.test(type)) {
    throw new MarkupError(
      12300,
      `Invalid Content-Type: ${type} is not a markup, text or audio type (${url})`,
    );
  }
  const doc = parseMarkup(markup);
  validateVoiceDocument(doc.verbs);
  return doc.verbs;
}
