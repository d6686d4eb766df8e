// The newest `limit` rows of a list kept oldest first, newest at the top.
export function newestFirst<T>(rows: readonly T[], limit: number): T[] {
  return rows.slice(Math.max(0, rows.length - limit)).reverse();
}
