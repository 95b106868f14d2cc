import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balance, movesFor, type BalancePlan, type DeviceHolding } from '../src/platform/cluster/index.ts';

const devices = (n: number, holder: string | null = null): DeviceHolding[] =>
  Array.from({ length: n }, (_, i) => ({ key: `wg-${i + 1}`, holder }));

/** The holdings once every move of the plan is done. */
const apply = (plan: BalancePlan): DeviceHolding[] =>
  [...plan.target].map(([key, holder]) => ({ key, holder })).sort((x, y) => (x.key < y.key ? -1 : 1));

const counts = (holdings: DeviceHolding[]) => {
  const out: Record<string, number> = {};
  for (const d of holdings) if (d.holder) out[d.holder] = (out[d.holder] ?? 0) + 1;
  return out;
};

const keysOf = (holdings: DeviceHolding[], holder: string) =>
  holdings
    .filter((d) => d.holder === holder)
    .map((d) => d.key)
    .sort();

/** The fewest moves any balanced placement needs, by trying every placement (small cases only). */
function bruteForceMinMoves(live: string[], holdings: DeviceHolding[]): number {
  const n = holdings.length;
  const k = live.length;
  let best = Infinity;
  const place = new Array<number>(n).fill(0);
  const total = k ** n;
  for (let code = 0; code < total; code++) {
    let c = code;
    for (let i = 0; i < n; i++) {
      place[i] = c % k;
      c = Math.floor(c / k);
    }
    const per = new Array<number>(k).fill(0);
    for (const p of place) per[p]!++;
    if (Math.max(...per) - Math.min(...per) > 1) continue;
    let moves = 0;
    for (let i = 0; i < n; i++) if (live[place[i]!] !== holdings[i]!.holder) moves++;
    best = Math.min(best, moves);
  }
  return best;
}

describe('cluster balance (pure)', () => {
  it('spreads devices from an empty start evenly, every one placed', () => {
    const plan = balance(['a', 'b', 'c'], devices(100));
    const after = apply(plan);
    expect(Object.values(counts(after)).sort()).toEqual([33, 33, 34]);
    expect(after.every((d) => ['a', 'b', 'c'].includes(d.holder!))).toBe(true);
    expect(plan.moves).toHaveLength(100);
    expect(plan.moves.every((m) => m.from === null)).toBe(true);
  });

  it('is stable and deterministic: a balanced state moves nothing, whatever the order of the input', () => {
    const after = apply(balance(['a', 'b', 'c'], devices(100)));
    expect(balance(['c', 'a', 'b'], after).moves).toEqual([]);
    const shuffled = [...after].reverse();
    const again = balance(['b', 'c', 'a', 'b'], shuffled);
    expect(again.moves).toEqual([]);
    expect([...again.target].sort()).toEqual([...balance(['a', 'b', 'c'], after).target].sort());
  });

  it('moves only the devices of an instance that died, spread over the others', () => {
    const before = apply(balance(['a', 'b', 'c'], devices(99)));
    const bOwned = keysOf(before, 'b');
    const plan = balance(['a', 'c'], before);
    expect(plan.moves.map((m) => m.key).sort()).toEqual(bOwned);
    expect(plan.moves.every((m) => m.from === null && m.to !== 'b')).toBe(true);
    const after = apply(plan);
    expect(Math.abs(counts(after).a! - counts(after).c!)).toBeLessThanOrEqual(1);
    expect(movesFor(plan, 'a').give).toEqual([]);
    expect(movesFor(plan, 'a').take.length + movesFor(plan, 'c').take.length).toBe(33);
  });

  it('moves exactly its former devices back to an instance that returns, and nothing else', () => {
    for (const [n, k] of [
      [99, 3],
      [200, 4],
      [60, 5],
      [24, 2],
    ] as const) {
      const ids = Array.from({ length: k }, (_, i) => `inst-${i}`);
      const start = apply(balance(ids, devices(n)));
      const away = ids[1]!;
      const whileAway = apply(
        balance(
          ids.filter((id) => id !== away),
          start,
        ),
      );
      const plan = balance(ids, whileAway);
      const label = `${n} devices on ${k} instances`;
      expect(
        plan.moves.every((m) => m.to === away),
        label,
      ).toBe(true);
      expect(plan.moves.map((m) => m.key).sort(), label).toEqual(keysOf(start, away));
      expect(apply(plan), label).toEqual(start);
      expect(movesFor(plan, away).take).toHaveLength(n / k);
    }
  });

  it('when the count does not divide, a returning instance gets back all its devices but at most one', () => {
    for (const [n, k] of [
      [100, 3],
      [7, 4],
      [203, 5],
    ] as const) {
      const ids = Array.from({ length: k }, (_, i) => `i${i}`);
      const start = apply(balance(ids, devices(n)));
      for (const away of ids) {
        const whileAway = apply(
          balance(
            ids.filter((id) => id !== away),
            start,
          ),
        );
        const after = apply(balance(ids, whileAway));
        const former = keysOf(start, away);
        const back = keysOf(after, away).filter((key) => former.includes(key));
        expect(back.length, `${n}/${k}, ${away} returns`).toBeGreaterThanOrEqual(former.length - 1);
        expect(
          Math.max(...Object.values(counts(after))) - Math.min(...Object.values(counts(after))),
        ).toBeLessThanOrEqual(1);
      }
    }
  });

  it('a new instance takes only what balance requires from the others', () => {
    const before = apply(balance(['a', 'b'], devices(90)));
    const plan = balance(['a', 'b', 'c'], before);
    expect(plan.moves).toHaveLength(30);
    expect(plan.moves.every((m) => m.to === 'c' && (m.from === 'a' || m.from === 'b'))).toBe(true);
    expect(movesFor(plan, 'a').give.length + movesFor(plan, 'b').give.length).toBe(30);
  });

  it('with no live instance, places nothing; a device listed twice is refused', () => {
    const plan = balance([], devices(3, 'gone'));
    expect(plan.moves).toEqual([]);
    expect([...plan.target.values()]).toEqual([null, null, null]);
    expect(() =>
      balance(
        ['a'],
        [
          { key: 'x', holder: null },
          { key: 'x', holder: 'a' },
        ],
      ),
    ).toThrow(/listed twice/);
  });

  it('always balances with the fewest moves any balanced placement needs (checked by brute force)', () => {
    const instance = fc.constantFrom('a', 'b', 'c', 'd', 'gone');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 3 }),
        fc.array(fc.option(instance, { nil: null }), { minLength: 0, maxLength: 7 }),
        (live: string[], holders: (string | null)[]) => {
          const holdings = holders.map((holder, i) => ({ key: `k${i}`, holder }));
          const plan = balance(live, holdings);
          const after = apply(plan);
          expect(after.every((d) => live.includes(d.holder!))).toBe(true);
          const per = live.map((id) => after.filter((d) => d.holder === id).length);
          expect(Math.max(...per) - Math.min(...per)).toBeLessThanOrEqual(1);
          expect(plan.moves).toHaveLength(bruteForceMinMoves([...live].sort(), holdings));
          // Every move is a real change, named from the live holder it leaves (or none).
          for (const m of plan.moves) {
            const was = holdings.find((h) => h.key === m.key)!.holder;
            expect(m.to).not.toBe(was);
            expect(m.from).toBe(was !== null && live.includes(was) ? was : null);
          }
        },
      ),
      { numRuns: 300, seed: 20261101 },
    );
  });
});
