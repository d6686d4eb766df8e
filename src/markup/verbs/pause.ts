// <Pause>: silence for `length` seconds (default 1).
import { intAttr } from "../attrs.js";
import type { Step, VerbEnv, Wake, WakeKind } from "../effects.js";
import type { MarkupNode } from "../parse.js";

export function* pause(node: MarkupNode, _env: VerbEnv, interruptOn: WakeKind[] = []): Step<Wake | null> {
  const wake = (yield { type: "wait", ms: intAttr(node, "length", 1) * 1000, wake: interruptOn }) as Wake;
  return wake.kind === "timeout" ? null : wake;
}
