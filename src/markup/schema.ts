// Which verbs and nouns exist, what may nest where, and attribute checks: a document is validated before it runs.
import { MarkupError, type MarkupNode } from "./parse.js";

const ssml = [
  "break",
  "emphasis",
  "lang",
  "p",
  "phoneme",
  "prosody",
  "s",
  "say-as",
  "sub",
  "w",
  "amazon:effect",
];

/** What <Connect> may hold; Stream and ConversationRelay are emulated, the others are skipped with a warning. */
const connectNouns = ["Stream", "ConversationRelay", "Room", "VirtualAgent", "Conversation", "Assistant"];

/** What <Start> and <Stop> may hold; only Stream is emulated, the others are skipped with a warning. */
const forkNouns = ["Stream", "Recording", "Siprec", "Transcription"];

/** Verbs the engine runs, with the children each accepts. */
export const voiceVerbs: Record<string, string[]> = {
  Say: ssml,
  Play: [],
  Pause: [],
  Gather: ["Say", "Play", "Pause"],
  Record: [],
  Dial: ["Number", "Client", "Sip", "Conference", "Queue"],
  Hangup: [],
  Redirect: [],
  Reject: [],
  Enqueue: ["Task"],
  Leave: [],
  Sms: [],
  Connect: connectNouns,
  Start: forkNouns,
  Stop: forkNouns,
};

/** Valid Twilio verbs the sandbox does not emulate: skipped with a warning, never pretended. */
export const unemulatedVerbs = ["Pay", "Prompt", "Refer", "Echo"];

const nounChildren: Record<string, string[]> = {
  Number: [],
  Client: ["Identity", "Parameter"],
  Sip: [],
  Conference: [],
  Queue: [],
  Task: [],
  Identity: [],
  Parameter: [],
  Stream: ["Parameter"],
  ConversationRelay: ["Language", "Parameter"],
  Language: [],
  Room: ["Parameter"],
  VirtualAgent: ["Config", "Parameter"],
  Config: [],
  Conversation: [],
  Assistant: ["Language", "Parameter"],
  Recording: [],
  Siprec: ["Parameter"],
  Transcription: ["Config", "Parameter"],
};

/** The tuning attributes of `<Number>` and `<Sip>` machine detection. */
const machineDetectionInts = [
  "machineDetectionTimeout",
  "machineDetectionSpeechThreshold",
  "machineDetectionSpeechEndThreshold",
  "machineDetectionSilenceTimeout",
];

const integerAttrs: Record<string, string[]> = {
  Say: ["loop"],
  Play: ["loop"],
  Pause: ["length"],
  Gather: ["timeout", "numDigits", "maxSpeechTime"],
  Record: ["timeout", "maxLength"],
  Dial: ["timeout", "timeLimit"],
  Conference: ["maxParticipants"],
  Number: machineDetectionInts,
  Sip: machineDetectionInts,
};

const enumAttrs: Record<string, Record<string, RegExp>> = {
  Gather: { input: /^(dtmf|speech)( (dtmf|speech))?$/, finishOnKey: /^[0-9*#]?$/ },
  Record: { playBeep: /^(true|false)$/, transcribe: /^(true|false)$/, finishOnKey: /^[0-9*#]*$/ },
  Dial: {
    record:
      /^(do-not-record|record-from-answer|record-from-ringing|record-from-answer-dual|record-from-ringing-dual|true|false)$/,
    hangupOnStar: /^(true|false)$/,
  },
  Reject: { reason: /^(rejected|busy)$/ },
  Stream: { track: /^(inbound_track|outbound_track|both_tracks)$/ },
  Number: { machineDetection: /^(Enable|DetectMessageEnd)$/ },
  Sip: { machineDetection: /^(Enable|DetectMessageEnd)$/ },
  Conference: {
    beep: /^(true|false|onEnter|onExit)$/,
    muted: /^(true|false)$/,
    startConferenceOnEnter: /^(true|false)$/,
    endConferenceOnExit: /^(true|false)$/,
    record: /^(do-not-record|record-from-start)$/,
  },
};

const methodAttrs = [
  "method",
  "statusCallbackMethod",
  "recordingStatusCallbackMethod",
  "waitMethod",
  "waitUrlMethod",
  "amdStatusCallbackMethod",
];

function fail(node: MarkupNode, message: string): never {
  throw new MarkupError(12200, `Schema validation warning: ${message}`, node.position);
}

function checkNode(node: MarkupNode, allowed: string[], parent: string): void {
  for (const attr of methodAttrs) {
    const value = node.attrs[attr];
    if (value !== undefined && !/^(GET|POST)$/i.test(value)) {
      fail(node, `<${node.name}> ${attr}="${value}" must be GET or POST`);
    }
  }
  for (const attr of integerAttrs[node.name] ?? []) {
    const value = node.attrs[attr];
    if (value !== undefined && !/^\d+$/.test(value) && !(node.name === "Gather" && value === "auto")) {
      fail(node, `<${node.name}> ${attr}="${value}" must be a whole number`);
    }
  }
  for (const [attr, pattern] of Object.entries(enumAttrs[node.name] ?? {})) {
    const value = node.attrs[attr];
    if (value !== undefined && !pattern.test(value))
      fail(node, `<${node.name}> ${attr}="${value}" is not valid`);
  }
  for (const child of node.children) {
    if (!allowed.includes(child.name)) {
      fail(child, `<${child.name}> is not allowed inside <${parent}>`);
    }
    const grandchildren =
      voiceVerbs[child.name] ?? nounChildren[child.name] ?? (ssml.includes(child.name) ? ssml : []);
    checkNode(child, grandchildren, child.name);
  }
}

/** Throws MarkupError 12200 for unknown verbs, bad nesting or bad attribute values (Twilio's schema check). */
export function validateVoiceDocument(verbs: MarkupNode[]): void {
  for (const verb of verbs) {
    if (unemulatedVerbs.includes(verb.name)) continue;
    const allowed = voiceVerbs[verb.name];
    if (!allowed) fail(verb, `<${verb.name}> is not a valid verb inside <Response>`);
    if (verb.name === "Redirect" && verb.text === "") fail(verb, "<Redirect> needs a URL");
    if (verb.name === "Play" && verb.text === "" && verb.attrs.digits === undefined) {
      fail(verb, "<Play> needs a URL or digits");
    }
    if (verb.name === "Connect" && verb.children.length !== 1) fail(verb, "<Connect> needs exactly one noun");
    for (const noun of verb.name === "Connect" || verb.name === "Start" ? verb.children : []) {
      if ((noun.name === "Stream" || noun.name === "ConversationRelay") && !noun.attrs.url) {
        fail(noun, `<${noun.name}> needs a url`);
      }
    }
    checkNode(verb, allowed, verb.name);
  }
}
