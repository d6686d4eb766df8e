// Seedable id minting: every sid, token and key comes from here, so one seed gives the same ids every run.

/** The generator's whole state, so a snapshot can carry it and a restore can resume the same sequence. */
export type IdGeneratorState = [number, number, number, number];

export interface IdGenerator {
  /** A Twilio-style id: two-letter prefix plus 32 lowercase hex digits. */
  mint(prefix: string): string;
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

export function createIdGenerator(seed: number | string = 1): IdGenerator {
  let s = seedWords(seed);
  // xoshiro128**: small, fast and well distributed; never Math.random or crypto, so runs repeat.
  const nextWord = (): number => {
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    s = [s[0] >>> 0, s[1] >>> 0, s[2] >>> 0, s[3] >>> 0];
    return result;
  };
  const hex32 = () => {
    let out = "";
    for (let i = 0; i < 4; i++) out += nextWord().toString(16).padStart(8, "0");
    return out;
  };
  return {
    mint: (prefix) => prefix + hex32(),
    secret: hex32,
    random: () => nextWord() / 4294967296,
    state: () => [...s] as IdGeneratorState,
    setState: (state) => {
      s = [...state] as IdGeneratorState;
    },
  };
}
