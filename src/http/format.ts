// Timestamp and number formats of each surface.

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** The last second formatted, since list pages and busy servers format the same few instants again and again. */
let lastSecond = Number.NaN;
let lastText = "";

/** RFC 2822 in UTC, as Twilio writes dates: "Tue, 31 Aug 2010 20:36:28 +0000". */
export function rfc2822(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = formatRfc2822(second * 1000);
    lastSecond = second;
  }
  return lastText;
}

function formatRfc2822(ms: number): string {
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
