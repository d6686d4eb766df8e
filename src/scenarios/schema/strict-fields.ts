// Builders of expectation schemas: strict objects that name a typo's closest field, record fields, list forms.
import { z } from "zod";

type Shape = Record<string, z.ZodType>;

/** "did you mean" for a typo'd field: the known key closest in spelling, when one is close. */
function closestKey(key: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string) => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length]!;
  };
  let best: { key: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(key, candidate);
    if (!best || d < best.d) best = { key: candidate, d };
  }
  return best && best.d <= Math.max(1, Math.floor(key.length / 3)) ? best.key : undefined;
}

/** A strict object whose unknown keys are named with the closest known one (a typo is a load error). */
export function strictFields<T extends Shape>(what: string, shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      return issue.keys
        .map((key) => {
          const near = closestKey(key, known);
          return `unknown field "${key}" of ${what}${near ? ` (did you mean "${near}"?)` : ""}`;
        })
        .join("; ");
    },
  });
}

/** Any value: one schema for every untyped record field (each was two of its own; docs/decisions.md, start-up). */
const anyRecordValue = z.unknown().optional();

const presence = z.enum(["present", "absent"]);

/**
 * A typed field that may also say `present` (any value) or `absent` (null or missing); a value that is
 * neither gets the typed field's own message.
 */
function orPresence(schema: z.ZodType): z.ZodType {
  const union = z.union([schema, presence], {
    error: (issue) => {
      if (issue.code !== "invalid_union") return undefined;
      const first = (issue.errors as { message: string }[][])[0]?.[0]?.message;
      return first ? `${first} (or present, absent)` : undefined;
    },
  });
  return schema.description ? union.describe(schema.description) : union;
}

/**
 * Fields of a stored record an expectation may name: every field of its domain schema (compared as the
 * record has it), the typed ones given here (each of which may also be `present` or `absent`, but `call`,
 * which names a call), and nothing else, so a misspelt field fails when the file loads.
 */
export function recordFields<K extends string, T extends Shape>(
  domain: readonly K[],
  typed: T,
): { [key in Exclude<K, keyof T>]: z.ZodOptional<z.ZodUnknown> } & T {
  const shape: Shape = {};
  for (const key of domain) shape[key] = anyRecordValue;
  for (const [key, schema] of Object.entries(typed))
    shape[key] = key === "call" ? schema : orPresence(schema);
  return shape as { [key in Exclude<K, keyof T>]: z.ZodOptional<z.ZodUnknown> } & T;
}

const countField = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(
    "This entry stands for exactly this many records, each after the one before (none others match it).",
  );

/** One entry of a list: the record's fields plus `count`. */
export const listEntry = <T extends Shape>(what: string, fields: T) =>
  strictFields(what, { ...fields, count: countField });

/**
 * A list expectation: `[...]` names records that occur in this order (others may come between);
 * `{ exactly: [...] }` (or `only`) says these are all the records of the kind, in this order.
 */
export function listExpectation<E extends z.ZodType>(entry: E, what: string) {
  return z.union(
    [
      z.array(entry),
      z.strictObject({ exactly: z.array(entry).describe(`Every ${what}, in order, and nothing else.`) }),
      z.strictObject({ only: z.array(entry).describe("The same as exactly.") }),
    ],
    { error: `must be a list of ${what} entries, or { exactly: [...] } for all of them and nothing else` },
  );
}

/** An entry of `never`: no record matches it (after one that matches `after`, when given). */
export const neverEntry = <T extends Shape>(what: string, fields: T) =>
  strictFields(what, {
    ...fields,
    after: strictFields(what, fields)
      .optional()
      .describe(
        "Only records after the first one that matches this count (e.g. no callback after completed).",
      ),
  });
