// <Play>: plays an audio URL (or DTMF digits) `loop` times; the URL is recorded as heard.
import { loops } from "../attrs.js";
import type { Step, VerbEnv, Wake, WakeKind } from "../effects.js";
import type { MarkupNode } from "../parse.js";

/** Media is not downloaded: every file counts as this long. */
export const playLengthMs = 5000;
/** Each DTMF tone, and each `w`, takes half a second (Twilio's `w` pause). */
export const digitLengthMs = 500;

export function* play(node: MarkupNode, env: VerbEnv, interruptOn: WakeKind[] = []): Step<Wake | null> {
  const digits = node.attrs.digits;
  if (digits !== undefined) {
    env.heard({ kind: "digits", text: digits });
    yield { type: "wait", ms: digits.length * digitLengthMs, wake: [] };
    return null;
  }
  const url = env.resolve(node.text);
  for (let i = 0, n = loops(node); i < n; i++) {
    env.heard({ kind: "play", url });
    const wake = (yield { type: "wait", ms: playLengthMs, wake: interruptOn }) as Wake;
    if (wake.kind !== "timeout") return wake;
  }
  return null;
}
