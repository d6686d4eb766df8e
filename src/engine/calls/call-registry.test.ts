// The engine keeps the newest alerts, and finds one call's among them by its sid as a pass over all of them would.
import { describe, expect, it } from "vitest";
import type { EngineServices } from "../context/engine-services.js";
import { type Alert, alertsKept, createCallRegistry } from "./call-registry.js";

/** Only what keeping alerts reads: the clock. */
const services = { ctx: { clock: { now: () => 0 } }, scheduler: {} } as unknown as EngineServices;

describe("alerts kept by the call registry", () => {
  it("keeps the newest, oldest first, and answers one call's as a filter of all would, its first ones dropped first", () => {
    const registry = createCallRegistry(services);
    // CA0 raises the first 100 and then no more, so all of its alerts leave; CA1 and CA2 alternate after.
    const sidOf = (n: number) => (n < 100 ? "CA0" : n % 2 === 0 ? "CA1" : "CA2");
    const total = alertsKept + 150;
    for (let n = 0; n < total; n++)
      registry.addAlert({ at: n, callSid: sidOf(n), code: 11200, level: "error", message: `alert ${n}` });
    const all = registry.alerts();
    expect(all.map((a: Alert) => a.at)).toEqual(
      Array.from({ length: alertsKept }, (_, i) => total - alertsKept + i),
    );
    for (const sid of ["CA0", "CA1", "CA2", "CA9"])
      expect(registry.alerts(sid), sid).toEqual(all.filter((a) => a.callSid === sid));
    expect(registry.alerts("CA0")).toEqual([]);
    registry.clear();
    expect(registry.alerts()).toEqual([]);
    expect(registry.alerts("CA1")).toEqual([]);
  });
});
