// Timestamps the engine writes into webhook parameters: RFC 2822 in UTC, as Twilio sends them.

const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** "Tue, 31 Aug 2010 20:36:28 +0000" (Twilio's Timestamp and RecordingStartTime parameters). */
export function rfc2822(ms: number): string {
  const d = new Date(ms);
  return (
    `${days[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`
  );
}
