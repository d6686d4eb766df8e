// Twilio's date list filters: `StartTime=2026-01-01`, `StartTime<=...` and `StartTime>=...` (keys `X<` and `X>`), inclusive.
import { z } from "zod";

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
const dayMs = 86_400_000;

/** A date (YYYY-MM-DD) or an ISO 8601 date-time, as the twilio client sends them. */
export const formDate = z.lazy(() =>
  z.string().refine((value) => {
    if (dateOnly.test(value)) return !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
    return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
  }, "must be a date (YYYY-MM-DD) or an ISO 8601 date-time such as 2026-01-01T10:00:00Z"),
);

/** The query schema entries for one date filter, e.g. `dateFilterQuery("StartTime")`. */
export const dateFilterQuery = (name: string) => ({
  [name]: formDate.optional(),
  [`${name}<`]: formDate.optional(),
  [`${name}>`]: formDate.optional(),
});

/** The window [from, to] (inclusive) a value covers: a whole UTC day for a date, one second for a date-time. */
function window(value: string): [number, number] {
  if (dateOnly.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    return [start, start + dayMs - 1];
  }
  const start = Math.floor(Date.parse(value) / 1000) * 1000;
  return [start, start + 999];
}

/**
 * A predicate over an instant (ms) for the filters `name`, `name<` and `name>` in `query`, plus the
 * filters to echo into page URIs. Instants that are null never match a given filter.
 */
export function dateFilter(
  query: Record<string, unknown>,
  name: string,
): { matches: (ms: number | null) => boolean; echo: [string, string][] } {
  const exact = query[name] as string | undefined;
  const before = query[`${name}<`] as string | undefined;
  const after = query[`${name}>`] as string | undefined;
  const echo: [string, string][] = [];
  if (exact) echo.push([name, exact]);
  if (before) echo.push([`${name}<`, before]);
  if (after) echo.push([`${name}>`, after]);
  return {
    echo,
    matches(ms) {
      if (!exact && !before && !after) return true;
      if (ms === null) return false;
      if (exact) {
        const [from, to] = window(exact);
        if (ms < from || ms > to) return false;
      }
      if (before && ms > window(before)[1]) return false;
      if (after && ms < window(after)[0]) return false;
      return true;
    },
  };
}
