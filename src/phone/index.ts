// The phone API: simulated phones and callers for tests on the virtual clock, in-process or against a server.
export { PhoneExpectationError } from "./expectation-error.js";
export { Phone, type PhoneOptions } from "./phone.js";
export type { AgentMetrics, TurnRecord } from "./phone-agent.js";
export { connectPhones, createPhoneBook, type PhoneBook, type PhoneBookOptions } from "./phone-book.js";
export { PhoneCall, type Pickup, type TextPattern, type WaitOptions } from "./phone-call.js";
export { PhoneMessage } from "./phone-message.js";
export type { MessageView } from "./sandbox-surface.js";
export type { PhoneTransportOptions } from "./transport.js";
