// The shape of GET /__sandbox/state: the whole sandbox as plain JSON, as `sandbox.snapshot()` writes it.
import { z } from "zod";
import { accountSchema } from "../../domain/account.js";
import { sid } from "../../domain/fields.js";
import { storeSnapshotSchema } from "../../domain/store.js";

/**
 * An account as stored: the record schema ends in a transform that fills in the test credentials, which
 * JSON Schema cannot express, so the stored shape (test credentials always present) is spelled out here.
 */
const storedAccount = z.lazy(() =>
  accountSchema.in.extend({
    test_account_sid: sid("AC"),
    test_auth_token: z.string().min(1),
  }),
);

export const sandboxSnapshotSchema = z.lazy(() =>
  z.strictObject({
    format: z.literal("voice-sandbox/1"),
    clock: z.strictObject({ now: z.number().int() }),
    /** The id generator's four state words (xoshiro128**). */
    ids: z.tuple([z.number(), z.number(), z.number(), z.number()]),
    store: storeSnapshotSchema.extend({ accounts: z.array(storedAccount) }).strict(),
  }),
);
