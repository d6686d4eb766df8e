// JSON:API 1.1 content negotiation and the relationships a request may not change: 406, 415 and 403, to the letter.
import { errors } from "../../domain/errors.js";
import { mediaType } from "../params.js";
import { jsonApiMediaType } from "../respond.js";
import type { SandboxRequest } from "../types.js";

/** JSON:API extensions this server supports (none): an `ext` naming any URI is unsupported. */
const supportedExtensions = new Set<string>();

interface MediaRange {
  type: string;
  /** Media type parameters by lower-case name; `q` (the weight, not a parameter of the type) left out. */
  parameters: Map<string, string>;
}

/** `type/subtype; a=b; c="d e"` pieces of a header, split on commas outside quotes. */
function parseMediaRanges(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.match(/(?:[^,"]|"[^"]*")+/g) ?? []) {
    const [type = "", ...params] = part.match(/(?:[^;"]|"[^"]*")+/g) ?? [];
    const parameters = new Map<string, string>();
    for (const param of params) {
      const eq = param.indexOf("=");
      const name = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
      const value =
        eq < 0
          ? ""
          : param
              .slice(eq + 1)
              .trim()
              .replace(/^"(.*)"$/, "$1");
      if (name && name !== "q") parameters.set(name, value);
    }
    if (type.trim()) ranges.push({ type: type.trim().toLowerCase(), parameters });
  }
  return ranges;
}

/** The parameters JSON:API allows on its media type are `ext` and `profile`; `ext` lists extension URIs. */
const unsupportedParameters = (range: MediaRange) =>
  [...range.parameters.keys()].filter((name) => name !== "ext" && name !== "profile");
const unsupportedExtensions = (range: MediaRange) =>
  (range.parameters.get("ext") ?? "")
    .split(/\s+/)
    .filter((uri) => uri !== "" && !supportedExtensions.has(uri));

/**
 * Content-Type: JSON:API's media type with a parameter other than `ext` or `profile`, or an `ext` naming an
 * extension this server does not support, is a 415. Plain `application/json` is taken as well.
 */
export function checkJsonApiContentType(request: SandboxRequest): void {
  const contentType = request.headers["content-type"] ?? "";
  const type = mediaType(contentType);
  if (type === "application/json") return;
  if (type !== jsonApiMediaType) {
    throw errors.unsupportedMediaType(
      `Send the body with Content-Type: ${jsonApiMediaType} (or application/json); got ${type || "none"}.`,
    );
  }
  const [range] = parseMediaRanges(contentType);
  const unsupported = range ? unsupportedParameters(range) : [];
  if (unsupported.length > 0) {
    throw errors.unsupportedMediaType(
      `The ${jsonApiMediaType} media type accepts only the ext and profile parameters; remove ${unsupported.join(", ")}.`,
    );
  }
  const extensions = range ? unsupportedExtensions(range) : [];
  if (extensions.length > 0) {
    throw errors.unsupportedMediaType(
      `This server supports no JSON:API extensions; remove the ext parameter (${extensions.join(" ")}).`,
    );
  }
}

/**
 * Accept: instances of JSON:API's media type with a parameter other than `ext` or `profile` are ignored, and
 * if every instance is so modified, or names an unsupported extension, the answer is 406. An Accept without
 * JSON:API's media type (`*\/*`, `application/json`) is served as usual.
 */
export function checkJsonApiAccept(request: SandboxRequest): void {
  const accept = request.headers.accept;
  if (!accept) return;
  const instances = parseMediaRanges(accept).filter((range) => range.type === jsonApiMediaType);
  if (instances.length === 0) return;
  const usable = instances.filter(
    (range) => unsupportedParameters(range).length === 0 && unsupportedExtensions(range).length === 0,
  );
  if (usable.length === 0) {
    throw errors.notAcceptable(
      `Every ${jsonApiMediaType} in Accept carries a parameter other than ext or profile, or an extension this server does not support; accept ${jsonApiMediaType} without them.`,
    );
  }
}

/**
 * A `relationships` member the endpoint does not take (its schema dropped it) is refused with 403, as JSON:API
 * requires for an unsupported relationship update, rather than ignored.
 */
export function refuseFixedRelationships(document: unknown, parsed: unknown): void {
  const given = relationshipsOf(document);
  if (!given) return;
  const taken = relationshipsOf(parsed) ?? {};
  const refused = Object.keys(given).filter((name) => !(name in taken));
  if (refused.length === 0) return;
  throw errors.forbidden(
    `This endpoint cannot set or change the ${refused.join(", ")} relationship${refused.length > 1 ? "s" : ""} of this resource; leave ${refused.length > 1 ? "them" : "it"} out of data.relationships.`,
    { pointer: `/data/relationships/${refused[0]}` },
  );
}

function relationshipsOf(document: unknown): Record<string, unknown> | undefined {
  const data = (document as { data?: unknown } | null)?.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const relationships = (data as { relationships?: unknown }).relationships;
  return typeof relationships === "object" && relationships !== null && !Array.isArray(relationships)
    ? (relationships as Record<string, unknown>)
    : undefined;
}
