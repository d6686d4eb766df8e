// <Record>: beep, record the caller until a finish key, silence, maxLength or hangup; post the recording to `action`.
import { boolAttr, intAttr, listAttr, methodAttr } from "../attrs.js";
import { CallEnded, type VerbEnv, type VerbRun, type Wake } from "../effects.js";
import type { MarkupNode } from "../parse.js";

export function* record(node: MarkupNode, env: VerbEnv): VerbRun {
  // Twilio: "To disable this feature, set timeout to 0" (silence then never ends the recording).
  const timeoutMs = intAttr(node, "timeout", 5) * 1000;
  const maxLengthMs = intAttr(node, "maxLength", 3600) * 1000;
  const finishOnKey = node.attrs.finishOnKey ?? "1234567890*#";
  const transcribe = boolAttr(node, "transcribe", false);
  const trim = trimAttr(node, env);
  if (boolAttr(node, "playBeep", true)) env.heard({ kind: "beep" });

  const handle = env.startRecording({
    source: "RecordVerb",
    channels: 1,
    statusCallback: node.attrs.recordingStatusCallback
      ? env.resolve(node.attrs.recordingStatusCallback)
      : null,
    statusCallbackMethod: methodAttr(node, "recordingStatusCallbackMethod"),
    statusCallbackEvents: listAttr(node, "recordingStatusCallbackEvent", ["completed"]),
    trim,
    transcribe: transcribe
      ? { callback: node.attrs.transcribeCallback ? env.resolve(node.attrs.transcribeCallback) : null }
      : undefined,
  });
  env.listening("Record");
  const deadline = handle.startedAt + maxLengthMs;
  let speaking = false;
  let lastSpeechEnd: number | null = null;
  let digits: string | null = null;
  const action = node.attrs.action ? env.resolve(node.attrs.action) : env.documentUrl;
  const method = methodAttr(node);

  try {
    for (;;) {
      const left = deadline - env.now();
      if (left <= 0) break;
      const ms = speaking || timeoutMs === 0 ? left : Math.min(timeoutMs, left);
      const input = (yield { type: "wait", ms, wake: ["dtmf", "speech", "speech-start"] }) as Wake;
      if (input.kind === "timeout") break;
      if (input.kind === "speech-start") speaking = true;
      if (input.kind === "speech") {
        speaking = false;
        lastSpeechEnd = env.now();
      }
      if (input.kind === "dtmf" && finishOnKey.includes(input.digit)) {
        digits = input.digit;
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof CallEnded)) throw error;
    // Hangup during Record: the recording is kept and the action still gets it, with Digits=hangup;
    // whatever markup it answers is ignored because the call is over.
    const heardSpeech = lastSpeechEnd !== null || speaking;
    if (!heardSpeech) {
      env.discardRecording(handle);
      throw error;
    }
    const saved = env.finishRecording(handle, env.now());
    if (action) {
      yield {
        type: "fetch",
        url: action,
        method,
        params: env.actionParams({
          Digits: "hangup",
          RecordingDuration: String(saved.duration),
          RecordingSid: saved.sid,
          RecordingUrl: saved.url,
        }),
      };
    }
    throw error;
  }

  // Nothing said: Twilio makes no action request and goes on with the next verb.
  if (lastSpeechEnd === null && !speaking) {
    env.discardRecording(handle);
    env.timeline("record.empty");
    return { type: "next" };
  }
  // The audio runs to now: the silence that ended it too, which trim-silence then cuts with the leading silence.
  const saved = env.finishRecording(handle, env.now());
  if (!action) return { type: "next" };
  const params: Record<string, string> = {
    RecordingDuration: String(saved.duration),
    RecordingSid: saved.sid,
    RecordingUrl: saved.url,
  };
  if (digits !== null) params.Digits = digits;
  return { type: "navigate", to: { kind: "url", url: action, method, params } };
}

/**
 * Twilio: `trim-silence` (the default) "removes any silence at the beginning and end of your recording",
 * `do-not-trim` keeps it. Another value is warning 13699 ("Record: Invalid trim value"), and no trim.
 */
function trimAttr(node: MarkupNode, env: VerbEnv): boolean {
  const value = node.attrs.trim ?? "trim-silence";
  if (value === "trim-silence") return true;
  if (value !== "do-not-trim") {
    env.alert(13699, `Record: Invalid trim value "${value}"; the recording is not trimmed`, "warning");
  }
  return false;
}
