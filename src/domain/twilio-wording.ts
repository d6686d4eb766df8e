// Twilio's own wording for the errors users meet most, by code: apps and tests match these strings.

/** The message Twilio writes for `code` about `value`, or undefined when the sandbox's own wording stands. */
export const twilioWording: Readonly<Record<number, (value: string) => string>> = {
  21211: (value) => `The 'To' number ${value} is not a valid phone number.`,
  21212: (value) =>
    `The 'From' number ${value} is not a valid phone number, shortcode, or alphanumeric sender ID.`,
};

/** The message Twilio writes when a required parameter is absent, by the code the route answers with. */
export const twilioMissingWording: Readonly<Record<number, string>> = {
  21201: "No 'To' number is specified",
  21205: "Url parameter is required.",
  21213: "No 'From' number is specified",
  21602: "Message body is required.",
  21603: "A 'From' phone number is required.",
  21604: "A 'To' phone number is required.",
};

/** Twilio's message on every 401 of the account API; what was wrong goes in the body's `detail`. */
export const twilioAuthenticateMessage = "Authenticate";
