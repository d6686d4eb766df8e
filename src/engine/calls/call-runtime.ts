// What the engine keeps about a live call outside the store: its program, waits, party script and observations.
import type { HeardEntry, Wake, WakeKind } from "../../markup/effects.js";
import type { RecordingPause } from "../recordings/recording-window.js";
import type { Utterance } from "../speech/utterance.js";
import type { EventHandle } from "../time/scheduler.js";
import type { PartyBehaviour, PartyStep } from "./party-behaviour.js";

export interface TimelineEntry {
  /** Clock time (ms since the epoch). */
  at: number;
  kind: string;
  detail: Record<string, unknown>;
}

/** Audio an app played to the party over a bidirectional stream: mu-law, 8 bytes a millisecond, from `start`. */
export interface PlayedAudio {
  start: number;
  end: number;
  chunks: Uint8Array[];
}

export interface ActiveRecording {
  sid: string;
  startedAt: number;
  channels: 1 | 2;
  /**
   * The leg it hears on its second channel (the runtime itself, not its sid: that leg may finish, and its
   * runtime be dropped from the registry, while this recording still runs).
   */
  otherLeg: CallRuntime | null;
  transcribe: { callback: string | null } | null;
  /** Whether the account API may pause, resume and stop it (not a Record verb's). */
  controllable: boolean;
  /** Which side it hears: this leg's party (inbound), the other leg (outbound), or both. */
  track: "inbound" | "outbound" | "both";
  trim: boolean;
  pauses: RecordingPause[];
}

export interface CallRuntime {
  sid: string;
  /** SequenceNumber of the next status callback. */
  sequence: number;
  timeline: TimelineEntry[];
  heard: HeardEntry[];
  /** The simulated party on the far end (callee outbound, caller inbound). */
  behaviour: PartyBehaviour;
  /** False when the party has no script at all: then default speech fills recordings. */
  scripted: boolean;
  untimed: PartyStep[];
  /**
   * An untimed step scheduled when a `<Connect>` agent went quiet; if the agent talks again before it is
   * due, it goes back to the head of `untimed` (the caller waits for the agent to stop talking).
   */
  pendingListen: { step: PartyStep } | null;
  /** A `<Connect>` app (stream or relay) is playing something to the caller now. */
  agentTalking: boolean;
  /** The call's `<Connect>` app's words are known (a relay, or a stream with a transcriber): `said` cues wait for them. */
  agentWords: boolean;
  /** A caller that is a function (`respond`): what the agent said since it was last asked, and how often it was. */
  agentSaid: string;
  responds: number;
  verbCounts: Map<string, number>;
  /** Timers to drop when the call ends (ringing, ring timeout, party steps, time limit). */
  timers: EventHandle[];
  program: Generator<unknown, unknown, unknown> | null;
  waiting: { wake: WakeKind[]; timer: EventHandle | null } | null;
  /** A markup request out on the real clock: its token (a later answer with another token is ignored). */
  fetching: number | null;
  /** A redirect that arrived while a request was out: the program gets it instead of the answer. */
  pendingInterrupt: Error | null;
  pendingSignals: Wake[];
  /** What this leg's party said. */
  speech: Utterance[];
  /** What an app played to this leg's party on a media stream (recordings hear it as the other side). */
  played: PlayedAudio[];
  playedBytes: number;
  /** What the party said live (a browser phone's microphone): the caller's channel of streams and recordings. */
  mic: PlayedAudio[];
  micBytes: number;
  recordings: Map<string, ActiveRecording>;
  children: string[];
  bridgedWith: string | null;
  /** A Dial leg's whisper markup (the noun's url), run once it answers; null once it has run. */
  whisper: { url: string; method: "GET" | "POST" } | null;
  /** The final SIP response the party gave to the INVITE (its script's, or 603 for a decline); null: from the status. */
  sipResponseCode: number | null;
  /** Terminal effects have run (or are scheduled). */
  finishing: boolean;
}

export function createRuntime(sid: string, behaviour: PartyBehaviour, scripted: boolean): CallRuntime {
  return {
    sid,
    sequence: 0,
    timeline: [],
    heard: [],
    behaviour,
    scripted,
    untimed: behaviour.steps.filter((s) => s.at === undefined && s.on === undefined),
    pendingListen: null,
    agentTalking: false,
    agentWords: false,
    agentSaid: "",
    responds: 0,
    verbCounts: new Map(),
    timers: [],
    program: null,
    waiting: null,
    fetching: null,
    pendingInterrupt: null,
    pendingSignals: [],
    speech: [],
    played: [],
    playedBytes: 0,
    mic: [],
    micBytes: 0,
    recordings: new Map(),
    children: [],
    bridgedWith: null,
    whisper: null,
    sipResponseCode: null,
    finishing: false,
  };
}
