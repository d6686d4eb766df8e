// How the inspector writes times, prices and durations.

export const clockTime = (ms) => new Date(ms).toISOString().slice(11, 23);
export const dateTime = (ms) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);
export const offset = (ms) => `+${(ms / 1000).toFixed(1)} s`;
export const price = (value, unit) =>
  value === null || value === undefined ? "—" : `${value} ${unit ?? ""}`.trim();
export const seconds = (value) => (value === null || value === undefined ? "—" : `${value} s`);
export const isLive = (status) => status === "queued" || status === "ringing" || status === "in-progress";
