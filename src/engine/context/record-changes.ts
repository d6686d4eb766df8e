// A stored record with a partial change applied, as every update (REST POST or JSON:API PATCH) applies it.

/** Fields a change may carry; a field left undefined is not changed (the request did not name it). */
export type Changes<T> = { [K in keyof T]?: T[K] | undefined };

/** The fields a change names, without the ones left undefined. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The record with each named field replaced and `updated_at` set to `now`. */
export function withChanges<T extends { updated_at: number }>(
  record: T,
  changes: Changes<T>,
  now: number,
): T {
  return { ...record, ...definedOnly(changes), updated_at: now };
}
