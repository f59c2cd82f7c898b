/**
 * `--shard i/n`: a deterministic split of the file list for CI matrices and
 * several machines.
 */

/** Parses `i/n` (1-based); returns null when it is not a valid shard. */
export function parseShard(text: string): { index: number; count: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (m === null) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && index >= 1 && index <= count ? { index, count } : null;
}

/** Keeps shard `index` of `count`: every count-th item, so shards are disjoint and together hold everything. */
export function shardOf<T>(items: readonly T[], shard: { index: number; count: number }): T[] {
  return items.filter((_, k) => k % shard.count === shard.index - 1);
}
