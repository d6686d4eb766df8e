// What an injected fault is: the kinds, their limits, and the registry that holds them.

/** Outcomes a number fault forces on a call to or from that number. */
export const numberFaultOutcomes = ["busy", "no-answer", "fail"] as const;
export type NumberFaultOutcome = (typeof numberFaultOutcomes)[number];

interface FaultLimits {
  /** Requests (or events) left before the fault is spent; absent means no limit. */
  remaining?: number;
  /** Sandbox-clock time (ms) when the fault stops applying; absent means no limit. */
  until?: number;
}

export interface HttpFault extends FaultLimits {
  id: string;
  kind: "http";
  /** Upper-case method, or absent for any method. */
  method?: string;
  /** Path glob: `*` matches any run of characters, `/` included. */
  path: string;
  /** Answer with this status instead of serving the request. */
  status?: number;
  /** Wait this long (real milliseconds) before answering. */
  delay_ms?: number;
  /** Message in the injected error body. */
  message?: string;
  created_at: number;
}

export interface TranscriptionFault extends FaultLimits {
  id: string;
  kind: "transcription";
  outcome: "fail";
  /** Only transcriptions of this call; absent means any. */
  call_sid?: string;
  created_at: number;
}

export interface NumberFault extends FaultLimits {
  id: string;
  kind: "number";
  /** E.164 number: calls to or from it end with `outcome`. */
  number: string;
  outcome: NumberFaultOutcome;
  created_at: number;
}

export type Fault = HttpFault | TranscriptionFault | NumberFault;
export type FaultKind = Fault["kind"];

/** A fault as given to `add`: everything but the id and creation time, with `for` as a duration in ms. */
export type FaultInput =
  | (Omit<HttpFault, "id" | "created_at" | "until" | "remaining"> & FaultRequestLimits)
  | (Omit<TranscriptionFault, "id" | "created_at" | "until" | "remaining"> & FaultRequestLimits)
  | (Omit<NumberFault, "id" | "created_at" | "until" | "remaining"> & FaultRequestLimits);

interface FaultRequestLimits {
  count?: number;
  forMs?: number;
}

export interface FaultRegistry {
  add(input: FaultInput, now: number): Fault;
  /** Faults still in force at `now`, oldest first. */
  list(now: number): Fault[];
  remove(id: string): boolean;
  clear(): void;
  /** The first HTTP fault in force for this request, spending one of its uses. */
  takeHttp(method: string, path: string, now: number): HttpFault | undefined;
  /** The first fault of `kind` in force for `key` (a call sid, a number), spending one of its uses. */
  take<K extends Exclude<FaultKind, "http">>(
    kind: K,
    key: string,
    now: number,
  ): Extract<Fault, { kind: K }> | undefined;
}
