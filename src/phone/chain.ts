// A fluent sequence of asynchronous steps: each verb queues a step and returns the object; awaiting it runs them all.

export abstract class StepChain {
  #queue: Promise<undefined>;

  constructor(start: Promise<unknown> = Promise.resolve()) {
    this.#queue = start.then(() => undefined);
  }

  /** Queues a step after the ones before it; a failed step skips the rest and fails the await. */
  protected step(run: () => Promise<void>): this {
    this.#queue = this.#queue.then(run).then(() => undefined);
    return this;
  }

  // Awaiting the object waits for its queued steps; it resolves to nothing, so the object itself is never
  // adopted by a promise (it would wait on itself).
  // biome-ignore lint/suspicious/noThenProperty: the chain is awaited on purpose, like a promise of its steps
  then<A = void, B = never>(
    onFulfilled?: ((value: undefined) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#queue.then(onFulfilled, onRejected);
  }
}
