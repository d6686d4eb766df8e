// Paths and small helpers every account API resource shares.
import { errors } from "../../domain/errors.js";

export const apiVersion = "2010-04-01";
export const accountBase = `/${apiVersion}/Accounts/:AccountSid`;

/** `/2010-04-01/Accounts/AC.../<rest>` */
export const accountPath = (accountSid: string, rest: string) =>
  `/${apiVersion}/Accounts/${accountSid}/${rest}`;

/** A record that belongs to the path's account, or Twilio's 404 for the request path. */
export function ownedBy<T extends { account_sid: string | null }>(
  record: T | undefined,
  accountSid: string,
  path: string,
): T {
  if (!record || record.account_sid !== accountSid) throw errors.notFound(path);
  return record;
}
