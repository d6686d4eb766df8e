// The markup parser as a table: documents it reads (to a tree) and documents it refuses (with Twilio's code).
import { describe, expect, it } from "vitest";
import { MarkupError, maxMarkupBytes, maxMarkupDepth, parseMarkup } from "./parse.js";

/** A node as the table writes it: name, attributes, text, children. */
type Shape = [string, Record<string, string>, string, Shape[]?];

const shape = (xml: string): Shape[] => {
  const strip = (node: ReturnType<typeof parseMarkup>["verbs"][number]): Shape =>
    node.children.length > 0
      ? [node.name, node.attrs, node.text, node.children.map(strip)]
      : [node.name, node.attrs, node.text];
  return parseMarkup(xml).verbs.map(strip);
};

const nested = (depth: number) =>
  `<Response>${"<Gather>".repeat(depth)}${"</Gather>".repeat(depth)}</Response>`;

const reads: [string, string, Shape[]][] = [
  ["an empty response", "<Response/>", []],
  ["an XML declaration and comments", '<?xml version="1.0"?><!-- hi --><Response><!-- x --></Response>', []],
  ["one verb with text", "<Response><Say>Hello</Say></Response>", [["Say", {}, "Hello"]]],
  [
    "attributes as strings",
    '<Response><Pause length="5"/><Say voice="alice" loop="2">Hi</Say></Response>',
    [
      ["Pause", { length: "5" }, ""],
      ["Say", { voice: "alice", loop: "2" }, "Hi"],
    ],
  ],
  [
    "whitespace folded and trimmed",
    "<Response><Say>\n  Hello\n   there  </Say></Response>",
    [["Say", {}, "Hello there"]],
  ],
  [
    "the five predefined entities",
    "<Response><Say>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;</Say></Response>",
    [["Say", {}, "a & b <c> \"d\" 'e'"]],
  ],
  [
    "nesting, with the children's text in the parent's",
    '<Response><Gather numDigits="1"><Say>Press 1</Say><Pause/></Gather></Response>',
    [
      [
        "Gather",
        { numDigits: "1" },
        "Press 1",
        [
          ["Say", {}, "Press 1"],
          ["Pause", {}, ""],
        ],
      ],
    ],
  ],
  [
    "SSML inside Say",
    '<Response><Say>Hi <break time="1s"/> there</Say></Response>',
    [["Say", {}, "Hi there", [["break", { time: "1s" }, ""]]]],
  ],
  ["nesting at the limit", nested(maxMarkupDepth - 2), shape(nested(maxMarkupDepth - 2))],
];

const refuses: [string, string, number, RegExp][] = [
  ["an empty body", "   ", 12100, /empty/],
  ["text that is not XML", "hello", 12100, /parse failure/],
  ["unclosed elements", "<Response><Say>Hi</Response>", 12100, /parse failure/],
  ["another root", "<Say>Hi</Say>", 12100, /root element must be <Response>, got <Say>/],
  ["two roots", "<Response/><Response/>", 12100, /root element/],
  ["a DOCTYPE", '<!DOCTYPE r [<!ENTITY x "y">]><Response/>', 12100, /DOCTYPE/],
  ["nesting past the limit", nested(maxMarkupDepth + 5), 12100, /nested deeper than/],
  [
    "a document over 64 KB",
    `<Response><Say>${"a".repeat(maxMarkupBytes)}</Say></Response>`,
    12100,
    /larger than/,
  ],
];

describe("parseMarkup", () => {
  it.each(reads)("reads %s", (_name, xml, expected) => {
    expect(shape(xml)).toEqual(expected);
  });

  it.each(refuses)("refuses %s", (_name, xml, code, message) => {
    let thrown: unknown;
    try {
      parseMarkup(xml);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MarkupError);
    expect((thrown as MarkupError).code).toBe(code);
    expect((thrown as MarkupError).message).toMatch(message);
  });

  it("locates elements by line and column", () => {
    const [say] = parseMarkup("<Response>\n  <Say>Hi</Say>\n</Response>").verbs;
    expect(say!.position).toEqual({ line: 2, column: 3 });
  });
});
