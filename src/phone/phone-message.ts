// One SMS a phone received: expected by its text, answered with a reply.
import { StepChain } from "./chain.js";
import type { MessageView, SandboxSurface } from "./sandbox-surface.js";

export class PhoneMessage extends StepChain {
  #view: MessageView | null = null;
  readonly #surface: SandboxSurface;
  readonly #number: string;

  constructor(
    surface: SandboxSurface,
    number: string,
    claim: () => Promise<MessageView>,
    after: Promise<void>,
  ) {
    super(after);
    this.#surface = surface;
    this.#number = number;
    this.step(async () => {
      this.#view = await claim();
    });
  }

  /** The message as received (after the expectation held). */
  get message(): MessageView | null {
    return this.#view;
  }

  /** Texts back to the sender. */
  reply(body: string): this {
    return this.step(async () => {
      await this.#surface.receiveSms(this.#number, this.#view!.from, body);
    });
  }
}
