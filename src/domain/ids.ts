// Seedable id minting: every sid, token and key comes from here, so one seed gives the same ids every run.

/** The generator's whole state, so a snapshot can carry it and a restore can resume the same sequence. */
export type IdGeneratorState = [number, number, number, number];

export interface IdGenerator {
  /** A Twilio-style id: two-letter prefix plus 32 lowercase hex digits. */
  mint(prefix: string): string;
  /**
   * An id of the same shape whose last 16 hex digits are `serial` (a row's position in an append-only table,
   * which then finds it without a map): 16 random digits, then the serial. It takes as many random words as
   * `mint`, so every other id stays the one it would have been.
   */
  mintNumbered(prefix: string, serial: number): string;
  /** 32 lowercase hex digits (auth tokens, key secrets). */
  secret(): string;
  /** A float in [0, 1), for seeded jitter. */
  random(): number;
  state(): IdGeneratorState;
  setState(state: IdGeneratorState): void;
}

/** splitmix32 spreads a small seed over the four words of xoshiro128**. */
function seedWords(seed: number | string): IdGeneratorState {
  let h = typeof seed === "number" ? seed >>> 0 : hashString(seed);
  const next = () => {
    h = (h + 0x9e3779b9) >>> 0;
    let z = h;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  return [next(), next(), next(), next()];
}

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;

/** The character code of each hex digit, lowercase. */
const hexCodes = Array.from({ length: 16 }, (_, i) => i.toString(16).charCodeAt(0));

export function createIdGenerator(seed: number | string = 1): IdGenerator {
  // The four state words live in locals, not an array rebuilt per word: minting is on every write's path.
  let [s0, s1, s2, s3] = seedWords(seed);
  // xoshiro128**: small, fast and well distributed; never Math.random or crypto, so runs repeat.
  const nextWord = (): number => {
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 = (s2 ^ s0) >>> 0;
    s3 = (s3 ^ s1) >>> 0;
    s1 = (s1 ^ s2) >>> 0;
    s0 = (s0 ^ s3) >>> 0;
    s2 = (s2 ^ t) >>> 0;
    s3 = rotl(s3, 11);
    return result;
  };
  /**
   * The characters of an id, made into one flat string at once. Joining pieces with `+` gives a rope of
   * pieces (a cons string) that keeps every piece alive: about 230 bytes of heap per stored sid against
   * 85 for a flat one, on every row and event (docs/decisions.md, "Persistence at scale").
   */
  const codes: number[] = [];
  const hexWords = (from: number) => {
    for (let word = 0; word < 4; word++) {
      const value = nextWord();
      for (let digit = 0; digit < 8; digit++)
        codes[from + word * 8 + digit] = hexCodes[(value >>> (28 - 4 * digit)) & 15]!;
    }
  };
  /** The prefix and 32 random hex digits, in `codes`. */
  const idCodes = (prefix: string) => {
    codes.length = prefix.length + 32;
    for (let i = 0; i < prefix.length; i++) codes[i] = prefix.charCodeAt(i);
    hexWords(prefix.length);
  };
  return {
    mint: (prefix) => {
      idCodes(prefix);
      return String.fromCharCode.apply(null, codes);
    },
    mintNumbered: (prefix, serial) => {
      idCodes(prefix);
      let rest = serial;
      for (let i = prefix.length + 31; i >= prefix.length + 16; i--) {
        codes[i] = hexCodes[rest % 16]!;
        rest = Math.floor(rest / 16);
      }
      return String.fromCharCode.apply(null, codes);
    },
    secret: () => {
      codes.length = 32;
      hexWords(0);
      return String.fromCharCode.apply(null, codes);
    },
    random: () => nextWord() / 4294967296,
    state: () => [s0, s1, s2, s3],
    setState: (state) => {
      [s0, s1, s2, s3] = state;
    },
  };
}

/** The serial `mintNumbered` put in an id of `length` characters, or undefined when the id has no such ending. */
export function serialIn(id: string, length: number): number | undefined {
  if (id.length !== length) return undefined;
  let serial = 0;
  for (let i = length - 16; i < length; i++) {
    const code = id.charCodeAt(i);
    const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
    if (digit < 0) return undefined;
    serial = serial * 16 + digit;
  }
  return serial;
}
