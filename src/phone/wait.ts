// Waiting on the virtual clock: look, and if it is not there yet, move time a little and look again.
import type { PhoneExpectationError } from "./expectation-error.js";
import type { SandboxSurface } from "./sandbox-surface.js";

/** Virtual time moved between looks: short enough that a caller acts when a person would. */
export const tickMs = 100;

/** How long an expectation waits by default, in virtual time. */
export const defaultTimeoutMs = 30_000;

export const seconds = (ms: number) => `${ms / 1000} s`;

/**
 * Looks with `probe` until it gives a value, advancing the virtual clock `tickMs` at a time; after
 * `timeoutMs` of virtual time it fails with `describe()`'s evidence.
 */
export async function waitFor<T>(
  surface: SandboxSurface,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  fail: () => Promise<PhoneExpectationError>,
): Promise<T> {
  for (let waited = 0; ; waited += tickMs) {
    const found = await probe();
    if (found !== undefined) return found;
    if (waited >= timeoutMs) throw await fail();
    await surface.advance(tickMs);
  }
}
