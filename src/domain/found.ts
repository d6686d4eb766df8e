// A record looked up by id, or the declared 404 for the request path: the lookup every resource route starts with.
import { errors } from "./errors.js";

export function found<T>(record: T | undefined, path: string): T {
  if (record === undefined) throw errors.notFound(path);
  return record;
}
