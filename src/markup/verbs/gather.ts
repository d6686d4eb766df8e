// <Gather>: plays its nested prompts (cut short by input), then collects digits or speech and posts them to `action`.
import { boolAttr, intAttr, listAttr, methodAttr } from "../attrs.js";
import type { Outcome, VerbEnv, VerbRun, Wake, WakeKind } from "../effects.js";
import type { MarkupNode } from "../parse.js";
import { pause } from "./pause.js";
import { play } from "./play.js";
import { say } from "./say.js";

export function* gather(node: MarkupNode, env: VerbEnv): VerbRun {
  const inputs = listAttr(node, "input", ["dtmf"]);
  const dtmf = inputs.includes("dtmf");
  const speech = inputs.includes("speech");
  const timeoutMs = intAttr(node, "timeout", 5) * 1000;
  const numDigits = intAttr(node, "numDigits", 0);
  // An empty finishOnKey turns the finish key off (Twilio); the default is #.
  const finishOnKey = node.attrs.finishOnKey ?? "#";
  const partialUrl = speech && node.attrs.partialResultCallback;
  const partialMethod = node.attrs.partialResultCallbackMethod?.toUpperCase() === "GET" ? "GET" : "POST";
  const wake: WakeKind[] = [
    ...(dtmf ? (["dtmf"] as const) : []),
    ...(speech ? (["speech", "speech-start"] as const) : []),
    ...(partialUrl ? (["speech-partial"] as const) : []),
  ];
  let partials = 0;

  let first: Wake | null = null;
  for (const child of node.children) {
    env.verbStarted(child);
    const run = child.name === "Say" ? say : child.name === "Play" ? play : pause;
    first = yield* run(child, env, wake);
    if (first) break;
  }
  env.listening("Gather");

  let digits = "";
  let finishedOnKey = "";
  let speechResult: { text: string; confidence: number } | null = null;
  let speaking = false;
  for (;;) {
    const input: Wake = first ?? ((yield { type: "wait", ms: speaking ? null : timeoutMs, wake }) as Wake);
    first = null;
    if (input.kind === "timeout") break;
    if (input.kind === "speech-start") {
      speaking = true;
      continue;
    }
    if (input.kind === "speech-partial") {
      // Every word heard so far is the unstable hypothesis; all but the newest word have settled.
      const words = input.text.split(" ");
      env.partialResult(env.resolve(partialUrl as string), partialMethod, {
        SequenceNumber: String(++partials),
        UnstableSpeechResult: input.text,
        StableSpeechResult: words.slice(0, -1).join(" "),
      });
      continue;
    }
    if (input.kind === "speech") {
      speechResult = { text: input.text, confidence: input.confidence };
      break;
    }
    if (input.kind === "dtmf") {
      if (finishOnKey !== "" && input.digit === finishOnKey) {
        finishedOnKey = input.digit;
        break;
      }
      digits += input.digit;
      if (numDigits > 0 && digits.length >= numDigits) break;
    }
  }
  env.timeline("gather.result", { digits, finishedOnKey, speech: speechResult?.text ?? null });

  const empty = digits === "" && speechResult === null;
  if (empty && !boolAttr(node, "actionOnEmptyResult", false)) return { type: "next" };
  const params: Record<string, string> = speechResult
    ? { SpeechResult: speechResult.text, Confidence: speechResult.confidence.toFixed(8) }
    : { msg: "Gather End", Digits: digits, FinishedOnKey: finishedOnKey };
  const url = node.attrs.action ? env.resolve(node.attrs.action) : env.documentUrl;
  if (!url) return { type: "next" };
  const outcome: Outcome = {
    type: "navigate",
    to: { kind: "url", url, method: methodAttr(node), params },
  };
  return outcome;
}
