import { createHash } from 'node:crypto';

/**
 * Which devices each live instance should take or give up (a pure function: every instance computes the
 * same plan from the same facts, so no coordinator is needed).
 *
 * Goals, in order:
 * 1. Balanced: every device on a live instance, counts differing by at most one.
 * 2. Minimal moves: a device stays where it is unless its holder is gone, or its holder has more than its
 *    share; the instances allowed the one extra device (when the count does not divide) are those that hold
 *    the most already. The number of moves is then the lower bound: orphans plus the unavoidable excess.
 * 3. Moves back: each device ranks the instances by a hash of (device, instance) (rendezvous hashing). An
 *    instance over its share gives up first the devices that rank it lowest, and a device to be placed goes
 *    to its best-ranked instance with room. From an empty start devices sit on their best-ranked instance,
 *    so when an instance dies its devices spread by the same ranking, and when it returns the others give
 *    up exactly those (they rank the returning instance above their stand-in holder) and they move back.
 */

export interface DeviceHolding {
  key: string;
  /** The instance holding it now, or null. A holder not among the live instances counts as gone. */
  holder: string | null;
}

export interface Move {
  key: string;
  /** null when the device had no live holder. */
  from: string | null;
  to: string;
}

export interface BalancePlan {
  /** Where every device should be: a live instance, or null when no instance is live. */
  target: Map<string, string | null>;
  /** The devices that change holder, by key. */
  moves: Move[];
}

/** A device's score for an instance: the higher, the more the device prefers it (stable, uniform). */
export function affinity(key: string, instance: string): number {
  const digest = createHash('sha1').update(key).update('\u0000').update(instance).digest();
  // 48 bits are plenty to order a few hundred instances and stay an exact integer.
  return digest.readUIntBE(0, 6);
}

/** Instances ordered by a device's preference, best first (ties, never seen in practice, by id). */
function ranking(key: string, instances: string[]): string[] {
  return instances
    .map((id) => ({ id, score: affinity(key, id) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((x) => x.id);
}

/** Devices ordered so the strongest claim on a first choice is placed first (contention settled by preference). */
function byClaim(keys: string[], rankOf: (key: string) => string[]): string[] {
  return keys
    .map((key) => ({ key, best: affinity(key, rankOf(key)[0]!) }))
    .sort((a, b) => b.best - a.best || (a.key < b.key ? -1 : 1))
    .map((x) => x.key);
}

/** Each device in `keys` to its best-ranked instance with room (count below share); mutates count and target. */
function place(
  keys: string[],
  rankOf: (key: string) => string[],
  count: Map<string, number>,
  share: Map<string, number>,
  target: Map<string, string | null>,
) {
  for (const key of byClaim(keys, rankOf)) {
    const to = rankOf(key).find((id) => count.get(id)! < share.get(id)!)!;
    count.set(to, count.get(to)! + 1);
    target.set(key, to);
  }
}

/**
 * Shares: `base` devices each, the `extra` ones to the instances holding the most (fewest moves); ties to
 * those the ideal placement gives one extra, then by id.
 */
function sharesOf(
  live: string[],
  held: Map<string, string[]>,
  idealShare: Map<string, number>,
  base: number,
  extra: number,
): Map<string, number> {
  return new Map<string, number>(
    [...live]
      .sort(
        (a, b) =>
          held.get(b)!.length - held.get(a)!.length ||
          idealShare.get(b)! - idealShare.get(a)! ||
          (a < b ? -1 : 1),
      )
      .map((id, i) => [id, base + (i < extra ? 1 : 0)]),
  );
}

/**
 * The order in which an instance over its share gives up its devices: first those that are not ideally its
 * own (stand-ins it took while their instance was away), then those that rank it lowest.
 */
function shedOrder(
  mine: string[],
  id: string,
  ideal: Map<string, string | null>,
  rankOf: (key: string) => string[],
): string[] {
  return mine
    .map((key) => ({
      key,
      foreign: ideal.get(key) === id ? 0 : 1,
      rank: rankOf(key).indexOf(id),
      score: affinity(key, id),
    }))
    .sort((a, b) => b.foreign - a.foreign || b.rank - a.rank || a.score - b.score || (a.key < b.key ? -1 : 1))
    .map((x) => x.key);
}

export function balance(liveInstances: readonly string[], devices: readonly DeviceHolding[]): BalancePlan {
  const live = [...new Set(liveInstances)].sort();
  const ordered = [...devices].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 1; i < ordered.length; i++)
    if (ordered[i]!.key === ordered[i - 1]!.key) throw new Error(`device ${ordered[i]!.key} listed twice`);

  const target = new Map<string, string | null>();
  if (live.length === 0) {
    for (const d of ordered) target.set(d.key, null);
    return { target, moves: [] };
  }

  const rankings = new Map<string, string[]>();
  const rankOf = (key: string) => {
    let r = rankings.get(key);
    if (!r) rankings.set(key, (r = ranking(key, live)));
    return r;
  };
  const base = Math.floor(ordered.length / live.length);
  const extra = ordered.length % live.length;
  const keys = ordered.map((d) => d.key);

  // The ideal placement for this set of live instances, from scratch: what an empty start gives, and what a
  // returning instance's devices are recognised by (they are ideally its own, not their stand-in holder's).
  const idealShare = new Map(live.map((id, i) => [id, base + (i < extra ? 1 : 0)]));
  const ideal = new Map<string, string | null>();
  place(keys, rankOf, new Map(live.map((id) => [id, 0])), idealShare, ideal);

  const liveSet = new Set(live);
  const held = new Map<string, string[]>(live.map((id) => [id, []]));
  const orphans: string[] = [];
  for (const d of ordered) {
    if (d.holder !== null && liveSet.has(d.holder)) held.get(d.holder)!.push(d.key);
    else orphans.push(d.key);
  }

  const share = sharesOf(live, held, idealShare, base, extra);

  // Keep what fits; what does not joins the orphans in the pool.
  const pool: string[] = [...orphans];
  const count = new Map<string, number>();
  for (const id of live) {
    const mine = held.get(id)!;
    const over = mine.length - share.get(id)!;
    const shed = new Set(over > 0 ? shedOrder(mine, id, ideal, rankOf).slice(0, over) : []);
    pool.push(...shed);
    const kept = mine.filter((key) => !shed.has(key));
    for (const key of kept) target.set(key, id);
    count.set(id, kept.length);
  }

  // Place the pool: first every device whose ideal instance has room goes there (a returning instance gets
  // its own back), then the rest to their best-ranked instance with room.
  const rest: string[] = [];
  for (const key of pool.sort()) {
    const to = ideal.get(key)!;
    if (count.get(to)! < share.get(to)!) {
      count.set(to, count.get(to)! + 1);
      target.set(key, to);
    } else rest.push(key);
  }
  place(rest, rankOf, count, share, target);

  const moves = ordered
    .filter((d) => target.get(d.key) !== d.holder)
    .map((d) => ({
      key: d.key,
      from: d.holder !== null && liveSet.has(d.holder) ? d.holder : null,
      to: target.get(d.key)!,
    }));
  return { target, moves };
}

/** One instance's part of a plan: what to acquire and what to release. */
export function movesFor(plan: BalancePlan, instance: string): { take: string[]; give: string[] } {
  return {
    take: plan.moves.filter((m) => m.to === instance).map((m) => m.key),
    give: plan.moves.filter((m) => m.from === instance).map((m) => m.key),
  };
}
