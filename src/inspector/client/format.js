// How the inspector writes times, prices and durations.

export const clockTime = (ms) => new Date(ms).toISOString().slice(11, 23);
export const dateTime = (ms) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);
/** Time since the call began, to the millisecond: `+0.812 s` (a markup fetch and its answer are milliseconds apart). */
export const offset = (ms) => `${ms < 0 ? "−" : "+"}${(Math.abs(ms) / 1000).toFixed(3)} s`;
/** The time of day of an ISO time, to the millisecond: `10:00:00.812`. */
export const timeOf = (iso) => clockTime(Date.parse(iso));
export const price = (value, unit) =>
  value === null || value === undefined ? "—" : `${value} ${unit ?? ""}`.trim();
export const seconds = (value) => (value === null || value === undefined ? "—" : `${value} s`);
export const isLive = (status) => status === "queued" || status === "ringing" || status === "in-progress";
