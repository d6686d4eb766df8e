// Counts SMS segments as carriers do: GSM-7 (160 alone, 153 per part) or UCS-2 (70 alone, 67 per part).

/** The GSM 03.38 default alphabet (one septet each). The escape character itself is not a user character. */
const gsmBasic = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
/** The GSM 03.38 extension table: each is sent as escape + character, so it costs two septets. */
const gsmExtension = new Set("\f^{}\\[~]|€");

export type SmsEncoding = "GSM-7" | "UCS-2";

export interface SegmentCount {
  encoding: SmsEncoding;
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the body takes. */
  units: number;
}

export function smsEncoding(body: string): SmsEncoding {
  for (const char of body) {
    if (!gsmBasic.has(char) && !gsmExtension.has(char)) return "UCS-2";
  }
  return "GSM-7";
}

/**
 * Segments of `body`. A body that fits one message uses the whole message; a longer one is split into
 * parts that each lose room to the concatenation header (7 septets / 3 code units). Carriers never split
 * an escape sequence or a surrogate pair across parts, so a part may end one unit short.
 * An empty body (a media-only message) still counts as one segment, as Twilio reports it.
 */
export function countSegments(body: string): SegmentCount {
  const encoding = smsEncoding(body);
  // Each character's cost in units: septets for GSM-7, UTF-16 code units for UCS-2.
  const costs = [...body].map((char) =>
    encoding === "GSM-7" ? (gsmExtension.has(char) ? 2 : 1) : char.length,
  );
  const units = costs.reduce((sum, cost) => sum + cost, 0);
  const single = encoding === "GSM-7" ? 160 : 70;
  const part = encoding === "GSM-7" ? 153 : 67;
  if (units <= single) return { encoding, segments: 1, units };
  let segments = 1;
  let used = 0;
  for (const cost of costs) {
    if (used + cost > part) {
      segments++;
      used = 0;
    }
    used += cost;
  }
  return { encoding, segments, units };
}
