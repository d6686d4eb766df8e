// What a party said and when: the span of one utterance on the sandbox clock.

export interface Utterance {
  start: number;
  end: number;
  text: string;
  /** Said while the other side talks ("uh-huh"): not a turn of its own (see the conversation's metrics). */
  backchannel?: true;
}
