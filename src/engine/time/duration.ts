// Durations as people write them ("30s", "1m30s", "2h", "250ms", or a number of milliseconds).
import { z } from "zod";
import { parsedBy } from "../../domain/fields.js";

const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

/** Milliseconds in a duration string; throws a message that shows the accepted forms. */
export function parseDuration(input: string | number): number {
  if (typeof input === "number") {
    if (!Number.isFinite(input) || input < 0)
      throw new Error(`duration must be a non-negative number, got ${input}`);
    return Math.round(input);
  }
  const text = input.trim();
  if (/^\d+$/.test(text)) return Number(text);
  let total = 0;
  part.lastIndex = 0;
  let matched = 0;
  while (part.lastIndex < text.length) {
    const m = part.exec(text);
    if (!m) break;
    total += Number(m[1]) * unitMs[m[2]!]!;
    matched = part.lastIndex;
  }
  if (text.length === 0 || matched !== text.length) {
    throw new Error(`"${input}" is not a duration: write it like 250ms, 30s, 1m30s, 2h or 1d`);
  }
  return Math.round(total);
}

/** A duration field in any schema (party scripts, scenarios, admin bodies), read into milliseconds. */
export const durationField = z
  .union([z.string(), z.number()], {
    error: 'must be a duration such as "30s", "1m30s", "250ms" or a number of milliseconds',
  })
  .transform(parsedBy(parseDuration));
