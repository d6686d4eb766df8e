// Reads a <Stream> noun (in <Connect> or <Start>) into what the engine opens: URL, name, track, callback, parameters.
import { methodAttr } from "./attrs.js";
import type { StreamSpec, VerbEnv } from "./effects.js";
import type { MarkupNode } from "./parse.js";

export function readStreamNoun(noun: MarkupNode, env: VerbEnv, bidirectional: boolean): StreamSpec {
  const parameters: Record<string, string> = {};
  for (const child of noun.children) {
    if (child.name === "Parameter" && child.attrs.name !== undefined) {
      parameters[child.attrs.name] = child.attrs.value ?? "";
    }
  }
  const track = noun.attrs.track;
  return {
    url: env.resolve(noun.attrs.url ?? ""),
    name: noun.attrs.name ?? null,
    // A bidirectional stream carries the inbound track only (Twilio).
    track:
      !bidirectional && (track === "outbound_track" || track === "both_tracks") ? track : "inbound_track",
    statusCallback: noun.attrs.statusCallback ? env.resolve(noun.attrs.statusCallback) : null,
    statusCallbackMethod: methodAttr(noun, "statusCallbackMethod"),
    parameters,
    bidirectional,
  };
}
