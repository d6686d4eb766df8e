// A simulated phone for one number: expects calls and texts to it, places calls and texts from it, and notices the unexpected.
import type { PartyKind } from "../engine/calls/party-behaviour.js";
import type { Respond } from "../engine/calls/party-cue-schema.js";
import type { LineConditionsInput } from "../engine/media-streams/stream-line.js";
import { StepChain } from "./chain.js";
import { PhoneExpectationError } from "./expectation-error.js";
import { matchesText, PhoneCall, type Pickup, type TextPattern, type WaitOptions } from "./phone-call.js";
import { PhoneMessage } from "./phone-message.js";
import type { MessageView, SandboxSurface } from "./sandbox-surface.js";
import type { CallView } from "./timeline.js";
import { defaultTimeoutMs, seconds, waitFor } from "./wait.js";

export interface PhoneOptions {
  /** What it does when called (default answer); the engine decides when the call is dialled. */
  pickup?: Pickup | undefined;
  /** How long it rings before it answers or turns the call away, in ms (default 3000, as any number). */
  ringFor?: number | undefined;
  /** Who picks up, as answering machine detection hears it: a person (default), a machine, a fax. */
  kind?: PartyKind | undefined;
  /** How long it speaks when it answers, in ms (default: a person 1000, a machine 10000; 0 is silence). */
  greeting?: number | undefined;
  /** A machine's greeting ends with a beep (default true). */
  beep?: boolean | undefined;
  /** The line it answers on, as a media-stream app hears it: noise (dBFS), drop (0-1), jitter (ms), seed. */
  line?: LineConditionsInput | undefined;
  /**
   * In-process only: once it answers, the phone's party is this function, asked each time a `<Connect>`
   * agent stops talking (words to say, "" silence, undefined hang up; docs/voice-agents.md#scripted-callers).
   */
  respond?: Respond | undefined;
  /** Calls and texts no expectation claims do not fail `verify()`. */
  allowUnexpected?: boolean | undefined;
  /** Most virtual time an expectation waits, in ms (default 30000). */
  timeout?: number | undefined;
}

const describeCall = (c: CallView) => `${c.direction} call ${c.sid} from ${c.from} (${c.status})`;
const describeMessage = (m: MessageView) => `SMS ${m.sid} from ${m.from}: ${JSON.stringify(m.body)}`;

export class Phone extends StepChain {
  readonly number: string;
  readonly #surface: SandboxSurface;
  readonly #options: PhoneOptions;
  readonly #calls = new Set<string>();
  readonly #messages = new Set<string>();
  /** The phone's own steps (claims happen in the order the test wrote them). */
  #last: Promise<void>;

  constructor(surface: SandboxSurface, number: string, options: PhoneOptions) {
    const pickup = options.pickup ?? "answer";
    const registered = Promise.resolve(
      surface.setParty(number, {
        outcome: pickup === "fail" ? "failed" : pickup,
        answerAfter: pickup === "fail" ? 0 : (options.ringFor ?? 3000),
        ...(options.kind ? { kind: options.kind } : {}),
        ...(options.greeting !== undefined ? { greeting: options.greeting } : {}),
        ...(options.beep !== undefined ? { beep: options.beep } : {}),
        ...(options.line ? { line: options.line } : {}),
        ...(options.respond ? { respond: options.respond } : {}),
      }),
    );
    super(registered);
    // A registration that failed fails the phone's own await; the claims after it still run (and say why).
    this.#last = registered.catch(() => {});
    this.number = number;
    this.#surface = surface;
    this.#options = { ...options, pickup };
  }

  private get timeoutMs() {
    return this.#options.timeout ?? defaultTimeoutMs;
  }

  /** Each claim waits for the one written before it, so two expectCall() take two calls in order. */
  private claimStep(): [Promise<void>, () => void] {
    let done!: () => void;
    const previous = this.#last;
    this.#last = new Promise<void>((resolve) => {
      done = resolve;
    });
    return [previous, done];
  }

  /**
   * Waits for the oldest item (call or text) not yet claimed, in the order the test wrote its claims; one
   * that arrives first and does not fit is unexpected, and nothing within the time-out fails too.
   */
  private claimNext<T extends { sid: string }>(spec: {
    what: string;
    list: () => Promise<T[]>;
    claimed: Set<string>;
    fits: (item: T) => string | null;
    timeoutMs: number;
  }): [Promise<void>, () => Promise<T>] {
    const [previous, done] = this.claimStep();
    const claim = async () => {
      try {
        return await waitFor(
          this.#surface,
          spec.timeoutMs,
          async () => {
            const next = (await spec.list()).find((item) => !spec.claimed.has(item.sid));
            if (!next) return undefined;
            const misfit = spec.fits(next);
            if (misfit) throw new PhoneExpectationError(`${this.number}: ${misfit}`);
            spec.claimed.add(next.sid);
            return next;
          },
          async () =>
            new PhoneExpectationError(
              `${this.number}: expected ${spec.what} within ${seconds(spec.timeoutMs)} of virtual time; none came`,
            ),
        );
      } finally {
        done();
      }
    };
    return [previous, claim];
  }

  /** Expects a call to this phone (the next one not yet expected); `from` checks the caller. */
  expectCall(options: WaitOptions & { from?: string } = {}): PhoneCall {
    const [previous, claim] = this.claimNext({
      what: "a call",
      list: () => this.#surface.callsTo(this.number),
      claimed: this.#calls,
      fits: (call) =>
        options.from !== undefined && call.from !== options.from
          ? `unexpected ${describeCall(call)}; expected a call from ${options.from}`
          : null,
      timeoutMs: options.timeout ?? this.timeoutMs,
    });
    return new PhoneCall(this.context(), claim, previous);
  }

  /** Calls one of the sandbox's numbers from this phone (an inbound call); the phone does only what it is told. */
  call(to: string): PhoneCall {
    const [previous, done] = this.claimStep();
    const start = async () => {
      try {
        return await this.#surface.ring(this.number, to);
      } finally {
        done();
      }
    };
    return new PhoneCall({ ...this.context(), number: this.number }, start, previous);
  }

  /** Expects the next text to this phone, its body containing the string (or matching the RegExp). */
  expectSms(pattern?: TextPattern, options: WaitOptions = {}): PhoneMessage {
    const [previous, claim] = this.claimNext({
      what: "a text",
      list: () => this.#surface.messagesTo(this.number),
      claimed: this.#messages,
      fits: (message) =>
        pattern !== undefined && !matchesText(pattern, message.body)
          ? `unexpected ${describeMessage(message)}; expected a text matching ${String(pattern)}`
          : null,
      timeoutMs: options.timeout ?? this.timeoutMs,
    });
    return new PhoneMessage(this.#surface, this.number, claim, previous);
  }

  /** Texts one of the sandbox's numbers from this phone. */
  sendSms(to: string, body: string): this {
    return this.step(() => this.#surface.receiveSms(this.number, to, body));
  }

  /** Fails on calls and texts to this phone that no expectation claimed (unless it allows the unexpected). */
  async verify(): Promise<void> {
    await this.#last;
    if (this.#options.allowUnexpected) return;
    const calls = (await this.#surface.callsTo(this.number)).filter((c) => !this.#calls.has(c.sid));
    const messages = (await this.#surface.messagesTo(this.number)).filter((m) => !this.#messages.has(m.sid));
    if (calls.length + messages.length === 0) return;
    throw new PhoneExpectationError(
      [
        `${this.number} got what no expectation claimed (expect it, or create the phone with { allowUnexpected: true }):`,
        ...calls.map((c) => `  unexpected ${describeCall(c)}`),
        ...messages.map((m) => `  unexpected ${describeMessage(m)}`),
      ].join("\n"),
    );
  }

  private context() {
    return {
      surface: this.#surface,
      number: this.number,
      pickup: this.#options.pickup!,
      timeoutMs: this.timeoutMs,
    };
  }
}
