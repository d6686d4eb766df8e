// Injected faults: error statuses and delays on API requests, failing transcriptions, numbers that fail calls.

import type { EngineContext } from "./context.js";
import type { Fault, FaultKind, FaultRegistry, HttpFault } from "./fault-types.js";

/** `*` matches any run of characters; everything else literally. */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`);
}

export function createFaultRegistry(): FaultRegistry {
  // Ids come from a counter of their own, not from the seeded generator, so faults never shift sids.
  let nextId = 1;
  let faults: Fault[] = [];
  const patterns = new Map<string, RegExp>();

  const inForce = (fault: Fault, now: number) =>
    (fault.until === undefined || now < fault.until) &&
    (fault.remaining === undefined || fault.remaining > 0);
  const prune = (now: number) => {
    faults = faults.filter((fault) => inForce(fault, now));
  };
  const spend = <F extends Fault>(fault: F): F => {
    if (fault.remaining !== undefined) fault.remaining -= 1;
    return { ...fault };
  };
  const matches = (fault: Fault, key: string): boolean => {
    if (fault.kind === "transcription") return fault.call_sid === undefined || fault.call_sid === key;
    if (fault.kind === "number") return fault.number === key;
    return false;
  };

  return {
    add(input, now) {
      const { count, forMs, ...rest } = input;
      const fault = {
        ...rest,
        id: `fault_${nextId++}`,
        created_at: now,
        ...(count !== undefined ? { remaining: count } : {}),
        ...(forMs !== undefined ? { until: now + forMs } : {}),
      } as Fault;
      if (fault.kind === "http") patterns.set(fault.id, globToRegExp(fault.path));
      faults.push(fault);
      return { ...fault };
    },
    list(now) {
      prune(now);
      return faults.map((fault) => ({ ...fault }));
    },
    remove(id) {
      const before = faults.length;
      faults = faults.filter((fault) => fault.id !== id);
      patterns.delete(id);
      return faults.length < before;
    },
    clear() {
      faults = [];
      patterns.clear();
    },
    takeHttp(method, path, now) {
      if (faults.length === 0) return undefined;
      prune(now);
      const upper = method.toUpperCase();
      const found = faults.find(
        (fault): fault is HttpFault =>
          fault.kind === "http" &&
          (fault.method === undefined || fault.method === upper) &&
          (patterns.get(fault.id)?.test(path) ?? false),
      );
      return found ? spend(found) : undefined;
    },
    take(kind, key, now) {
      if (faults.length === 0) return undefined;
      prune(now);
      const found = faults.find((fault) => fault.kind === kind && matches(fault, key));
      return found ? (spend(found) as never) : undefined;
    },
  };
}

/**
 * For the engine: the fault of `kind` in force for `key`, if any, spending one use. `key` is the call sid
 * for transcriptions (a fault without `call_sid` matches every call) and the E.164 number for numbers.
 */
export function consumeFault<K extends Exclude<FaultKind, "http">>(
  ctx: EngineContext,
  kind: K,
  key: string,
): Extract<Fault, { kind: K }> | undefined {
  return ctx.faults?.take(kind, key, ctx.clock.now());
}
