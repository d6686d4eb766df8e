// Segment counting against the GSM-7 and UCS-2 limits carriers apply.
import { describe, expect, it } from "vitest";
import { countSegments, smsEncoding } from "./message-segments.js";

describe("countSegments", () => {
  it("fits 160 GSM-7 characters in one segment and splits 161 into two", () => {
    expect(countSegments("a".repeat(160))).toEqual({ encoding: "GSM-7", segments: 1, units: 160 });
    expect(countSegments("a".repeat(161))).toEqual({ encoding: "GSM-7", segments: 2, units: 161 });
  });

  it("uses 153 characters per part once a GSM-7 body is split", () => {
    expect(countSegments("a".repeat(306)).segments).toBe(2);
    expect(countSegments("a".repeat(307)).segments).toBe(3);
  });

  it("counts extension characters such as € and { as two septets", () => {
    expect(countSegments("€".repeat(80))).toEqual({ encoding: "GSM-7", segments: 1, units: 160 });
    expect(countSegments(`${"€".repeat(80)}a`).segments).toBe(2);
  });

  it("never splits an escape sequence across parts", () => {
    // 152 plain septets then one extension character: 154 septets would cross the 153 boundary.
    expect(countSegments(`${"a".repeat(152)}€${"a".repeat(10)}`).segments).toBe(2);
    expect(countSegments(`${"a".repeat(152)}€${"a".repeat(152)}`).segments).toBe(3);
  });

  it("switches to UCS-2 for any character outside GSM-7: 70 alone, 67 per part", () => {
    expect(smsEncoding("héllo")).toBe("GSM-7");
    expect(smsEncoding("hello ✓")).toBe("UCS-2");
    expect(countSegments("ж".repeat(70))).toEqual({ encoding: "UCS-2", segments: 1, units: 70 });
    expect(countSegments("ж".repeat(71)).segments).toBe(2);
    expect(countSegments("ж".repeat(134)).segments).toBe(2);
    expect(countSegments("ж".repeat(135)).segments).toBe(3);
  });

  it("counts emoji as two UCS-2 units and keeps the pair together", () => {
    expect(countSegments("😀".repeat(35))).toEqual({ encoding: "UCS-2", segments: 1, units: 70 });
    expect(countSegments("😀".repeat(36)).segments).toBe(2);
    // 66 units then an emoji (2 units) cannot fit a 67-unit part.
    expect(countSegments(`${"ж".repeat(66)}😀${"ж".repeat(10)}`).segments).toBe(2);
  });

  it("counts an empty body as one segment", () => {
    expect(countSegments("")).toEqual({ encoding: "GSM-7", segments: 1, units: 0 });
  });
});
