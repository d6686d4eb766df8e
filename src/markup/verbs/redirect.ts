// <Redirect>: continue with the markup at another URL (relative to the current document).
import { methodAttr } from "../attrs.js";
import type { Outcome, VerbEnv } from "../effects.js";
import type { MarkupNode } from "../parse.js";

export function redirect(node: MarkupNode, env: VerbEnv): Outcome {
  return { type: "navigate", to: { kind: "url", url: env.resolve(node.text), method: methodAttr(node) } };
}
