// One shard of a load run: which consecutive block of the run's calls it plays (`--shard i/n`).
import { LoadUsageError } from "./usage-error.js";

/** Shard `index` of `count` (both 1-based, as `--shard 2/3` writes them). */
export interface LoadShard {
  index: number;
  count: number;
}

/** Which part of the whole run a result is: shard `index` of `count`, playing calls `firstCall`..`lastCall` of `totalCalls`. */
export interface LoadShardInfo extends LoadShard {
  firstCall: number;
  lastCall: number;
  totalCalls: number;
}

const shardForm = /^\s*(\d+)\s*\/\s*(\d+)\s*$/;

/** Reads `i/n` as typed (`--shard`, VOICE_SANDBOX_LOAD_SHARD); throws a usage error showing the form. */
export function parseLoadShard(text: string): LoadShard {
  const m = shardForm.exec(text);
  if (!m)
    throw new LoadUsageError(
      `--shard must be i/n, this run's shard and the number of shards, e.g. 2/3 (got ${JSON.stringify(text)})`,
    );
  return { index: Number(m[1]), count: Number(m[2]) };
}

/**
 * The calls the shard plays: the run's `calls` cut into `count` consecutive blocks as even as can be (the
 * later blocks one longer when they do not divide), so that call n is the same call whichever shard plays it.
 * Throws a usage error for a shard outside 1..count or more shards than calls.
 */
export function shardBlock(calls: number, shard: LoadShard | undefined): LoadShardInfo {
  if (shard === undefined) return { index: 1, count: 1, firstCall: 1, lastCall: calls, totalCalls: calls };
  const { index, count } = shard;
  if (!Number.isInteger(count) || count < 1)
    throw new LoadUsageError(`shard count must be a whole number, 1 or more (got ${String(count)})`);
  if (!Number.isInteger(index) || index < 1 || index > count)
    throw new LoadUsageError(
      `shard must be from 1/${count} to ${count}/${count}: the first shard is 1 (got ${String(index)}/${count})`,
    );
  if (count > calls)
    throw new LoadUsageError(
      `${count} shards are more than the run's ${calls} calls: each shard plays at least one call`,
    );
  return { index, count, ...blockCalls(calls, index, count), totalCalls: calls };
}

/** The first and last call of block `index` of `count` over `calls` calls (no checks). */
export const blockCalls = (calls: number, index: number, count: number) => ({
  firstCall: Math.floor(((index - 1) * calls) / count) + 1,
  lastCall: Math.floor((index * calls) / count),
});
