// Twilio's own wording for the errors users meet most, by code: apps and tests match these strings.

/** The message Twilio writes for `code` about `value`, or undefined when the sandbox's own wording stands. */
export const twilioWording: Readonly<Record<number, (value: string) => string>> = {
  21211: (value) => `The 'To' number ${value} is not a valid phone number.`,
  21212: (value) =>
    `The 'From' number ${value} is not a valid phone number, shortcode, or alphanumeric sender ID.`,
};
