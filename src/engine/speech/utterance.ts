// What a party said and when: the span of one utterance on the sandbox clock.

export interface Utterance {
  start: number;
  end: number;
  text: string;
}
