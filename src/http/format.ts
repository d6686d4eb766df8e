// Timestamp and number formats of each surface.

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** RFC 2822 in UTC, as Twilio writes dates: "Tue, 31 Aug 2010 20:36:28 +0000". */
export function rfc2822(ms: number): string {
  const d = new Date(ms);
  return (
    `${days[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`
  );
}

/** ISO 8601 in UTC with second precision, as the carrier API writes dates: "2024-10-01T06:10:31Z". */
export function iso8601(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export const rfc2822OrNull = (ms: number | null) => (ms === null ? null : rfc2822(ms));
export const iso8601OrNull = (ms: number | null) => (ms === null ? null : iso8601(ms));
