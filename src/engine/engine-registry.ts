// Finds the running call engine of a sandbox from its engine context (record-level call control hands over to it).
import type { CallEngine } from "./call-engine.js";
import type { EngineContext } from "./context.js";

const engines = new WeakMap<object, CallEngine>();

export function attachCallEngine(ctx: EngineContext, engine: CallEngine): void {
  engines.set(ctx.store, engine);
}

/** The call engine driving this context's calls, if one is running (a bare context has none). */
export function callEngineOf(ctx: EngineContext): CallEngine | undefined {
  return engines.get(ctx.store);
}
