// What verb handlers yield to the engine (time and I/O), what they get back, and what they return.
import type { Call, MachineDetectionOptions } from "../domain/call.js";
import type { MarkupNode } from "./parse.js";

export type WakeKind = "dtmf" | "speech" | "speech-start" | "speech-partial" | "signal";

/** Why a waiting verb resumed. */
export type Wake =
  | { kind: "timeout" }
  | { kind: "dtmf"; digit: string }
  | { kind: "speech"; text: string; confidence: number; startedAt: number }
  | { kind: "speech-start" }
  /** The words recognised so far while the caller is still speaking. */
  | { kind: "speech-partial"; text: string }
  | { kind: "signal"; name: string; detail: Record<string, unknown> };

export type Effect =
  /** Wait `ms` (null: no deadline) or until one of the `wake` inputs arrives. */
  | { type: "wait"; ms: number | null; wake: WakeKind[] }
  /** A request to the customer's URL; resumes with the answer. Sim time stands still meanwhile. */
  | { type: "fetch"; url: string; method: "GET" | "POST"; params: Record<string, string> };

export type Navigation =
  | { kind: "url"; url: string; method: "GET" | "POST"; params?: Record<string, string>; fallback?: boolean }
  | { kind: "twiml"; twiml: string };

export type Outcome =
  | { type: "next" }
  | { type: "navigate"; to: Navigation }
  /** `endOfDocument`: the markup ran out of verbs (a whisper document ending bridges the call). */
  | { type: "hangup"; endOfDocument?: true }
  | { type: "reject"; reason: "busy" | "rejected" };

export type VerbRun = Generator<Effect, Outcome, unknown>;
export type Step<T> = Generator<Effect, T, unknown>;

/** The call is over (hangup by a party, by the API, or TimeLimit): verbs clean up and stop. */
export class CallEnded extends Error {
  constructor(readonly reason: string) {
    super(`call ended: ${reason}`);
    this.name = "CallEnded";
  }
}

/** The API gave the call new markup (Url or Twiml on update): the running verb stops, the call moves on. */
export class Redirected extends Error {
  constructor(readonly to: Navigation) {
    super("call redirected");
    this.name = "Redirected";
  }
}

export interface HeardEntry {
  at: number;
  kind: "say" | "play" | "beep" | "digits" | "error-prompt";
  text?: string;
  url?: string;
  voice?: string;
  language?: string;
  /** Cut short (the caller interrupted, or the app's next words preempted it): how long it sounded, and the words said by then. */
  cut?: { ms: number; said: string };
}

export interface RecordingStart {
  source: "RecordVerb" | "DialVerb" | "OutboundAPI" | "Conference";
  channels: 1 | 2;
  /** Callback settings from the verb or the call. */
  statusCallback: string | null;
  statusCallbackMethod: "GET" | "POST";
  statusCallbackEvents: string[];
  transcribe?: { callback: string | null } | undefined;
  /** Silence before the first and after the last word is cut from the audio (`<Record trim="trim-silence">`). */
  trim?: boolean | undefined;
  /** The other leg whose speech fills channel 2 (Dial recordings). */
  otherLegSid?: string | undefined;
}

export interface RecordingHandle {
  sid: string;
  startedAt: number;
}

export interface DialTarget {
  kind: "number" | "client" | "sip" | "extension" | "ring-group";
  /** What the child leg's To is. */
  to: string;
  statusCallback: string | null;
  statusCallbackMethod: "GET" | "POST";
  statusCallbackEvents: string[];
  /** Agent extension or ring group this target stands for. */
  agentStatus?: string | undefined;
  failed?: boolean | undefined;
  /** Whisper: markup run on the answered leg before the bridge (the noun's `url` and `method`). */
  whisper?: { url: string; method: "GET" | "POST" } | undefined;
  /** DTMF played to the called party once it answers (`sendDigits`; `w` waits 0.5 s). */
  sendDigits?: string | undefined;
  /** A `<Number machineDetection>`: detection on the answered leg, its result posted to `amdStatusCallback`. */
  machineDetection?: { mode: "Enable" | "DetectMessageEnd"; options: MachineDetectionOptions } | undefined;
}

/** A media stream asked for by `<Connect><Stream>` or `<Start><Stream>` (its noun's attributes, resolved). */
export interface StreamSpec {
  /** Absolute `ws:`/`wss:` URL (relative URLs already resolved against the document). */
  url: string;
  name: string | null;
  track: "inbound_track" | "outbound_track" | "both_tracks";
  statusCallback: string | null;
  statusCallbackMethod: "GET" | "POST";
  /** `<Parameter name value>` nouns: the start message's customParameters. */
  parameters: Record<string, string>;
  /** `<Connect>`: the app's audio plays to the caller, and marks and clear work. */
  bidirectional: boolean;
}

/** A running stream, as the verb that opened it sees it. */
export interface StreamControl {
  readonly sid: string;
  /** The socket closed (or never opened): a `signal` wake named "stream" told the verb. */
  ended(): boolean;
  /** The caller pressed a key: a `dtmf` message goes to the app. */
  dtmf(digit: string): void;
  /** Sends `stop` and closes the socket (the call ended or moved on). */
  stop(): void;
}

/** Which caller input may do something while the agent talks (`interruptible`, `reportInputDuringAgentSpeech`). */
export interface RelayInputs {
  speech: boolean;
  dtmf: boolean;
}

/** A nested `<Language code ...>`: the providers and voice used while the session speaks or listens in it. */
export interface RelayLanguage {
  ttsProvider?: string;
  voice?: string;
  transcriptionProvider?: string;
  speechModel?: string;
}

/** A `<Connect><ConversationRelay>` session as its noun asks for it. */
export interface RelaySpec {
  /** Absolute `ws:`/`wss:` URL (relative URLs already resolved against the document). */
  url: string;
  welcomeGreeting: string | null;
  welcomeGreetingInterruptible: RelayInputs;
  /** What cuts the agent's speech: the caller's speech, keys, both (any) or neither (none). */
  interruptible: RelayInputs;
  /** Input while the agent talks and may not be cut: still reported to the app (default none). */
  reportInputDuringAgentSpeech: RelayInputs;
  /** The app's next utterance (or play) cuts the one playing (default false; a message may say otherwise). */
  preemptible: boolean;
  dtmfDetection: boolean;
  ttsLanguage: string;
  transcriptionLanguage: string;
  /** "" when the noun names none: Twilio's default provider (see relay-voices.ts). */
  ttsProvider: string;
  /** "" when the noun names none: the provider's default voice. */
  voice: string;
  /** "" when the noun names none: Twilio's default provider. */
  transcriptionProvider: string;
  /** "" when the noun names none: the provider's default model. */
  speechModel: string;
  hints: string[];
  /** Nested `<Language>` settings by code. */
  languages: Record<string, RelayLanguage>;
  parameters: Record<string, string>;
}

/** How a ConversationRelay session ended: what the Connect action is told. */
export interface RelayResult {
  /** ended: the app sent `end`; completed: the socket closed; failed: it never worked. */
  status: "completed" | "ended" | "failed";
  durationSeconds: number;
  handoffData: string | null;
  errorCode?: number;
  errorMessage?: string;
}

/** A running ConversationRelay session, as the verb sees it. */
export interface RelayControl {
  readonly sessionId: string;
  /** Over: a `signal` wake named "relay" told the verb. */
  ended(): boolean;
  result(): RelayResult;
  /** The caller finished saying something: a `prompt` goes to the app. */
  prompt(text: string): void;
  /** The caller started speaking: the agent is interrupted if it may be. */
  speechStarted(): void;
  dtmf(digit: string): void;
  /** Closes the socket (the call ended or moved on). */
  stop(): void;
}

/** Everything a verb may do synchronously to the call; time and I/O go through yielded effects. */
export interface VerbEnv {
  readonly callSid: string;
  call(): Call;
  now(): number;
  /** URL of the document the verb came from (relative URLs resolve against it). */
  readonly documentUrl: string | null;
  resolve(url: string): string;
  /** Standard voice parameters for an action request, with the call's current status. */
  actionParams(extra: Record<string, string>): Record<string, string>;
  timeline(kind: string, detail?: Record<string, unknown>): void;
  heard(entry: Omit<HeardEntry, "at">): void;
  /** What the party heard last stopped `ms` after it began, `said` its words by then (an interrupted reply). */
  cutHeard(ms: number, said: string): void;
  /** Records a text-to-speech event (billed per character). */
  tts(text: string, voice: string, language: string): void;
  /** A verb began: the party's reactive steps for it are armed. */
  verbStarted(node: MarkupNode): void;
  /** A Gather or Record is listening: the party's next untimed step is played into it. */
  listening(verb: "Gather" | "Record" | "Connect"): void;
  /** A `<Connect>` app started playing to the caller (the party's steps waiting for the agent to talk are armed). */
  talking(): void;
  /** Inbound calls are answered when their first verb other than Reject starts. */
  answer(): void;
  alert(code: number, message: string, level?: "error" | "warning"): void;
  startRecording(start: RecordingStart): RecordingHandle;
  /** Ends a recording at `endAt`, the instant it stops (a trimmed recording's audio then loses its silent ends). */
  finishRecording(handle: RecordingHandle, endAt: number): { sid: string; duration: number; url: string };
  discardRecording(handle: RecordingHandle): void;
  /** Starts child legs for a Dial; their progress arrives as `signal` wakes named "leg". */
  startLegs(targets: DialTarget[], options: LegOptions): string[];
  /** Posts an interim speech result to a Gather's partialResultCallback (queued, in order, its answer unused). */
  partialResult(url: string, method: "GET" | "POST", params: Record<string, string>): void;
  /**
   * Sends a text message during the call (`<Sms>`): created and started; its sid, and `failed` when the
   * account's wallet could not cover it (the message is stored failed).
   */
  sendSms(input: {
    to: string;
    from: string;
    body: string;
    statusCallback: string | null;
    statusCallbackMethod: "GET" | "POST";
  }): { sid: string; status: "sending" | "failed" };
  /**
   * Opens a media stream to the app's WebSocket; a bidirectional stream's end arrives as a `signal` wake
   * named "stream". Null when the call already runs the most unidirectional streams it may.
   */
  openStream(spec: StreamSpec): StreamControl | null;
  /** Opens a ConversationRelay session; its end arrives as a `signal` wake named "relay". */
  openRelay(spec: RelaySpec): RelayControl;
  /** `<Stop><Stream>`: stops the call's unidirectional stream of that name (every one when null); false if none. */
  stopStreams(name: string | null): boolean;
  /** Ends a child leg: cancel while ringing, hang up once answered. */
  endLeg(sid: string): void;
  /** Connects the parent with an answered child leg (its script starts). */
  bridge(childSid: string): void;
  accountExtension(extension: string): DialTarget | null;
  ringGroup(
    name: string,
  ): { strategy: "simultaneous" | "sequential"; ringTimeout: number; targets: DialTarget[] } | null;
  /** This call's side of conferences (`<Dial><Conference>`); changes arrive as `signal` wakes named "conference". */
  readonly conference: ConferenceHost;
  /** This call's side of queues (`<Enqueue>`, `<Dial><Queue>`); changes arrive as `signal` wakes named "queue". */
  readonly queue: QueueHost;
}

export interface ConferenceJoin {
  name: string;
  /** participantLabel: names the participant in the API instead of its CallSid. */
  label: string | null;
  muted: boolean;
  beep: "true" | "false" | "onEnter" | "onExit";
  startConferenceOnEnter: boolean;
  endConferenceOnExit: boolean;
  maxParticipants: number;
  record: boolean;
  statusCallback: string | null;
  statusCallbackMethod: "GET" | "POST";
  statusCallbackEvents: string[];
  recordingStatusCallback: string | null;
  recordingStatusCallbackMethod: "GET" | "POST";
  recordingStatusCallbackEvents: string[];
  /** `coach`: the call this participant coaches (only it hears the coach); it must be live in the room. */
  coach?: string | null | undefined;
}

export interface ConferenceHost {
  /**
   * Joins (creating the conference if none runs under that name); `full` at maxParticipants; `invalidCoach`
   * when `coach` names no call in the room while it is in progress (Twilio's 13240).
   */
  join(input: ConferenceJoin): { conferenceSid: string } | { full: true } | { invalidCoach: string };
  /** waiting: joined, not started; live: in progress; out: released (ended) or kicked. */
  state(): "waiting" | "live" | "out";
  /** Put on hold through the API: the caller hears hold music instead of the room. */
  held(): boolean;
  /** The call leaves on its own: it hung up, the API redirected it, or its Dial moved on (the default). */
  leave(reason?: "hung-up" | "redirected" | "left"): void;
  /** The next announcement this caller is to hear, once it can: null when there is none (or it waits for the fetch). */
  announcement(): Announcement | null;
  /** This caller fetched the announcement (`document` null in it): its verbs, or null when the fetch failed. */
  announced(verbs: MarkupNode[] | null): void;
  /** This caller has heard the announcement (or it failed). */
  announcementDone(): void;
}

/** An AnnounceUrl for the room or one participant: one caller fetches it (`document` null), the others play its verbs. */
export interface Announcement {
  url: string;
  method: "GET" | "POST";
  document: MarkupNode[] | null;
}

export type QueueCallerState =
  | { kind: "waiting" }
  /** An agent took the caller: run `url` (if any) on the caller, then call `ready()`. */
  | { kind: "taken"; url: string | null; method: "GET" | "POST"; agentSid: string }
  | { kind: "bridged" }
  /** The bridge is over (the agent hung up), or the caller left the line by the API. */
  | { kind: "ended" }
  | { kind: "out" };

export interface QueueHost {
  /** Joins the back of the account's queue of that name (created with default MaxSize if new). */
  enqueue(name: string): { queueSid: string; full: boolean };
  /** QueuePosition, QueueSid, QueueTime, AvgQueueTime, CurrentQueueSize, MaxQueueSize for the wait markup. */
  waitParams(): Record<string, string>;
  callerState(): QueueCallerState;
  /** Seconds this call has spent in the queue so far (or spent, once out). */
  queueTime(): number;
  /** Leaves the line (Leave, hangup, redirect, error); no-op when not in it. */
  leave(): void;
  /** The dequeued caller is ready: the bridge starts. */
  ready(): void;
  /**
   * Agent side: takes the front caller of the named queue, or waits for the next one when it is empty
   * (`waiting`); null when the account has no queue of that name.
   */
  take(name: string, url: string | null, method: "GET" | "POST"): { queueSid: string } | null;
  /** Agent side: waiting (empty queue), connecting (the caller runs its url), bridged, or ended. */
  agentState(): "waiting" | "connecting" | "bridged" | "ended";
  /** Agent side: the caller taken, once there is one. */
  partner(): string | null;
  /** Agent side: stops waiting, or ends the bridge (timeLimit, hangupOnStar): the caller moves on with QueueResult=bridged. */
  release(): void;
}

export interface LegOptions {
  callerId: string | null;
  timeout: number;
  timeLimit: number;
}
