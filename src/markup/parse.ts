// Parses call-control markup safely into a typed tree: size limit, no DTD or custom entities, positions for errors.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { maxMarkupBytes } from "../webhooks/contract.js";

/** Twilio refuses documents over 64 KB (the transport reads no further, so the limit lives with it). */
export { maxMarkupBytes };

/** Deepest element nesting read; real documents use four or five levels (Response, Gather, Say, SSML). */
export const maxMarkupDepth = 100;

export interface Position {
  line: number;
  column: number;
}

export interface MarkupNode {
  name: string;
  attrs: Record<string, string>;
  /** Text content directly inside the element (trimmed), SSML children included for Say. */
  text: string;
  children: MarkupNode[];
  position: Position;
}

export interface MarkupDocument {
  /** The `<Response>` element's children. */
  verbs: MarkupNode[];
}

/** Twilio's markup error codes: 12100 document parse failure, 12102 wrong root, 12200 schema validation. */
export class MarkupError extends Error {
  readonly code: number;
  readonly position: Position | null;
  constructor(code: number, message: string, position: Position | null = null) {
    super(position ? `${message} (line ${position.line}, column ${position.column})` : message);
    this.name = "MarkupError";
    this.code = code;
    this.position = position;
  }
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  captureMetaData: true,
  // Only the five predefined entities and character references; a DTD is refused before parsing.
  processEntities: true,
  htmlEntities: false,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  commentPropName: "#comment",
  maxNestedTags: maxMarkupDepth,
});
const meta = XMLParser.getMetaDataSymbol() as unknown as string;

type RawNode = Record<string, unknown>;

function positionAt(xml: string, index: number | undefined): Position {
  if (index === undefined) return { line: 1, column: 1 };
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index && i < xml.length; i++) {
    if (xml.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

function nameOf(raw: RawNode): string | null {
  for (const key of Object.keys(raw)) if (key !== ":@") return key;
  return null;
}

function toNode(xml: string, raw: RawNode, name: string): MarkupNode {
  const content = (raw[name] as RawNode[]) ?? [];
  const attrs = Object.fromEntries(
    Object.entries((raw[":@"] as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)]),
  );
  const children: MarkupNode[] = [];
  let text = "";
  for (const item of content) {
    const childName = nameOf(item);
    if (childName === null || childName === "#comment") continue;
    if (childName === "#text") {
      text += String(item["#text"]);
      continue;
    }
    const child = toNode(xml, item, childName);
    children.push(child);
    text += child.text;
  }
  const start = (raw as Record<string, { startIndex?: number } | undefined>)[meta]?.startIndex;
  return { name, attrs, text: text.replace(/\s+/g, " ").trim(), children, position: positionAt(xml, start) };
}

/** The parser's tree; what it refuses (nesting deeper than maxMarkupDepth) is the document's fault, 12100. */
function parseTree(xml: string): RawNode[] {
  try {
    return parser.parse(xml) as RawNode[];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const detail = /nested/i.test(reason) ? `elements nested deeper than ${maxMarkupDepth} levels` : reason;
    throw new MarkupError(12100, `Document parse failure: ${detail}`);
  }
}

/** Parses a markup document; throws MarkupError (12100 or 12102) when it cannot be read. */
export function parseMarkup(xml: string): MarkupDocument {
  if (Buffer.byteLength(xml) > maxMarkupBytes) {
    throw new MarkupError(
      12100,
      `Document parse failure: the document is larger than ${maxMarkupBytes} bytes`,
    );
  }
  const doctype = /<!DOCTYPE|<!ENTITY/i.exec(xml);
  if (doctype) {
    throw new MarkupError(
      12100,
      "Document parse failure: DOCTYPE and entity declarations are not allowed",
      positionAt(xml, doctype.index),
    );
  }
  if (xml.trim() === "") throw new MarkupError(12100, "Document parse failure: the response body is empty");
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new MarkupError(12100, `Document parse failure: ${valid.err.msg}`, {
      line: valid.err.line,
      column: valid.err.col,
    });
  }
  const roots = parseTree(xml).filter((raw) => {
    const name = nameOf(raw);
    return name !== null && name !== "?xml" && name !== "#comment" && name !== "#text";
  });
  const root = roots[0];
  const rootName = root ? nameOf(root) : null;
  if (!root || rootName !== "Response" || roots.length > 1) {
    throw new MarkupError(
      12100,
      `Document parse failure: the root element must be <Response>, got ${rootName ? `<${rootName}>` : "none"}`,
    );
  }
  return { verbs: toNode(xml, root, "Response").children };
}
