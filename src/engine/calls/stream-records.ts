// The streams part's face: the Stream subresource record a call's streams keep, and what the part offers the engine.
import type { RelayControl, RelaySpec, StreamControl, StreamSpec } from "../../markup/effects.js";
import type { PlaybackGauge } from "../media-streams/stream-budget.js";
import type { CallRuntime } from "./call-runtime.js";

/** A Stream subresource (`/Calls/{CallSid}/Streams/{Sid}`): what the account API shows of a stream. */
export interface StreamRecord {
  sid: string;
  account_sid: string;
  call_sid: string;
  name: string | null;
  status: "in-progress" | "stopped";
  updated_at: number;
}

/** Twilio allows four unidirectional streams at once on a call. */
export const maxStreamsPerCall = 4;
export interface StreamsPart {
  /** Opens a ConversationRelay session for the call's `<Connect>`. */
  openRelay(rt: CallRuntime, spec: RelaySpec): RelayControl;
  /** Opens a stream for the call's markup (`<Connect>` or `<Start>`); null when the call has four already. */
  open(rt: CallRuntime, spec: StreamSpec): StreamControl | null;
  /** The account API's `Streams` create: a unidirectional stream on a live call. */
  startFromApi(callSid: string, spec: StreamSpec): StreamRecord;
  /** Stops a unidirectional stream by sid or name; undefined when the call has none of that sid or name. */
  stop(callSid: string, sidOrName: string): StreamRecord | undefined;
  /** `<Stop><Stream/>` without a name: every unidirectional stream of the call stops. */
  stopAll(callSid: string): void;
  /** The call is over: every stream still open sends `stop` and closes; the records go. */
  callEnded(callSid: string): void;
  /** What every bidirectional stream's playback queue holds together, against the budget. */
  queued(): PlaybackGauge;
  /**
   * The call's conversation with its `<Connect>` apps as a two-channel WAV (the caller left, the agent right);
   * undefined for a call that had none, or whose conversation is no longer kept.
   */
  conversationAudio(callSid: string): Promise<Uint8Array | undefined>;
  /** Real ms the virtual clock waits for a `<Connect>` app that owes the call an answer (agentTurnTimeout). */
  readonly agentTurnTimeout: { get(): number; set(ms: number): void };
  /**
   * Real ms the sandbox waited for the answer to each of the call's turns (index: turn number - 1), on the
   * virtual clock; null where it did not wait or no answer came. Apart from the timeline: it differs run to run.
   */
  agentWaits(callSid: string): (number | null)[];
  /** Drops every socket at once (sandbox reset). */
  reset(): void;
}
