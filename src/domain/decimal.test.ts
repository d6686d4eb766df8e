// Exact money arithmetic: sums, products and rounding without floating point.
import { describe, expect, it } from "vitest";
import { formatDecimal, multiplyDecimal, parseDecimal, sumDecimals } from "./decimal.js";

describe("decimal strings", () => {
  it("adds prices exactly where floats would drift", () => {
    expect(formatDecimal(sumDecimals(["0.1", "0.2", "1.15"]), 2)).toBe("1.45");
  });
  it("multiplies a per-character price by a count", () => {
    expect(formatDecimal(multiplyDecimal(parseDecimal("0.000016"), 125), 6)).toBe("0.002000");
  });
  it("rounds half away from zero and keeps the sign", () => {
    expect(formatDecimal(parseDecimal("-0.013005"), 5)).toBe("-0.01301");
    expect(formatDecimal(parseDecimal("2.5"), 0)).toBe("3");
    expect(formatDecimal(parseDecimal("-0.0000001"), 2)).toBe("0.00");
  });
});
