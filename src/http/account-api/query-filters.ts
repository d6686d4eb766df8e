// Twilio list filters as data: each query parameter mapped to the test a record must pass, echoed into page URIs in order.

/** Builds a record test from a filter's value once per request (so a pattern is compiled once, not per record). */
export type QueryFilter<T> = (value: string | boolean) => (record: T) => boolean;

/** A filter a record passes when this field equals the value given (`To`, `Status`, `Muted`...). */
export const equals =
  <T>(field: (record: T) => unknown): QueryFilter<T> =>
  (value) =>
  (record) =>
    field(record) === value;

/**
 * A predicate over records for the filters the query gives (an empty string gives none, `false` does),
 * and those filters as `[name, value]` pairs for the list's page URIs, in the order they are declared.
 */
export function queryFilters<T>(
  query: Readonly<Record<string, unknown>>,
  filters: Readonly<Record<string, QueryFilter<T>>>,
): { matches: (record: T) => boolean; echo: [string, string][] } {
  const tests: ((record: T) => boolean)[] = [];
  const echo: [string, string][] = [];
  for (const [name, filter] of Object.entries(filters)) {
    const value = query[name];
    if ((typeof value !== "string" && typeof value !== "boolean") || value === "") continue;
    tests.push(filter(value));
    echo.push([name, String(value)]);
  }
  return { matches: (record) => tests.every((test) => test(record)), echo };
}
