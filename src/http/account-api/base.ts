// Paths every account API resource shares.
export const apiVersion = "2010-04-01";
export const accountBase = `/${apiVersion}/Accounts/:AccountSid`;

/** `/2010-04-01/Accounts/AC.../<rest>` */
export const accountPath = (accountSid: string, rest: string) =>
  `/${apiVersion}/Accounts/${accountSid}/${rest}`;
