// Partial matching: named fields only, scalars compared as text, arrays element by element, lists as ordered subsequences.

export interface Mismatch {
  /** Path below the compared value, e.g. `params.CallStatus` ("" for the value itself). */
  path: string;
  expected: unknown;
  actual: unknown;
}

const join = (base: string, key: string | number) =>
  typeof key === "number" ? `${base}[${key}]` : base === "" ? key : `${base}.${key}`;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `{ sid_of: name }` as read when the expectation is checked: the sid the name stood for then (null when
 * no call, leg, conference or queue had that name), matched against the field as it is.
 */
export class SidRef {
  constructor(
    readonly name: string,
    readonly sid: string | null,
  ) {}
  /** How it shows in a failure: the name and what it stood for. */
  toJSON(): { sid_of: string; sid: string | null } {
    return { sid_of: this.name, sid: this.sid };
  }
}

const missing = (v: unknown) => v === null || v === undefined;

/**
 * Every difference between `expected` and `actual`, where only the fields `expected` names count. Scalars
 * compare as text, so `duration: 12` matches 12 and "12"; `null` matches null or a missing field.
 * `present` matches any value but null or a missing field (an empty string was sent: it is present);
 * `absent` matches null or a missing field; a SidRef matches the sid it stands for.
 */
export function mismatches(expected: unknown, actual: unknown, path = ""): Mismatch[] {
  const fail = [{ path, expected, actual }];
  if (expected === null || expected === "absent") return missing(actual) ? [] : fail;
  if (expected === "present") return missing(actual) ? fail : [];
  if (expected instanceof SidRef) return expected.sid !== null && actual === expected.sid ? [] : fail;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [{ path, expected, actual }];
    return expected.flatMap((e, i) => mismatches(e, actual[i], join(path, i)));
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return [{ path, expected, actual }];
    return Object.entries(expected).flatMap(([key, value]) =>
      mismatches(value, actual[key], join(path, key)),
    );
  }
  if (actual === null || actual === undefined || typeof actual === "object")
    return [{ path, expected, actual }];
  return String(expected) === String(actual) ? [] : [{ path, expected, actual }];
}

export type SubsequenceResult =
  | { ok: true; indexes: number[] }
  | {
      ok: false;
      /** The expected entry that was not found. */
      missing: number;
      /** Actual index the search for it started at (after the previous entry's match). */
      from: number;
      indexes: number[];
    };

/** Each expected entry must match an actual entry after the one the previous entry matched. */
export function matchInOrder<E, A>(
  expected: readonly E[],
  actual: readonly A[],
  matches: (expected: E, actual: A) => boolean,
): SubsequenceResult {
  const indexes: number[] = [];
  let from = 0;
  for (let i = 0; i < expected.length; i++) {
    let found = -1;
    for (let j = from; j < actual.length; j++) {
      if (matches(expected[i]!, actual[j]!)) {
        found = j;
        break;
      }
    }
    if (found === -1) return { ok: false, missing: i, from, indexes };
    indexes.push(found);
    from = found + 1;
  }
  return { ok: true, indexes };
}

/** The candidates closest to an expected entry (fewest differing fields), for a failure report. */
export function closest<A>(expected: unknown, candidates: readonly A[], limit = 3): A[] {
  return candidates
    .map((candidate, i) => ({ candidate, i, score: mismatches(expected, candidate).length }))
    .sort((a, b) => a.score - b.score || a.i - b.i)
    .slice(0, limit)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.candidate);
}

/** `actual` cut down to the fields `expected` names (recursively), so a report shows what was compared. */
export function project(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual))
    return actual.map((item, i) => project(item, expected[Math.min(i, expected.length - 1)]));
  if (!isObject(expected) || !isObject(actual)) return actual;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(expected)) out[key] = project(actual[key], expected[key]);
  return out;
}
