// <Say>: speaks text (recorded as heard and as a billed text-to-speech event), `loop` times.
import { loops } from "../attrs.js";
import type { Step, VerbEnv, Wake, WakeKind } from "../effects.js";
import type { MarkupNode } from "../parse.js";
import { speechLengthMs } from "../speech-length.js";

/** Plays the prompt; returns the input that cut it short when `interruptOn` is given (Gather barge-in). */
export function* say(node: MarkupNode, env: VerbEnv, interruptOn: WakeKind[] = []): Step<Wake | null> {
  const voice = node.attrs.voice ?? "";
  const language = node.attrs.language ?? "en-US";
  const text = node.text;
  if (text === "") return null;
  env.tts(text, voice, language);
  for (let i = 0, n = loops(node); i < n; i++) {
    env.heard({ kind: "say", text, voice, language });
    const wake = (yield { type: "wait", ms: speechLengthMs(text), wake: interruptOn }) as Wake;
    if (wake.kind !== "timeout") return wake;
  }
  return null;
}
