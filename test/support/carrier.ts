// Carrier API test helpers: JSON:API request documents, and refusals that must leave the state unchanged.
import { expect } from "vitest";
import type { CallResult, DoorContext } from "./doors.js";

/** A request document: `{data: {type, attributes}}`, with `id` for updates and optional relationships. */
export function document(
  type: string,
  attributes: Record<string, unknown>,
  extra: { id?: string; relationships?: Record<string, unknown> } = {},
) {
  return {
    data: {
      type,
      ...(extra.id ? { id: extra.id } : {}),
      attributes,
      ...(extra.relationships ? { relationships: extra.relationships } : {}),
    },
  };
}

/** Sends a request that must be refused with `status` and a first error like `error`; nothing may change. */
export async function expectRefused(
  ctx: DoorContext,
  send: () => Promise<CallResult>,
  status: number,
  error: Record<string, unknown> = {},
): Promise<CallResult> {
  const before = JSON.stringify(ctx.sandbox.snapshot());
  const res = await send();
  expect(res.status, res.text).toBe(status);
  expect(res.json.errors[0]).toMatchObject({ status: String(status), ...error });
  expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
  return res;
}
