/**
 * Totals of list queries, kept briefly. Paging through a list asks the same count again and again; on a
 * large area the count walks thousands of index entries each time. An entry is keyed by the compiled SQL
 * and its parameters and dropped when any write is audited in this process (every write through the
 * API is) or after a few seconds (writes from elsewhere: another server instance, device gateways).
 */
const TTL_MS = 5_000;
const MAX_ENTRIES = 2_000;

interface Entry {
  total: number;
  at: number;
  generation: number;
}

const entries = new Map<string, Entry>();
let generation = 0;

/** Every write invalidates every cached total: simple and always safe. */
export function invalidateCounts(): void {
  generation++;
}

export async function cachedCount(key: string, now: number, count: () => Promise<number>): Promise<number> {
  const hit = entries.get(key);
  if (hit && hit.generation === generation && now - hit.at < TTL_MS) return hit.total;
  const startedAt = generation;
  const total = await count();
  // A write that landed while counting makes this total doubtful: do not keep it.
  if (startedAt === generation) {
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    entries.set(key, { total, at: now, generation });
  }
  return total;
}
