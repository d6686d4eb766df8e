// Checks the markup a scenario writes inline when the file loads: a document the engine could not read is the file's error.
import { MarkupError, parseMarkup } from "../markup/parse.js";
import { validateVoiceDocument } from "../markup/schema.js";
import { inlineAppProblems } from "./apps.js";
import { callPlaceholderProblems } from "./name-checks.js";
import type { ReferenceProblem } from "./references.js";
import type { Scenario } from "./schema.js";

type Kind = "voice" | "sms" | "either";

/**
 * Why this document would fail on the service (12100 parse, 12102 root, 12200 schema), or why a WebSocket
 * app it names could not be reached; empty when it is fine.
 */
function markupProblems(markup: string, kind: Kind, scenario: Scenario): string[] {
  try {
    const document = parseMarkup(markup);
    // A handler may answer a call or a message: a document with <Message> is read as messaging markup.
    const messaging =
      kind === "sms" || (kind === "either" && document.verbs.some((v) => v.name === "Message"));
    if (!messaging) validateVoiceDocument(document.verbs);
    return [
      ...inlineAppProblems(markup, document.verbs, scenario),
      ...callPlaceholderProblems(scenario, markup),
    ];
  } catch (error) {
    if (!(error instanceof MarkupError)) throw error;
    return [
      `markup error ${error.code}: ${error.message} (as the service would answer it, the call would raise alert ${error.code}; to test that on purpose, serve it as a handler body with content_type: text/xml)`,
    ];
  }
}

export function checkInlineMarkup(scenario: Scenario): ReferenceProblem[] {
  const problems: ReferenceProblem[] = [];
  const check = (path: (string | number)[], markup: string | undefined, kind: Kind) => {
    if (markup === undefined) return;
    for (const message of markupProblems(markup, kind, scenario)) problems.push({ path, message });
  };
  scenario.numbers.forEach((n, i) => {
    check(["numbers", i, "voice"], n.voice, "voice");
    check(["numbers", i, "sms"], n.sms, "sms");
  });
  for (const [path, handler] of Object.entries(scenario.handlers)) {
    if (typeof handler === "string") check(["handlers", path], handler, "either");
    else
      handler.forEach((answer, j) => {
        check(["handlers", path, j, "markup"], answer.markup, "either");
      });
  }
  scenario.steps.forEach((step, i) => {
    check(["steps", i, "place_call", "twiml"], step.place_call?.twiml, "voice");
  });
  return problems;
}
