// Exact decimal arithmetic on money strings ("1.15", "-0.01300", "0.000016"): BigInt with a scale, never floats.

export interface Decimal {
  /** The value times 10^scale. */
  units: bigint;
  scale: number;
}

export function parseDecimal(text: string): Decimal {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal string: ${text}`);
  const fraction = match[3] ?? "";
  const units = BigInt(match[2]! + fraction);
  return { units: match[1] === "-" ? -units : units, scale: fraction.length };
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

export function multiplyDecimal(value: Decimal, factor: number | bigint): Decimal {
  return { units: value.units * BigInt(factor), scale: value.scale };
}

export function negateDecimal(value: Decimal): Decimal {
  return { units: -value.units, scale: value.scale };
}

/** Writes `value` with exactly `places` decimals, rounding half away from zero. */
export function formatDecimal(value: Decimal, places: number): string {
  let units: bigint;
  if (places >= value.scale) {
    units = rescale(value, places);
  } else {
    const divisor = 10n ** BigInt(value.scale - places);
    const magnitude = value.units < 0n ? -value.units : value.units;
    const rounded = (magnitude + divisor / 2n) / divisor;
    units = value.units < 0n ? -rounded : rounded;
  }
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const fraction = places > 0 ? `.${digits.slice(digits.length - places)}` : "";
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

export const sumDecimals = (values: string[]): Decimal =>
  values.map(parseDecimal).reduce(addDecimals, { units: 0n, scale: 0 });
