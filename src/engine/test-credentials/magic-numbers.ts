// Twilio's magic numbers for test credentials: which From, To, PhoneNumber and AreaCode values fail, and how.
import { errors, type SandboxError } from "../../domain/errors.js";
import { twilioWording } from "../../domain/twilio-wording.js";

/** The From every test request may use: it passes all validation (twilio.com/docs/iam/test-credentials). */
export const magicFrom = "+15005550006";
/** The number a test purchase gets, by PhoneNumber or with AreaCode 500. */
export const magicPurchasedNumber = "+15005550006";
export const magicAreaCode = "500";

type Failure = (value: string) => SandboxError;
const fail =
  (parameter: string, code: number, message: (value: string) => string): Failure =>
  (value) =>
    errors.invalidParameter(parameter, message(value), code);

const invalidFrom = fail("From", 21212, twilioWording[21212]!);
const messageFromNotOwned = fail(
  "From",
  21606,
  (n) =>
    `The From phone number ${n} is not a valid, SMS-capable inbound phone number or short code for your account. With test credentials, send From ${magicFrom}.`,
);

/** Messages, `From`: +15005550006 passes; any number not listed here is 21606. */
export const messageFromFailures: Record<string, Failure> = {
  "+15005550001": invalidFrom,
  "+15005550007": messageFromNotOwned,
  "+15005550008": fail(
    "From",
    21611,
    (n) => `This 'From' number (${n}) has exceeded the maximum number of queued messages.`,
  ),
};
export const messageFromOther = messageFromNotOwned;

/** Messages, `To`: numbers not listed here are validated as usual. */
export const messageToFailures: Record<string, Failure> = {
  "+15005550001": fail("To", 21211, twilioWording[21211]!),
  "+15005550002": fail(
    "To",
    21612,
    (n) => `The 'To' phone number: ${n}, is not currently reachable using the 'From' phone number via SMS.`,
  ),
  "+15005550003": fail(
    "To",
    21408,
    (n) =>
      `Permission to send an SMS has not been enabled for the region indicated by the 'To' number: ${n}.`,
  ),
  "+15005550004": fail("To", 21610, (n) => `Attempt to send to unsubscribed recipient ${n}.`),
  "+15005550009": fail("To", 21614, (n) => `'To' number ${n} is not a valid mobile number.`),
};

/** Calls, `From`: +15005550006 passes; any number not listed here is 21210. */
export const callFromFailures: Record<string, Failure> = { "+15005550001": invalidFrom };
export const callFromOther = fail(
  "From",
  21210,
  (n) =>
    `The source phone number provided, ${n}, is not yet verified for your account. With test credentials, call From ${magicFrom}.`,
);

/** Calls, `To`: numbers not listed here are validated as usual. */
export const callToFailures: Record<string, Failure> = {
  "+15005550001": fail("To", 21217, (n) => `Phone number ${n} does not appear to be valid.`),
  "+15005550002": fail("To", 21214, (n) => `'To' phone number ${n} cannot be reached.`),
  "+15005550003": fail(
    "To",
    21215,
    (n) => `Account not authorized to call ${n}: enable its region in the geographic permissions.`,
  ),
  "+15005550004": fail("To", 21216, (n) => `Account not allowed to call ${n}: it is blocked.`),
};

const numberUnavailable = fail(
  "PhoneNumber",
  21422,
  (n) =>
    `PhoneNumber ${n} is not available. With test credentials, only ${magicPurchasedNumber} (or AreaCode ${magicAreaCode}) can be bought.`,
);

/** IncomingPhoneNumbers, `PhoneNumber`: +15005550006 is bought; any number not listed here is 21422. */
export const purchaseNumberFailures: Record<string, Failure> = {
  "+15005550000": numberUnavailable,
  "+15005550001": fail("PhoneNumber", 21421, (n) => `PhoneNumber ${n} is invalid.`),
};
export const purchaseNumberOther = numberUnavailable;

/** IncomingPhoneNumbers, `AreaCode`: 500 buys +15005550006; any other area code (533 in Twilio's table) is 21452. */
export const purchaseAreaCodeOther = fail(
  "AreaCode",
  21452,
  (code) =>
    `No phone numbers found in area code ${code}. With test credentials, AreaCode ${magicAreaCode} gives ${magicPurchasedNumber}.`,
);
