// A record looked up by id, or the declared 404 for the request path: the lookup every resource route starts with.
import { errors } from "./errors.js";

export function found<T>(record: T | undefined, path: string): T {
  if (record === undefined) throw errors.notFound(path);
  return record;
}

/** A record that belongs to the given account, or the same 404: another account's record is not shown to exist. */
export function ownedBy<T extends { account_sid: string | null }>(
  record: T | undefined,
  accountSid: string,
  path: string,
): T {
  if (!record || record.account_sid !== accountSid) throw errors.notFound(path);
  return record;
}
