// One call as a phone sees it: answer or turn it away, listen, press, speak, hang up; each step on the virtual clock.
import { StepChain } from "./chain.js";
import { PhoneExpectationError } from "./expectation-error.js";
import {
  type AgentMetrics,
  agentAnswer,
  agentMetricsOf,
  agentTurns,
  listeningVerb,
  runningVerb,
  type TurnRecord,
} from "./phone-agent.js";
import type { SandboxSurface } from "./sandbox-surface.js";
import {
  type CallView,
  describeHeard,
  describeTimeline,
  type HeardView,
  type TimelineView,
} from "./timeline.js";
import { defaultTimeoutMs, seconds, waitFor } from "./wait.js";

/** A text to find: a string is looked for inside it, a RegExp is tested against it. */
export type TextPattern = string | RegExp;
export const matchesText = (pattern: TextPattern, text: string | undefined) =>
  text !== undefined && (typeof pattern === "string" ? text.includes(pattern) : pattern.test(text));
const showPattern = (p: TextPattern) => (typeof p === "string" ? JSON.stringify(p) : String(p));

export interface WaitOptions {
  /** Most virtual time to wait (default 30 s, or the phone's `timeout`): a duration in ms. */
  timeout?: number | undefined;
}

/** What the phone does with calls to it; the engine decides when the call is dialled, as a scripted party. */
export type Pickup = "answer" | "busy" | "decline" | "no-answer" | "fail";

const terminal = new Set(["completed", "busy", "no-answer", "failed", "canceled"]);
const rejectedStatus: Record<Exclude<Pickup, "answer">, string> = {
  busy: "busy",
  decline: "no-answer",
  "no-answer": "no-answer",
  fail: "failed",
};

export interface CallContext {
  surface: SandboxSurface;
  /** The phone's number (the called number, or the caller's for an inbound call). */
  number: string;
  pickup: Pickup;
  timeoutMs: number;
}

export class PhoneCall extends StepChain {
  #view: CallView | null = null;
  /** How far into what the call heard the expectations have read. */
  #heard = 0;
  /** How many stretches of a stream app's audio, and how far into the timeline's marks, expectations have read. */
  #played = 0;
  #marks = 0;
  /** The last of the agent's turns whose answer an expectation read. */
  #answered = 0;
  readonly #ctx: CallContext;

  constructor(ctx: CallContext, start: (call: PhoneCall) => Promise<CallView>, after: Promise<void>) {
    super(after);
    this.#ctx = ctx;
    this.step(async () => {
      this.#view = await start(this);
    });
  }

  /** The call's sid, once the call has started (after the first step). */
  get sid(): string | undefined {
    return this.#view?.sid;
  }

  private get view(): CallView {
    if (!this.#view) throw new Error("the call has not started");
    return this.#view;
  }

  private timeout(options?: WaitOptions) {
    return options?.timeout ?? this.#ctx.timeoutMs ?? defaultTimeoutMs;
  }

  /** An expectation failure with what the call heard and its timeline. */
  private async failure(message: string): Promise<PhoneExpectationError> {
    const view = await this.#ctx.surface.timeline(this.view.sid);
    return new PhoneExpectationError(`${this.#ctx.number}, call ${this.view.sid}: ${message}`, {
      heard: describeHeard(view),
      timeline: describeTimeline(view),
    });
  }

  private async status(): Promise<string> {
    const call = await this.#ctx.surface.call(this.view.sid);
    this.#view = call;
    return call.status;
  }

  private waitForStatus(what: string, wanted: (status: string) => boolean, options?: WaitOptions) {
    const timeout = this.timeout(options);
    return waitFor(
      this.#ctx.surface,
      timeout,
      async () => {
        const status = await this.status();
        if (wanted(status)) return status;
        if (terminal.has(status)) throw await this.failure(`expected ${what}, but the call ended ${status}`);
        return undefined;
      },
      () =>
        this.failure(
          `expected ${what} within ${seconds(timeout)} of virtual time (status ${this.view.status})`,
        ),
    );
  }

  /** Picks up: waits until the call is answered (the phone answers after its ring time). */
  answer(options?: WaitOptions): this {
    return this.step(async () => {
      if (this.#ctx.pickup !== "answer")
        throw new PhoneExpectationError(
          `${this.#ctx.number} was set up to ${this.#ctx.pickup} calls; create it with { pickup: "answer" } to answer them`,
        );
      await this.waitForStatus("the call to be answered", (s) => s === "in-progress", options);
    });
  }

  /** Turns the call away (busy, decline, no answer or failure, as the phone was set up): waits until it ends so. */
  reject(options?: WaitOptions): this {
    return this.step(async () => {
      const pickup = this.#ctx.pickup;
      if (pickup === "answer")
        throw new PhoneExpectationError(
          `${this.#ctx.number} answers calls: the callee's choice is made when the call is dialled, so create the phone with { pickup: "busy" } (or decline, no-answer, fail) before the app calls it`,
        );
      const status = await this.waitForStatus("the call to be turned away", (s) => terminal.has(s), options);
      if (status !== rejectedStatus[pickup])
        throw await this.failure(`expected the call to end ${rejectedStatus[pickup]}, it ended ${status}`);
    });
  }

  /**
   * Looks at the call's timeline until `found` gives a value; the call ending first fails at once
   * (`ended`), the virtual time-out later (`late`).
   */
  private watch<T>(
    options: WaitOptions | undefined,
    found: (view: TimelineView) => T | undefined,
    ended: (status: string) => string,
    late: (timeout: string) => string,
  ): Promise<T> {
    const timeout = this.timeout(options);
    return waitFor(
      this.#ctx.surface,
      timeout,
      async () => {
        const value = found(await this.#ctx.surface.timeline(this.view.sid));
        if (value !== undefined) return value;
        if (terminal.has(await this.status())) throw await this.failure(ended(this.view.status));
        return undefined;
      },
      () => this.failure(late(seconds(timeout))),
    );
  }

  /** Waits for the next thing heard matching (after what earlier expectations read). */
  private expectHeard(what: string, matches: (h: HeardView) => boolean, options?: WaitOptions): this {
    return this.step(async () => {
      const index = await this.watch(
        options,
        (view) => {
          const i = view.heard.findIndex((h, n) => n >= this.#heard && matches(h));
          return i === -1 ? undefined : i;
        },
        (status) => `expected to hear ${what}, but the call ended ${status}`,
        (timeout) => `expected to hear ${what} within ${timeout} of virtual time`,
      );
      this.#heard = index + 1;
    });
  }

  /** Expects to hear a Say whose text contains the string (or matches the RegExp). */
  expectSay(pattern: TextPattern, options?: WaitOptions): this {
    return this.expectHeard(
      `a Say ${showPattern(pattern)}`,
      (h) => h.kind === "say" && matchesText(pattern, h.text),
      options,
    );
  }

  /** Expects to hear a Play whose URL contains the string (or matches the RegExp). */
  expectPlay(pattern: TextPattern, options?: WaitOptions): this {
    return this.expectHeard(
      `a Play of ${showPattern(pattern)}`,
      (h) => h.kind === "play" && matchesText(pattern, h.url),
      options,
    );
  }

  /** Expects the beep a Record plays before it listens. */
  expectBeep(options?: WaitOptions): this {
    return this.expectHeard("the beep", (h) => h.kind === "beep", options);
  }

  /** Expects DTMF tones played to the phone (Play digits, sendDigits). */
  expectDigits(digits: string, options?: WaitOptions): this {
    return this.expectHeard(`the tones ${digits}`, (h) => h.kind === "digits" && h.text === digits, options);
  }

  /** Waits until a `<Connect>` app (media stream or ConversationRelay) waits for the caller: it has stopped talking. */
  waitForAgent(options?: WaitOptions): this {
    return this.step(async () => {
      await this.watch(
        options,
        (view) => (runningVerb(view).agent?.talking === false ? true : undefined),
        (status) => `expected the agent to stop talking, but the call ended ${status}`,
        (timeout) => `expected a <Connect> agent waiting for the caller within ${timeout} of virtual time`,
      );
    });
  }

  /**
   * Speaks over the agent: waits until a `<Connect>` app is talking, lets `after` ms of its talk pass
   * (default 1 s from when it started), then says the words (ConversationRelay sends `interrupt` when
   * its speech may be cut).
   */
  interrupt(text: string, options?: WaitOptions & { after?: number }): this {
    return this.step(async () => {
      const since = await this.watch(
        options,
        (view) => {
          const agent = runningVerb(view).agent;
          return agent?.talking ? Date.parse(agent.since) : undefined;
        },
        (status) => `could not interrupt the agent: the call ended ${status}`,
        (timeout) =>
          `could not interrupt the agent: no <Connect> agent talked within ${timeout} of virtual time`,
      );
      const wait = since + (options?.after ?? 1000) - (await this.#ctx.surface.now());
      if (wait > 0) await this.#ctx.surface.advance(wait);
      await this.#ctx.surface.input(this.view.sid, { say: text });
    });
  }

  /**
   * Expects the next stretch of a media stream app's audio (after what earlier expectations read) to have
   * played this long to the caller: a number of ms, or `{ min, max }`.
   */
  expectAgentAudio(duration: number | { min?: number; max?: number }, options?: WaitOptions): this {
    const { min, max } = typeof duration === "number" ? { min: duration, max: duration } : duration;
    const wanted =
      min === max
        ? `${min} ms`
        : `${min !== undefined ? `at least ${min} ms` : ""}${min !== undefined && max !== undefined ? " and " : ""}${max !== undefined ? `at most ${max} ms` : ""}`;
    return this.step(async () => {
      const entries = await this.watch(
        options,
        (view) => {
          const played = view.timeline.filter((e) => e.kind === "stream.played");
          return played.length > this.#played ? played : undefined;
        },
        (status) => `expected the agent's audio to play (${wanted}), but the call ended ${status}`,
        (timeout) => `expected the agent's audio to play (${wanted}) within ${timeout} of virtual time`,
      );
      const ms = Number(entries[this.#played]!.detail.ms);
      this.#played++;
      if ((min !== undefined && ms < min) || (max !== undefined && ms > max))
        throw await this.failure(`expected the agent's audio to play ${wanted}, it played ${ms} ms`);
    });
  }

  /** Expects a media stream mark of this name to come back to the app (its audio has played). */
  expectMark(name: string, options?: WaitOptions): this {
    return this.step(async () => {
      const index = await this.watch(
        options,
        (view) => {
          const i = view.timeline.findIndex(
            (e, n) => n >= this.#marks && e.kind === "stream.mark" && e.detail.name === name,
          );
          return i === -1 ? undefined : i;
        },
        (status) => `expected the mark ${JSON.stringify(name)}, but the call ended ${status}`,
        (timeout) => `expected the mark ${JSON.stringify(name)} within ${timeout} of virtual time`,
      );
      this.#marks = index + 1;
    });
  }

  /**
   * Expects the `<Connect>` agent to answer the caller's next turn (after those read before) within `ms`
   * of sandbox time: from the end of the caller's words or key to its first audio (a relay: its first text).
   * On the virtual clock the wait for the agent's answer is not counted (see docs/voice-agents.md).
   */
  expectResponseWithin(ms: number, options?: WaitOptions): this {
    return this.step(async () => {
      const answer = await this.watch(
        options,
        (view) => agentAnswer(view, this.#answered),
        (status) => `expected the agent to answer within ${ms} ms, but the call ended ${status}`,
        (timeout) => `expected the agent to answer a turn within ${timeout} of virtual time; no turn ended`,
      );
      this.#answered = answer.n;
      if (answer.ms === null)
        throw await this.failure(
          `expected the agent to answer turn ${answer.n} within ${ms} ms: ${answer.why}`,
        );
      if (answer.ms > ms)
        throw await this.failure(
          `expected the agent to answer turn ${answer.n} within ${ms} ms, it took ${answer.ms} ms`,
        );
    });
  }

  /** The `<Connect>` agent's turns so far, as plain records of sandbox ms (a turn still going is left out). */
  async turns(): Promise<TurnRecord[]> {
    await this;
    return agentTurns(await this.#ctx.surface.timeline(this.view.sid));
  }

  /** What the agent's turns so far add up to: response latency, speaking time, barge-ins, talk-over, silences. */
  async agentMetrics(): Promise<AgentMetrics> {
    await this;
    return agentMetricsOf(await this.#ctx.surface.timeline(this.view.sid));
  }

  /** Waits until the call listens (a Gather or Record runs, or a <Connect> agent waits), then sends the input. */
  private input(what: string, input: { press: string } | { say: string }, options?: WaitOptions): this {
    return this.step(async () => {
      await this.watch(
        options,
        (view) => (listeningVerb(view) ? true : undefined),
        (status) => `could not ${what}: the call ended ${status}`,
        (timeout) =>
          `could not ${what}: nothing listened (no Gather or Record, no <Connect> agent waiting for the caller) within ${timeout} of virtual time`,
      );
      await this.#ctx.surface.input(this.view.sid, input);
    });
  }

  /** Presses keys (0-9, *, #, A-D; w waits half a second) into the Gather or Record that listens. */
  press(digits: string, options?: WaitOptions): this {
    return this.input(`press ${digits}`, { press: digits }, options);
  }

  /** Says the words into the Gather (speech) or Record that listens. */
  speak(text: string, options?: WaitOptions): this {
    return this.input(`say ${JSON.stringify(text)}`, { say: text }, options);
  }

  /** Hangs up now. */
  hangUp(): this {
    return this.step(async () => {
      if (terminal.has(await this.status()))
        throw await this.failure(`could not hang up: the call already ended ${this.view.status}`);
      await this.#ctx.surface.hangup(this.view);
      await this.#ctx.surface.advance(0);
    });
  }

  /** Expects the other end to hang up (the call ends completed). */
  expectHangup(options?: WaitOptions): this {
    return this.step(async () => {
      const status = await this.waitForStatus("the call to end", (s) => terminal.has(s), options);
      if (status !== "completed")
        throw await this.failure(`expected the call to end completed, it ended ${status}`);
    });
  }

  /** Nothing more is heard: everything the call heard was read by an expectation. */
  expectNothingMoreHeard(): this {
    return this.step(async () => {
      const view = await this.#ctx.surface.timeline(this.view.sid);
      if (view.heard.length > this.#heard)
        throw await this.failure(`heard ${view.heard.length - this.#heard} more thing(s) than expected`);
    });
  }

  /** The call's timeline as lines (status changes, verbs, input, requests), times from its start. */
  async timeline(): Promise<string[]> {
    await this;
    return describeTimeline(await this.#ctx.surface.timeline(this.view.sid));
  }
}
