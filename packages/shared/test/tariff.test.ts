import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_PASS_UNITS,
  estimateSession,
  pricePass,
  priceSession,
  type Price,
  type Tariff,
} from '../src/index.ts';

const t = (
  ChargeType: number,
  TemporaryChargeType: number,
  UnitPriceCents: number,
  TimeUnit: number | null,
  FreeMinutes: number,
  CapCents: number | null,
) => ({ ChargeType, TemporaryChargeType, UnitPriceCents, TimeUnit, FreeMinutes, CapCents }) as Tariff;

/** The demo's rules: one of each temporary type, grace periods and caps, and both monthly types. */
const RULES = {
  parkHour: t(0, 1, 100, null, 15, 1000),
  parkUse: t(0, 3, 200, null, 30, null),
  chargeHour: t(3, 1, 50, null, 5, 600),
  chargeKwh: t(3, 2, 120, null, 5, 800),
  chargeKwhPlain: t(3, 2, 1, null, 0, null),
  chargeUse: t(3, 3, 150, null, 0, null),
  month: t(1, 0, 3000, 2, 0, null),
  monthCharge: t(2, 0, 6000, 2, 0, null),
};

const MIN = 60_000;
/** Local wall time in China (UTC+8, no daylight saving) → epoch ms. */
const cst = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h - 8, mi, s);
const T0 = cst(2026, 11, 1, 9);

interface Case {
  name: string;
  rule: keyof typeof RULES;
  start?: number;
  /** Elapsed milliseconds. */
  ms: number;
  wh?: number;
  expect: Partial<Price>;
}

const cases: Case[] = [
  // Zero length and under a minute: never billed, whatever the type.
  {
    name: 'zero length, timed',
    rule: 'chargeHour',
    ms: 0,
    expect: { AmountCents: 0, DurationMinutes: 0, Free: 'grace' },
  },
  {
    name: 'zero length, metered',
    rule: 'chargeKwhPlain',
    ms: 0,
    wh: 0,
    expect: { AmountCents: 0, Free: 'grace' },
  },
  {
    name: 'zero length, per use, no grace',
    rule: 'chargeUse',
    ms: 0,
    expect: { AmountCents: 0, Free: 'grace' },
  },
  {
    name: '59 s, per use, no grace',
    rule: 'chargeUse',
    ms: 59_999,
    expect: { AmountCents: 0, DurationMinutes: 0 },
  },
  {
    name: '1 min, per use, no grace',
    rule: 'chargeUse',
    ms: MIN,
    expect: { AmountCents: 150, Quantity: 1, Free: null },
  },
  {
    name: 'per use, 9 hours: one use, no cap',
    rule: 'chargeUse',
    ms: 9 * 60 * MIN,
    expect: { AmountCents: 150 },
  },
  // Grace: at most FreeMinutes whole minutes is free, beyond that the whole stay counts.
  {
    name: 'parking, exactly the 15 free minutes',
    rule: 'parkHour',
    ms: 15 * MIN + 59_000,
    expect: { AmountCents: 0, DurationMinutes: 15, Free: 'grace' },
  },
  {
    name: 'parking, 16 minutes: the whole first hour',
    rule: 'parkHour',
    ms: 16 * MIN,
    expect: { AmountCents: 100, Quantity: 1 },
  },
  {
    name: 'parking per use, 30 free minutes',
    rule: 'parkUse',
    ms: 30 * MIN,
    expect: { AmountCents: 0, Free: 'grace' },
  },
  {
    name: 'parking per use, 31 minutes',
    rule: 'parkUse',
    ms: 31 * MIN,
    expect: { AmountCents: 200, QuantityUnit: 'use' },
  },
  // Partial hours: a started hour is a whole hour; seconds are dropped first.
  { name: 'timed, 60 min', rule: 'parkHour', ms: 60 * MIN, expect: { AmountCents: 100, Quantity: 1 } },
  {
    name: 'timed, 60 min 59 s',
    rule: 'parkHour',
    ms: 60 * MIN + 59_000,
    expect: { AmountCents: 100, DurationMinutes: 60 },
  },
  {
    name: 'timed, 61 min',
    rule: 'parkHour',
    ms: 61 * MIN,
    expect: { AmountCents: 200, Quantity: 2, QuantityUnit: 'hour' },
  },
  // Caps.
  {
    name: 'timed, 10 h: exactly the cap, not capped',
    rule: 'parkHour',
    ms: 600 * MIN,
    expect: { AmountCents: 1000, GrossCents: 1000, Capped: false },
  },
  {
    name: 'timed, 10 h 1 min: capped',
    rule: 'parkHour',
    ms: 601 * MIN,
    expect: { AmountCents: 1000, GrossCents: 1100, Capped: true },
  },
  {
    name: 'timed, 3 days: capped per order',
    rule: 'parkHour',
    ms: 3 * 24 * 60 * MIN,
    expect: { AmountCents: 1000, Quantity: 72 },
  },
  {
    name: 'charging per hour, 12 h 30 min: capped',
    rule: 'chargeHour',
    ms: 750 * MIN,
    expect: { AmountCents: 600, GrossCents: 650, Capped: true },
  },
  // Crossing midnight, a month end and a year end: elapsed time only.
  {
    name: 'crossing midnight: 23:30 → 01:15 is 105 min, 2 hours',
    rule: 'parkHour',
    start: cst(2026, 11, 1, 23, 30),
    ms: cst(2026, 11, 2, 1, 15) - cst(2026, 11, 1, 23, 30),
    expect: { AmountCents: 200, DurationMinutes: 105 },
  },
  {
    name: 'crossing a month end: 31 Jan 22:00 → 1 Feb 03:01 is 6 started hours',
    rule: 'chargeHour',
    start: cst(2026, 1, 31, 22),
    ms: cst(2026, 2, 1, 3, 1) - cst(2026, 1, 31, 22),
    expect: { AmountCents: 300, Quantity: 6, DurationMinutes: 301 },
  },
  {
    name: 'crossing a leap month end: 28 Feb 2028 23:00 → 1 Mar 01:00 is 26 hours',
    rule: 'parkHour',
    start: cst(2028, 2, 28, 23),
    ms: cst(2028, 3, 1, 1) - cst(2028, 2, 28, 23),
    expect: { Quantity: 26, AmountCents: 1000, Capped: true },
  },
  {
    name: 'crossing a year end, metered',
    rule: 'chargeKwh',
    start: cst(2026, 12, 31, 23, 50),
    ms: 20 * MIN,
    wh: 1234,
    expect: { AmountCents: 148, Quantity: 1234, QuantityUnit: 'Wh' },
  },
  // Metered: Wh × price per kWh / 1000, half up to the cent.
  {
    name: 'metered, 1234 Wh at ¥1.20/kWh = 148.08 → 148',
    rule: 'chargeKwh',
    ms: 90 * MIN,
    wh: 1234,
    expect: { AmountCents: 148 },
  },
  {
    name: 'metered, 1 Wh = 0.12 cents → 0',
    rule: 'chargeKwh',
    ms: 90 * MIN,
    wh: 1,
    expect: { AmountCents: 0, Free: null },
  },
  {
    name: 'metered, 5 Wh = 0.6 cents → 1',
    rule: 'chargeKwh',
    ms: 90 * MIN,
    wh: 5,
    expect: { AmountCents: 1 },
  },
  {
    name: 'metered, half a cent rounds up (1.5 → 2)',
    rule: 'chargeKwhPlain',
    ms: 10 * MIN,
    wh: 1500,
    expect: { AmountCents: 2 },
  },
  {
    name: 'metered, half a cent rounds up (2.5 → 3, not to even)',
    rule: 'chargeKwhPlain',
    ms: 10 * MIN,
    wh: 2500,
    expect: { AmountCents: 3 },
  },
  { name: 'metered, 2.499 → 2', rule: 'chargeKwhPlain', ms: 10 * MIN, wh: 2499, expect: { AmountCents: 2 } },
  {
    name: 'metered within the grace period: free whatever the energy',
    rule: 'chargeKwh',
    ms: 5 * MIN,
    wh: 400,
    expect: { AmountCents: 0, Free: 'grace' },
  },
  {
    name: 'metered, 1000 kWh: capped',
    rule: 'chargeKwh',
    ms: 600 * MIN,
    wh: 1_000_000,
    expect: { AmountCents: 800, GrossCents: 120_000, Capped: true },
  },
  // Monthly types: the pass pays.
  {
    name: 'monthly parking: covered by the pass',
    rule: 'month',
    ms: 600 * MIN,
    expect: { AmountCents: 0, Free: 'pass' },
  },
  {
    name: 'monthly with charging: covered by the pass',
    rule: 'monthCharge',
    ms: 600 * MIN,
    wh: 900,
    expect: { AmountCents: 0, Free: 'pass' },
  },
];

describe('priceSession', () => {
  it.each(cases)('$name', ({ rule, start = T0, ms, wh, expect: expected }) => {
    const price = priceSession(RULES[rule], { StartAt: start, EndAt: start + ms, EnergyWh: wh });
    expect(price).toMatchObject(expected);
    expect(Number.isSafeInteger(price.AmountCents)).toBe(true);
    expect(price.AmountCents).toBeLessThanOrEqual(price.GrossCents);
    expect(price.Lines.reduce((sum, l) => sum + l.AmountCents, 0)).toBe(price.AmountCents);
  });

  it.each([
    [
      'timed, 61 min: one line of started hours',
      RULES.parkHour,
      61 * MIN,
      undefined,
      [
        {
          Kind: 'time',
          Quantity: 2,
          QuantityUnit: 'hour',
          UnitPriceCents: 100,
          PriceUnit: 'hour',
          AmountCents: 200,
        },
      ],
    ],
    [
      'timed, 10 h 1 min: the hours and the cap as a negative line',
      RULES.parkHour,
      601 * MIN,
      undefined,
      [
        { Kind: 'time', Quantity: 11, UnitPriceCents: 100, AmountCents: 1100 },
        { Kind: 'cap', LabelParams: { CapCents: 1000 }, AmountCents: -100 },
      ],
    ],
    [
      'metered, 1234 Wh at ¥1.20/kWh: one line per kWh',
      RULES.chargeKwh,
      90 * MIN,
      1234,
      [
        {
          Kind: 'energy',
          Quantity: 1234,
          QuantityUnit: 'Wh',
          UnitPriceCents: 120,
          PriceUnit: 'kWh',
          AmountCents: 148,
        },
      ],
    ],
    [
      'per use: one use',
      RULES.chargeUse,
      60 * MIN,
      undefined,
      [{ Kind: 'use', Quantity: 1, QuantityUnit: 'use', UnitPriceCents: 150, AmountCents: 150 }],
    ],
    ['within the grace period: no line', RULES.parkHour, 15 * MIN, undefined, []],
    ['monthly: no line', RULES.month, 600 * MIN, undefined, []],
  ])('a rule without the new dimensions itemises as one line: %s', (_name, tariff, ms, wh, lines) => {
    const price = priceSession(tariff, { StartAt: T0, EndAt: T0 + ms, EnergyWh: wh });
    expect(price.Lines).toMatchObject(lines);
    expect(price.Lines).toHaveLength(lines.length);
  });

  it.each(cases)('estimate at the end equals the final price: $name', ({ rule, start = T0, ms, wh }) => {
    const final = priceSession(RULES[rule], { StartAt: start, EndAt: start + ms, EnergyWh: wh });
    const estimate = estimateSession(RULES[rule], { StartAt: start, EnergyWh: wh }, start + ms);
    expect(estimate).toEqual(final);
  });

  it('an estimate with the clock behind the start reads as a zero-length session', () => {
    expect(estimateSession(RULES.chargeUse, { StartAt: T0 }, T0 - 5000)).toMatchObject({
      AmountCents: 0,
      DurationMinutes: 0,
    });
  });

  it.each([
    ['an end before the start', RULES.parkHour, { StartAt: T0, EndAt: T0 - 1 }],
    ['a metered session without energy', RULES.chargeKwh, { StartAt: T0, EndAt: T0 + 60 * MIN }],
    ['negative energy', RULES.chargeKwh, { StartAt: T0, EndAt: T0 + 60 * MIN, EnergyWh: -1 }],
    ['fractional energy', RULES.chargeKwh, { StartAt: T0, EndAt: T0 + 60 * MIN, EnergyWh: 1.5 }],
    [
      'a temporary rule without temporary charge type',
      t(3, 0, 100, null, 0, null),
      { StartAt: T0, EndAt: T0 + 1 },
    ],
    ['metered parking', t(0, 2, 100, null, 0, null), { StartAt: T0, EndAt: T0 + 1 }],
    ['a price in fractions of a cent', t(3, 1, 1.5, null, 0, null), { StartAt: T0, EndAt: T0 + 1 }],
    ['a negative cap', t(3, 1, 100, null, 0, -1), { StartAt: T0, EndAt: T0 + 1 }],
    ['an unknown charge type', t(7, 1, 100, null, 0, null), { StartAt: T0, EndAt: T0 + 1 }],
  ])('refuses %s with a RangeError', (_name, tariff, usage) => {
    expect(() => priceSession(tariff, usage)).toThrow(RangeError);
  });

  describe('properties over random tariffs and sessions', () => {
    const temporary = fc
      .record({
        kind: fc.constantFrom([0, 1], [0, 3], [3, 1], [3, 2], [3, 3]),
        price: fc.integer({ min: 0, max: 100_000 }),
        free: fc.integer({ min: 0, max: 120 }),
        cap: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
      })
      .map(({ kind, price, free, cap }) => t(kind[0]!, kind[1]!, price, null, free, cap));
    const usage = fc.record({
      start: fc.integer({ min: cst(2025, 1, 1), max: cst(2027, 1, 1) }),
      ms: fc.integer({ min: 0, max: 10 * 24 * 60 * MIN }),
      wh: fc.integer({ min: 0, max: 100_000 }),
    });

    it('the live estimate always equals the final price for the same end and energy', () => {
      fc.assert(
        fc.property(temporary, usage, (tariff, u) => {
          const final = priceSession(tariff, { StartAt: u.start, EndAt: u.start + u.ms, EnergyWh: u.wh });
          expect(estimateSession(tariff, { StartAt: u.start, EnergyWh: u.wh }, u.start + u.ms)).toEqual(
            final,
          );
        }),
      );
    });

    it('amounts are whole cents, never above the cap, and free within the grace period', () => {
      fc.assert(
        fc.property(temporary, usage, (tariff, u) => {
          const p = priceSession(tariff, { StartAt: u.start, EndAt: u.start + u.ms, EnergyWh: u.wh });
          expect(Number.isSafeInteger(p.AmountCents) && p.AmountCents >= 0).toBe(true);
          if (tariff.CapCents !== null) expect(p.AmountCents).toBeLessThanOrEqual(tariff.CapCents);
          if (p.DurationMinutes <= tariff.FreeMinutes) expect(p.AmountCents).toBe(0);
          expect(p.Lines.reduce((sum, l) => sum + l.AmountCents, 0)).toBe(p.AmountCents);
        }),
      );
    });

    it('a longer stay never costs less under a timed or per-use tariff (past the grace period)', () => {
      fc.assert(
        fc.property(temporary, usage, fc.integer({ min: 0, max: 600 * MIN }), (tariff, u, more) => {
          fc.pre(tariff.TemporaryChargeType !== 2);
          const price = (ms: number) =>
            priceSession(tariff, { StartAt: u.start, EndAt: u.start + ms }).AmountCents;
          fc.pre(Math.floor(u.ms / MIN) > tariff.FreeMinutes);
          expect(price(u.ms + more)).toBeGreaterThanOrEqual(price(u.ms));
        }),
      );
    });

    it('depends on elapsed time only: the same stay priced at any start costs the same', () => {
      fc.assert(
        fc.property(
          temporary,
          usage,
          fc.integer({ min: 0, max: 400 * 24 * 60 * MIN }),
          (tariff, u, shift) => {
            const at = (start: number) =>
              priceSession(tariff, { StartAt: start, EndAt: start + u.ms, EnergyWh: u.wh }).AmountCents;
            expect(at(u.start + shift)).toBe(at(u.start));
          },
        ),
      );
    });
  });
});

describe('pricePass', () => {
  it.each([
    [RULES.month, 1, 3000],
    [RULES.month, 3, 9000],
    [RULES.monthCharge, 12, 72000],
    [t(1, 0, 30000, 3, 0, null), 2, 60000],
  ])('unit price × units', (tariff, units, cents) => {
    expect(pricePass(tariff, units)).toBe(cents);
  });

  it.each([
    ['a temporary rule', RULES.parkHour, 1],
    ['zero units', RULES.month, 0],
    ['fractional units', RULES.month, 1.5],
    ['too many units', RULES.month, MAX_PASS_UNITS + 1],
  ])('refuses %s', (_name, tariff, units) => {
    expect(() => pricePass(tariff, units)).toThrow(RangeError);
  });
});
