// A duration in an admin body: "30s", "1m30s", "250ms", or a number of milliseconds.
import { z } from "zod";
import { parseDuration } from "../../engine/duration.js";

export const durationField = z
  .union([z.string(), z.number()], {
    error: 'must be a duration such as "30s", "1m30s", "250ms" or a number of ms',
  })
  .transform((value, ctx) => {
    try {
      return parseDuration(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });
