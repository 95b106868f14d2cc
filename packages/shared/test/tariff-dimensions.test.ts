import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SUSTAINED_POWER_WINDOW_MS,
  digestEnergyWh,
  digestOf,
  estimateSession,
  foldReading,
  placeReading,
  priceLinePhrase,
  priceLineText,
  priceSession,
  startDigest,
  sustainedPowerW,
  tariffProblems,
  translate,
  uncoveredTimes,
  type MeterSample,
  type Price,
  type Tariff,
  type Usage,
} from '../src/index.ts';

/** Issue 30, item 2: power bands, time-of-day periods, idle fee, service fee, caps, itemised lines. */

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Local wall time in China (UTC+8, no daylight saving) → epoch ms. */
const cst = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h - 8, mi);

const charging = (kind: 1 | 2, more: Partial<Tariff> = {}): Tariff =>
  ({
    ChargeType: 3,
    TemporaryChargeType: kind,
    UnitPriceCents: 100,
    TimeUnit: null,
    FreeMinutes: 0,
    CapCents: null,
    ...more,
  }) as Tariff;

/** Samples every `stepMin` minutes from `start`, each interval drawing `watts[i]` (whole Wh per interval). */
function samplesAt(start: number, stepMin: number, watts: number[], register = 0): MeterSample[] {
  const samples: MeterSample[] = [{ At: start, EnergyWh: register }];
  for (const w of watts) {
    register += (w * stepMin) / 60;
    if (!Number.isInteger(register)) throw new Error(`${w} W for ${stepMin} min is not whole Wh`);
    samples.push({ At: samples[samples.length - 1]!.At + stepMin * MIN, EnergyWh: register });
  }
  return samples;
}

const sum = (p: Price) => p.Lines.reduce((total, l) => total + l.AmountCents, 0);

const BANDS = [
  { UpToW: 200, PriceCents: 50 },
  { UpToW: 400, PriceCents: 80 },
  { UpToW: 800, PriceCents: 120 },
];

describe('sustained power', () => {
  it('is the highest power held over five minutes of samples', () => {
    const T = cst(2026, 11, 1, 9);
    // 300 W for 10 min, then a 4-minute spike at 720 W, then 300 W again.
    const spike = samplesAt(T, 1, [...Array(10).fill(300), ...Array(4).fill(720), ...Array(6).fill(300)]);
    expect(sustainedPowerW(spike)).toBe(300);
    const held = samplesAt(T, 1, [...Array(10).fill(300), ...Array(5).fill(720), ...Array(6).fill(300)]);
    expect(sustainedPowerW(held)).toBe(720);
  });

  it('reads a long interval as its mean power, and is 0 when the samples span under five minutes', () => {
    const T = cst(2026, 11, 1, 9);
    expect(
      sustainedPowerW([
        { At: T, EnergyWh: 1000 },
        { At: T + 30 * MIN, EnergyWh: 1150 },
      ]),
    ).toBe(300);
    expect(sustainedPowerW(samplesAt(T, 1, [900, 900, 900, 900]))).toBe(0);
    expect(sustainedPowerW([])).toBe(0);
    expect(SUSTAINED_POWER_WINDOW_MS).toBe(5 * MIN);
  });

  it('rounds the mean power down to the watt (1 Wh in 7 min is 8.57 W → 8 W)', () => {
    expect(
      sustainedPowerW([
        { At: 0, EnergyWh: 0 },
        { At: 7 * MIN, EnergyWh: 1 },
      ]),
    ).toBe(8);
  });
});

describe('power bands', () => {
  const T = cst(2026, 11, 1, 9);
  const timed = charging(1, { PowerBands: BANDS });
  const price = (watts: number[], stepMin = 1, end?: number) => {
    const samples = samplesAt(T, stepMin, watts);
    return priceSession(timed, {
      StartAt: T,
      EndAt: end ?? samples[samples.length - 1]!.At,
      Samples: samples,
    });
  };

  it.each([
    ['300 W held: band 2', 1, Array(70).fill(300), 2, 80, 160],
    ['exactly 400 W: still band 2 (a band includes its UpToW)', 3, Array(24).fill(400), 2, 80, 160],
    ['401 W: band 3', 60, Array(2).fill(401), 3, 120, 240],
    ['a 4-minute spike at 720 W over 150 W: band 1', 2, [...Array(30).fill(150), 720, 720], 1, 50, 100],
    ['above the last band: priced at the last band', 1, Array(70).fill(1500), 3, 120, 240],
  ])('%s', (_name, step, watts, band, unit, amount) => {
    const p = price(watts, step);
    expect(p.Lines).toEqual([
      expect.objectContaining({
        Kind: 'band',
        QuantityUnit: 'hour',
        UnitPriceCents: unit,
        AmountCents: amount,
      }),
    ]);
    expect(p.Lines[0]!.LabelParams).toMatchObject({ Band: band });
    expect(p.AmountCents).toBe(amount);
  });

  it('names the band and the power it was chosen by', () => {
    expect(price(Array(61).fill(300)).Lines[0]).toMatchObject({
      LabelKey: 'garage.priceLine.band',
      LabelParams: { Band: 2, FromW: 200, UpToW: 400, SustainedW: 300 },
      Quantity: 2,
    });
  });

  it('a session without samples, or under five minutes of them, is in the lowest band', () => {
    expect(priceSession(timed, { StartAt: T, EndAt: T + 90 * MIN }).Lines[0]).toMatchObject({
      UnitPriceCents: 50,
      Quantity: 2,
      LabelParams: { SustainedW: 0 },
    });
    expect(price([900, 900, 900], 1, T + 90 * MIN).Lines[0]).toMatchObject({ UnitPriceCents: 50 });
  });

  it('on a metered rule the band is charged per started hour on top of the energy', () => {
    const samples = samplesAt(T, 10, Array(9).fill(360));
    const p = priceSession(charging(2, { UnitPriceCents: 120, PowerBands: BANDS }), {
      StartAt: T,
      EndAt: T + 90 * MIN,
      Samples: samples,
    });
    expect(p.Lines).toMatchObject([
      { Kind: 'energy', Quantity: 540, UnitPriceCents: 120, AmountCents: 65 },
      { Kind: 'band', Quantity: 2, UnitPriceCents: 80, AmountCents: 160 },
    ]);
    expect(p).toMatchObject({ Quantity: 540, QuantityUnit: 'Wh', AmountCents: 225 });
  });
});

describe('time-of-day periods', () => {
  const PEAK_VALLEY = [
    { From: '08:00', To: '22:00', PriceCentsPerKWh: 150 },
    { From: '22:00', To: '08:00', PriceCentsPerKWh: 60 },
  ];
  const metered = charging(2, { TimeOfDay: PEAK_VALLEY });

  it('splits a session at a period boundary from the samples', () => {
    const T = cst(2026, 11, 1, 21, 30);
    const p = priceSession(metered, {
      StartAt: T,
      EndAt: T + 60 * MIN,
      Samples: samplesAt(T, 10, Array(6).fill(600)),
      TimeZone: 'Asia/Shanghai',
    });
    expect(p.Lines).toMatchObject([
      { Kind: 'period', LabelParams: { From: '08:00', To: '22:00' }, Quantity: 300, AmountCents: 45 },
      { Kind: 'period', LabelParams: { From: '22:00', To: '08:00' }, Quantity: 300, AmountCents: 18 },
    ]);
    expect(p).toMatchObject({ Quantity: 600, AmountCents: 63 });
  });

  it('interpolates the register at a boundary inside an interval, rounding down to the Wh', () => {
    const T = cst(2026, 11, 1, 21);
    const p = priceSession(metered, {
      StartAt: T,
      EndAt: T + 2 * HOUR,
      Samples: [
        { At: T, EnergyWh: 10_000 },
        { At: T + 2 * HOUR, EnergyWh: 11_001 },
      ],
    });
    // 1001 Wh over 21:00–23:00: the register at 22:00 is 10 000 + ⌊1001 / 2⌋ = 10 500.
    expect(p.Lines.map((l) => l.Quantity)).toEqual([500, 501]);
    expect(p.Lines.map((l) => l.AmountCents)).toEqual([75, 30]); // 75.0 and 30.06
  });

  it('a period across midnight covers both evenings and mornings, in the area zone', () => {
    // 23:00–01:00 local is cheap; the rest of the day costs the rule's unit price (100/kWh).
    const night = charging(2, { TimeOfDay: [{ From: '23:00', To: '01:00', PriceCentsPerKWh: 40 }] });
    const T = cst(2026, 11, 1, 22); // 14:00 UTC: local midnight is 16:00 UTC, UTC midnight is 08:00 local
    const usage: Usage = { StartAt: T, EndAt: T + 4 * HOUR, Samples: samplesAt(T, 30, Array(8).fill(1000)) };
    const shanghai = priceSession(night, { ...usage, TimeZone: 'Asia/Shanghai' });
    expect(shanghai.Lines).toMatchObject([
      { Kind: 'period', Quantity: 2000, UnitPriceCents: 40, AmountCents: 80 },
      { Kind: 'energy', Quantity: 2000, UnitPriceCents: 100, AmountCents: 200 },
    ]);
    expect(priceSession(night, usage)).toEqual(shanghai); // no zone: the default, Asia/Shanghai
    // 14:00–18:00 UTC is outside 23:00–01:00 UTC: the same session read in UTC has no cheap energy.
    expect(priceSession(night, { ...usage, TimeZone: 'UTC' }).Lines).toMatchObject([
      { Kind: 'energy', Quantity: 4000 },
    ]);
  });

  it('a zone skipping a day without daylight saving (Kiribati, 31 Dec 1994) prices by the wall clock', () => {
    // 30 Dec 21:00 (UTC−10) to 1 Jan 1995 02:00 (UTC+14): 5 hours elapsed; the wall clock jumps from
    // 30 Dec 24:00 to 1 Jan 00:00. Night 22:00–06:00: 22:00–24:00 and 00:00–02:00, 4 of the 5 hours.
    const night = charging(2, { TimeOfDay: [{ From: '22:00', To: '06:00', PriceCentsPerKWh: 40 }] });
    const start = Date.UTC(1994, 11, 31, 7);
    const p = priceSession(night, {
      StartAt: start,
      EndAt: start + 5 * HOUR,
      Samples: samplesAt(start, 60, Array(5).fill(1000)),
      TimeZone: 'Pacific/Kiritimati',
    });
    expect(p.Lines).toMatchObject([
      { Kind: 'period', Quantity: 4000, AmountCents: 160 },
      { Kind: 'energy', Quantity: 1000, AmountCents: 100 },
    ]);
  });

  it('a zone changing its offset without daylight saving (Pyongyang, 15 Aug 2015) prices by the wall clock', () => {
    // 14 Aug 23:00 (UTC+9) to 15 Aug 01:00 (UTC+8:30): 2.5 hours elapsed; at 24:00 the clocks went back to
    // 23:30, so the wall reads 23:00–24:00, 23:30–24:00, 00:00–01:00: 1.5 hours before midnight, 1 after.
    const night = charging(2, { TimeOfDay: [{ From: '00:00', To: '06:00', PriceCentsPerKWh: 40 }] });
    const start = Date.UTC(2015, 7, 14, 14);
    const p = priceSession(night, {
      StartAt: start,
      EndAt: start + 150 * MIN,
      Samples: samplesAt(start, 30, Array(5).fill(1200)),
      TimeZone: 'Asia/Pyongyang',
    });
    expect(p.Lines).toMatchObject([
      { Kind: 'period', Quantity: 1200 },
      { Kind: 'energy', Quantity: 1800 },
    ]);
  });

  it('an offset change inside a period stretch (Moscow, 26 Oct 2014, UTC+4 → UTC+3 for good) restarts the walk', () => {
    // 00:00 (UTC+4) to 03:00 (UTC+3): 4 hours elapsed; at 02:00 the clocks went back to 01:00. Period
    // 01:30–04:00: the wall reads 01:30–02:00, then 01:00–01:30 outside again, then 01:30–03:00: 2 of 4 hours.
    const rule = charging(2, { TimeOfDay: [{ From: '01:30', To: '04:00', PriceCentsPerKWh: 40 }] });
    const start = Date.UTC(2014, 9, 25, 20);
    const p = priceSession(rule, {
      StartAt: start,
      EndAt: start + 4 * HOUR,
      // One reading at each end: the change falls inside the interval, not on a sample.
      Samples: samplesAt(start, 240, [1000]),
      TimeZone: 'Europe/Moscow',
    });
    expect(p.Lines).toMatchObject([
      { Kind: 'period', Quantity: 2000 },
      { Kind: 'energy', Quantity: 2000 },
    ]);
  });

  it('a whole-day period (From = To) prices like the flat rule at the same price', () => {
    const T = cst(2026, 11, 1, 9);
    const samples = [0, 39, 99, 99, 243, 255].map((EnergyWh, i) => ({ At: T + i * 7 * MIN, EnergyWh }));
    const usage = { StartAt: T, EndAt: T + 40 * MIN, Samples: samples };
    const flat = priceSession(charging(2, { UnitPriceCents: 137 }), usage);
    const allDay = priceSession(
      charging(2, { TimeOfDay: [{ From: '06:00', To: '06:00', PriceCentsPerKWh: 137 }] }),
      usage,
    );
    expect(allDay.AmountCents).toBe(flat.AmountCents);
    expect(allDay.Lines).toMatchObject([{ Kind: 'period', Quantity: flat.Quantity }]);
  });

  it('a time-of-day rule with energy but no samples cannot place it: RangeError; none drawn is 0', () => {
    const T = cst(2026, 11, 1, 9);
    expect(() => priceSession(metered, { StartAt: T, EndAt: T + HOUR, EnergyWh: 10 })).toThrow(RangeError);
    expect(priceSession(metered, { StartAt: T, EndAt: T + HOUR, EnergyWh: 0 })).toMatchObject({
      AmountCents: 0,
      Lines: [],
    });
  });
});

describe('idle fee and service fee', () => {
  const T = cst(2026, 11, 1, 9);
  const rule = charging(1, { UnitPriceCents: 100, IdleFeeCentsPerHour: 120, IdleGraceMinutes: 10 });

  it('charges whole minutes after the battery was full and the idle grace, half up to the cent', () => {
    const p = priceSession(rule, { StartAt: T, EndAt: T + 95 * MIN + 59_000, FullAt: T + 60 * MIN });
    expect(p.Lines).toMatchObject([
      { Kind: 'time', Quantity: 2, AmountCents: 200 },
      {
        Kind: 'idle',
        Quantity: 25,
        QuantityUnit: 'minute',
        UnitPriceCents: 120,
        PriceUnit: 'hour',
        AmountCents: 50,
        LabelParams: { GraceMinutes: 10 },
      },
    ]);
    // 7 minutes at ¥1.00/h = 11.67 cents → 12.
    const seven = priceSession(charging(1, { IdleFeeCentsPerHour: 100 }), {
      StartAt: T,
      EndAt: T + 67 * MIN,
      FullAt: T + 60 * MIN,
    });
    expect(seven.Lines[1]).toMatchObject({ Kind: 'idle', Quantity: 7, AmountCents: 12 });
  });

  it('nothing within the idle grace, nothing without FullAt', () => {
    expect(priceSession(rule, { StartAt: T, EndAt: T + 70 * MIN, FullAt: T + 60 * MIN }).Lines).toHaveLength(
      1,
    );
    expect(priceSession(rule, { StartAt: T, EndAt: T + 300 * MIN }).Lines).toHaveLength(1);
  });

  it('a service fee is one line once per billed order, and nothing within the grace period', () => {
    const fee = charging(1, { ServiceFeeCents: 50, FreeMinutes: 5 });
    expect(priceSession(fee, { StartAt: T, EndAt: T + 30 * MIN }).Lines).toMatchObject([
      { Kind: 'time', AmountCents: 100 },
      { Kind: 'service', Quantity: 1, UnitPriceCents: 50, AmountCents: 50 },
    ]);
    expect(priceSession(fee, { StartAt: T, EndAt: T + 5 * MIN })).toMatchObject({
      AmountCents: 0,
      Lines: [],
    });
  });
});

describe('caps over every line', () => {
  it('limits the whole order, shown as a negative last line; the lines add up to the cap', () => {
    const T = cst(2026, 11, 1, 9);
    const rule = charging(1, {
      PowerBands: BANDS,
      ServiceFeeCents: 50,
      IdleFeeCentsPerHour: 600,
      CapCents: 500,
    });
    const p = priceSession(rule, {
      StartAt: T,
      EndAt: T + 3 * HOUR,
      Samples: samplesAt(T, 10, Array(12).fill(300)),
      FullAt: T + 2 * HOUR,
    });
    expect(p.Lines).toMatchObject([
      { Kind: 'band', AmountCents: 240 },
      { Kind: 'service', AmountCents: 50 },
      { Kind: 'idle', Quantity: 60, AmountCents: 600 },
      { Kind: 'cap', LabelParams: { CapCents: 500 }, AmountCents: -390 },
    ]);
    expect(p).toMatchObject({ GrossCents: 890, AmountCents: 500, Capped: true });
    expect(sum(p)).toBe(500);
  });
});

describe('the worked bill of docs/garage.md', () => {
  it('prices 21:00 → 00:40 across 22:00, band 2, 55 idle minutes: ¥3.26; capped at ¥3.00', () => {
    const rule = charging(2, {
      UnitPriceCents: 100,
      FreeMinutes: 5,
      TimeOfDay: [
        { From: '08:00', To: '22:00', PriceCentsPerKWh: 150 },
        { From: '22:00', To: '08:00', PriceCentsPerKWh: 60 },
      ],
      PowerBands: [
        { UpToW: 200, PriceCents: 10 },
        { UpToW: 500, PriceCents: 20 },
        { UpToW: 1000, PriceCents: 40 },
      ],
      IdleFeeCentsPerHour: 120,
      IdleGraceMinutes: 15,
      ServiceFeeCents: 50,
    });
    const usage: Usage = {
      StartAt: cst(2026, 11, 1, 21),
      EndAt: cst(2026, 11, 2, 0, 40),
      Samples: [
        { At: cst(2026, 11, 1, 21), EnergyWh: 5000 },
        { At: cst(2026, 11, 1, 21, 40), EnergyWh: 5240 },
        { At: cst(2026, 11, 1, 22, 20), EnergyWh: 5480 },
        { At: cst(2026, 11, 1, 23, 30), EnergyWh: 5900 },
        { At: cst(2026, 11, 2, 0, 40), EnergyWh: 5900 },
      ],
      FullAt: cst(2026, 11, 1, 23, 30),
      TimeZone: 'Asia/Shanghai',
    };
    const p = priceSession(rule, usage);
    expect(p.Lines.map((l) => [l.Kind, l.Quantity, l.UnitPriceCents, l.AmountCents])).toEqual([
      ['period', 360, 150, 54],
      ['period', 540, 60, 32],
      ['band', 4, 20, 80],
      ['service', 1, 50, 50],
      ['idle', 55, 120, 110],
    ]);
    expect(p).toMatchObject({ DurationMinutes: 220, Quantity: 900, GrossCents: 326, AmountCents: 326 });
    const capped = priceSession({ ...rule, CapCents: 300 }, usage);
    expect(capped.Lines[5]).toMatchObject({ Kind: 'cap', AmountCents: -26 });
    expect(capped.AmountCents).toBe(300);
  });
});

describe('the estimate and the final price are the same engine', () => {
  const T = cst(2026, 11, 1, 21);
  const rule = charging(2, {
    TimeOfDay: [{ From: '22:00', To: '06:00', PriceCentsPerKWh: 60 }],
    PowerBands: BANDS,
    IdleFeeCentsPerHour: 120,
    CapCents: 2000,
  });
  const samples = samplesAt(T, 10, Array(15).fill(420));

  it('the same meter values give the same price, lines included', () => {
    const now = T + 150 * MIN;
    const running = { StartAt: T, Samples: samples, FullAt: T + 140 * MIN, TimeZone: 'Asia/Shanghai' };
    expect(estimateSession(rule, running, now)).toEqual(priceSession(rule, { ...running, EndAt: now }));
  });

  it('a clock behind the last reading estimates the session as ending at that reading', () => {
    const running = { StartAt: T, Samples: samples };
    expect(estimateSession(rule, running, T + 60 * MIN)).toEqual(
      priceSession(rule, { ...running, EndAt: samples[samples.length - 1]!.At }),
    );
  });
});

describe('refuses malformed dimensions with a RangeError', () => {
  const T = cst(2026, 11, 1, 9);
  const usage: Usage = { StartAt: T, EndAt: T + HOUR, EnergyWh: 0 };
  const period = (From: string, To: string) => ({ From, To, PriceCentsPerKWh: 10 });
  it.each<[string, Partial<Tariff>, (0 | 1 | 2 | 3)?]>([
    ['bands not ascending', { PowerBands: [BANDS[1]!, BANDS[0]!] }],
    ['two bands up to the same power', { PowerBands: [BANDS[0]!, BANDS[0]!] }],
    ['a band up to 0 W', { PowerBands: [{ UpToW: 0, PriceCents: 1 }] }],
    ['a band price in fractions of a cent', { PowerBands: [{ UpToW: 100, PriceCents: 1.5 }] }],
    ['no bands at all', { PowerBands: [] }],
    ['bands on a per-use rule', { PowerBands: BANDS }, 3],
    ['a period "8:00"', { TimeOfDay: [period('8:00', '10:00')] }],
    ['a period "24:00"', { TimeOfDay: [period('22:00', '24:00')] }],
    ['a period "12:60"', { TimeOfDay: [period('12:00', '12:60')] }],
    ['overlapping periods', { TimeOfDay: [period('08:00', '12:00'), period('11:00', '13:00')] }],
    ['overlapping across midnight', { TimeOfDay: [period('22:00', '02:00'), period('01:00', '03:00')] }],
    [
      'a whole-day period beside another',
      { TimeOfDay: [period('00:00', '00:00'), period('01:00', '03:00')] },
    ],
    ['a negative period price', { TimeOfDay: [{ From: '01:00', To: '02:00', PriceCentsPerKWh: -1 }] }],
    ['periods on a timed rule', { TimeOfDay: [period('01:00', '02:00')] }, 1],
    ['a fractional idle fee', { IdleFeeCentsPerHour: 0.5 }],
    ['a negative idle grace', { IdleGraceMinutes: -1 }],
    ['a negative service fee', { ServiceFeeCents: -1 }],
  ])('%s', (_name, more, kind = 2) => {
    expect(() => priceSession(charging(kind as 1 | 2, more), usage)).toThrow(RangeError);
  });

  it.each<[string, Tariff]>([
    ['an idle fee on parking', { ...charging(1, { IdleFeeCentsPerHour: 100 }), ChargeType: 0 }],
    ['bands on parking', { ...charging(1, { PowerBands: BANDS }), ChargeType: 0 }],
    [
      'a service fee on a monthly rule',
      { ...charging(1, { ServiceFeeCents: 1 }), ChargeType: 1, TemporaryChargeType: 0, TimeUnit: 2 },
    ],
  ])('%s', (_name, tariff) => {
    expect(() => priceSession(tariff, usage)).toThrow(RangeError);
  });

  it.each<[string, Partial<Usage>]>([
    [
      'samples not ascending',
      {
        Samples: [
          { At: T + 2, EnergyWh: 0 },
          { At: T + 1, EnergyWh: 1 },
        ],
      },
    ],
    [
      'two samples at one instant',
      {
        Samples: [
          { At: T + 1, EnergyWh: 0 },
          { At: T + 1, EnergyWh: 1 },
        ],
      },
    ],
    [
      'a register going down',
      {
        Samples: [
          { At: T, EnergyWh: 5 },
          { At: T + MIN, EnergyWh: 4 },
        ],
      },
    ],
    ['a sample before the start', { Samples: [{ At: T - 1, EnergyWh: 0 }] }],
    ['a sample after the end', { Samples: [{ At: T + HOUR + 1, EnergyWh: 0 }] }],
    ['a fractional register', { Samples: [{ At: T, EnergyWh: 0.5 }] }],
    [
      'EnergyWh disagreeing with the samples',
      {
        EnergyWh: 7,
        Samples: [
          { At: T, EnergyWh: 0 },
          { At: T + MIN, EnergyWh: 8 },
        ],
      },
    ],
    ['FullAt before the start', { FullAt: T - 1 }],
    ['FullAt after the end', { FullAt: T + HOUR + 1 }],
    ['an unknown time zone', { TimeZone: 'Mars/Olympus' }],
  ])('%s', (_name, more) => {
    expect(() => priceSession(charging(2), { ...usage, ...more })).toThrow(RangeError);
  });
});

describe('properties over random tariffs and sessions (seeded)', () => {
  /** Non-overlapping periods: cut points around the day, every other stretch a period. */
  const periods = fc
    .uniqueArray(fc.integer({ min: 0, max: 1439 }), { minLength: 2, maxLength: 8 })
    .chain((cuts) => {
      const sorted = [...cuts].sort((a, b) => a - b);
      const text = (m: number) =>
        `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      const spans = sorted.map((from, i) => [from, sorted[(i + 1) % sorted.length]!] as const);
      return fc.tuple(
        fc.constant(spans.filter((_, i) => i % 2 === 0).map(([f, t]) => [text(f), text(t)] as const)),
        fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 8, maxLength: 8 }),
      );
    })
    .map(([spans, prices]) => spans.map(([From, To], i) => ({ From, To, PriceCentsPerKWh: prices[i]! })));
  const bands = fc
    .uniqueArray(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 5 })
    .chain((ups) =>
      fc.tuple(
        fc.constant([...ups].sort((a, b) => a - b)),
        fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 5, maxLength: 5 }),
      ),
    )
    .map(([ups, prices]) => ups.map((UpToW, i) => ({ UpToW, PriceCents: prices[i]! })));
  const tariff = fc
    .record({
      kind: fc.constantFrom<1 | 2>(1, 2),
      price: fc.integer({ min: 0, max: 1000 }),
      free: fc.integer({ min: 0, max: 30 }),
      cap: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: null }),
      bands: fc.option(bands, { nil: null }),
      periods: fc.option(periods, { nil: null }),
      idle: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
      idleGrace: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
      service: fc.option(fc.integer({ min: 0, max: 300 }), { nil: null }),
    })
    .map((r) =>
      charging(r.kind, {
        UnitPriceCents: r.price,
        FreeMinutes: r.free,
        CapCents: r.cap,
        PowerBands: r.bands,
        TimeOfDay: r.kind === 2 ? r.periods : null,
        IdleFeeCentsPerHour: r.idle,
        IdleGraceMinutes: r.idleGrace,
        ServiceFeeCents: r.service,
      }),
    );
  const session = fc
    .record({
      start: fc.integer({ min: cst(2025, 1, 1), max: cst(2027, 1, 1) }),
      steps: fc.array(
        fc.record({ ms: fc.integer({ min: 1, max: 40 * MIN }), wh: fc.integer({ min: 0, max: 800 }) }),
        {
          maxLength: 40,
        },
      ),
      register: fc.integer({ min: 0, max: 1_000_000 }),
      tail: fc.integer({ min: 0, max: 3 * HOUR }),
      full: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      zone: fc.constantFrom('Asia/Shanghai', 'UTC', 'Asia/Pyongyang', 'Pacific/Kiritimati'),
    })
    .map((s): Usage => {
      const samples: MeterSample[] = [{ At: s.start, EnergyWh: s.register }];
      for (const step of s.steps) {
        const last = samples[samples.length - 1]!;
        samples.push({ At: last.At + step.ms, EnergyWh: last.EnergyWh + step.wh });
      }
      const endAt = samples[samples.length - 1]!.At + s.tail;
      const fullAt = s.full === null ? null : s.start + Math.floor((endAt - s.start) * s.full);
      return { StartAt: s.start, EndAt: endAt, Samples: samples, FullAt: fullAt, TimeZone: s.zone };
    });
  const options = { seed: 30_2, numRuns: 300 };

  it('the lines add up to the amount, in whole cents, never above the cap', () => {
    fc.assert(
      fc.property(tariff, session, (t, u) => {
        const p = priceSession(t, u);
        expect(sum(p)).toBe(p.AmountCents);
        expect(p.Lines.filter((l) => l.Kind !== 'cap').reduce((s, l) => s + l.AmountCents, 0)).toBe(
          p.GrossCents,
        );
        for (const l of p.Lines) expect(Number.isSafeInteger(l.AmountCents)).toBe(true);
        if (t.CapCents !== null) expect(p.AmountCents).toBeLessThanOrEqual(t.CapCents);
        expect(p.AmountCents).toBeGreaterThanOrEqual(0);
      }),
      options,
    );
  });

  it('the energy lines add up to the energy the samples measured', () => {
    fc.assert(
      fc.property(tariff, session, (t, u) => {
        fc.pre(t.TemporaryChargeType === 2);
        const p = priceSession(t, u);
        fc.pre(p.Free === null);
        const samples = u.Samples!;
        const measured = samples[samples.length - 1]!.EnergyWh - samples[0]!.EnergyWh;
        const energy = p.Lines.filter((l) => l.Kind === 'energy' || l.Kind === 'period');
        expect(energy.reduce((s, l) => s + l.Quantity, 0)).toBe(measured);
      }),
      options,
    );
  });

  it('the live estimate at any instant equals the final price of the session ending there', () => {
    fc.assert(
      fc.property(tariff, session, fc.double({ min: 0, max: 1, noNaN: true }), (t, u, at) => {
        const now = u.StartAt + Math.floor((u.EndAt - u.StartAt) * at);
        const read = u.Samples!.filter((s) => s.At <= now);
        const fullAt = u.FullAt !== null && u.FullAt! <= now ? u.FullAt : null;
        const running = { StartAt: u.StartAt, Samples: read, FullAt: fullAt, TimeZone: u.TimeZone };
        expect(estimateSession(t, running, now)).toEqual(priceSession(t, { ...running, EndAt: now }));
      }),
      options,
    );
  });

  it('the band never falls as readings come in', () => {
    fc.assert(
      fc.property(session, fc.integer({ min: 0, max: 40 }), (u, cut) => {
        const samples = u.Samples!;
        expect(sustainedPowerW(samples.slice(0, cut))).toBeLessThanOrEqual(sustainedPowerW(samples));
      }),
      options,
    );
  });

  it('periods of random cut points never overlap and are accepted', () => {
    fc.assert(
      fc.property(periods, (p) => {
        const usage = { StartAt: 0, EndAt: 0, EnergyWh: 0 };
        expect(() => priceSession(charging(2, { TimeOfDay: p }), usage)).not.toThrow();
      }),
      options,
    );
  });
});

describe('across midnight and a change of day in Asia/Shanghai (no daylight saving)', () => {
  // 31 Dec 2026 22:30 → 1 Jan 2027 02:00 local: the day, the month and the year change at local midnight,
  // which is 16:00 UTC; UTC's own midnight (08:00 local) is not inside the session.
  const rule = charging(2, {
    UnitPriceCents: 100,
    TimeOfDay: [
      { From: '08:00', To: '23:00', PriceCentsPerKWh: 150 },
      { From: '23:00', To: '08:00', PriceCentsPerKWh: 50 },
    ],
    IdleFeeCentsPerHour: 60,
    IdleGraceMinutes: 10,
    ServiceFeeCents: 30,
  });
  const T = cst(2026, 12, 31, 22, 30);
  // 240 W from 22:30 to 01:00 (120 Wh every 30 min), full at 01:00, nothing drawn until the unplug at 02:00.
  const samples = samplesAt(T, 30, [240, 240, 240, 240, 240, 0, 0]);
  const usage: Usage = {
    StartAt: T,
    EndAt: cst(2027, 1, 1, 2),
    Samples: samples,
    FullAt: cst(2027, 1, 1, 1),
  };

  it('prices 22:30–23:00 by day and 23:00 → 01:00 of the new year by night; idle after the change of day', () => {
    const price = priceSession(rule, usage);
    expect(price.Lines).toMatchObject([
      { Kind: 'period', Quantity: 120, UnitPriceCents: 150, AmountCents: 18, LabelParams: { From: '08:00' } },
      { Kind: 'period', Quantity: 480, UnitPriceCents: 50, AmountCents: 24, LabelParams: { From: '23:00' } },
      { Kind: 'service', AmountCents: 30 },
      // 01:00 → 02:00 is 60 minutes, less 10 of grace: 50 minutes at ¥0.60/h = 50 cents.
      { Kind: 'idle', Quantity: 50, AmountCents: 50 },
    ]);
    expect(price.AmountCents).toBe(122);
    expect(sum(price)).toBe(price.AmountCents);
  });

  it('reads the wall clock of the area, not UTC: the same instants in UTC (14:30–18:00) are all daytime', () => {
    const utc = priceSession(rule, { ...usage, TimeZone: 'UTC' });
    expect(utc.Lines.filter((l) => l.Kind === 'period')).toMatchObject([
      { Quantity: 600, UnitPriceCents: 150, AmountCents: 90 },
    ]);
  });

  it('a cap limits the whole order across the change of day, the lines still adding up', () => {
    const capped = priceSession({ ...rule, CapCents: 100 }, usage);
    expect(capped).toMatchObject({ GrossCents: 122, AmountCents: 100, Capped: true });
    expect(capped.Lines[capped.Lines.length - 1]).toMatchObject({ Kind: 'cap', AmountCents: -22 });
    expect(sum(capped)).toBe(100);
  });
});

describe('the stored meter: readings folded one at a time', () => {
  const T = cst(2026, 11, 1, 21);
  const terms = {
    TimeOfDay: [
      { From: '08:00', To: '22:00', PriceCentsPerKWh: 150 },
      { From: '22:00', To: '08:00', PriceCentsPerKWh: 60 },
    ],
    TimeZone: 'Asia/Shanghai',
  };

  it('gives the worked bill from a digest exactly as from the list of samples', () => {
    const samples = [
      { At: T, EnergyWh: 5000 },
      { At: T + 40 * MIN, EnergyWh: 5240 },
      { At: T + 80 * MIN, EnergyWh: 5480 },
      { At: T + 150 * MIN, EnergyWh: 5900 },
      { At: T + 220 * MIN, EnergyWh: 5900 },
    ];
    const digest = digestOf(samples, terms);
    expect(digest).toMatchObject({
      SustainedW: 360,
      Count: 5,
      PeriodWh: [
        [0, 360],
        [1, 540],
      ],
    });
    const rule = charging(2, { ...terms, PowerBands: BANDS, IdleFeeCentsPerHour: 120, IdleGraceMinutes: 15 });
    const usage = { StartAt: T, EndAt: T + 220 * MIN, FullAt: T + 150 * MIN };
    expect(priceSession(rule, { ...usage, Meter: digest })).toEqual(
      priceSession(rule, { ...usage, Samples: samples }),
    );
  });

  it('places a device reading: a late or repeated one adds nothing, a clock gone back keeps the energy', () => {
    const d = startDigest({ At: T, EnergyWh: 100 });
    expect(placeReading(d, T + MIN, 110)).toEqual({ At: T + MIN, EnergyWh: 110 });
    expect(placeReading(d, T + MIN, 90)).toBeNull();
    expect(placeReading(d, T, 100)).toBeNull();
    expect(placeReading(d, T - MIN, 100)).toBeNull();
    expect(placeReading(d, T - MIN, 120)).toEqual({ At: T + 1, EnergyWh: 120 });
    expect(() => foldReading(d, { At: T, EnergyWh: 120 }, terms)).toThrow(RangeError);
    expect(() => foldReading(d, { At: T + MIN, EnergyWh: 99 }, terms)).toThrow(RangeError);
  });

  it('refuses a digest that cannot price the tariff: folded without its periods, or given with Samples', () => {
    const samples = samplesAt(T, 30, [400, 400]);
    const rule = charging(2, { TimeOfDay: terms.TimeOfDay });
    const usage = { StartAt: T, EndAt: T + HOUR };
    const unplaced = digestOf(samples, { TimeZone: 'Asia/Shanghai' });
    expect(() => priceSession(rule, { ...usage, Meter: unplaced })).toThrow(/periods/);
    expect(() => priceSession(rule, { ...usage, Meter: digestOf(samples, terms), Samples: samples })).toThrow(
      RangeError,
    );
    const foreign = { ...digestOf(samples, terms), PeriodWh: [[5, 400]] as [number, number][] };
    expect(() => priceSession(rule, { ...usage, Meter: foreign })).toThrow(RangeError);
    const outside = { ...digestOf(samples, terms), Last: { At: T + 2 * HOUR, EnergyWh: 400 } };
    expect(() => priceSession(rule, { ...usage, Meter: outside })).toThrow(RangeError);
  });

  const readings = fc
    .record({
      start: fc.integer({ min: cst(2025, 1, 1), max: cst(2027, 1, 1) }),
      steps: fc.array(
        fc.record({ ms: fc.integer({ min: 1, max: 12 * MIN }), wh: fc.integer({ min: 0, max: 300 }) }),
        { minLength: 0, maxLength: 80 },
      ),
      zone: fc.constantFrom('Asia/Shanghai', 'UTC', 'Pacific/Kiritimati'),
    })
    .map((r) => {
      const samples: MeterSample[] = [{ At: r.start, EnergyWh: 1000 }];
      for (const step of r.steps) {
        const last = samples[samples.length - 1]!;
        samples.push({ At: last.At + step.ms, EnergyWh: last.EnergyWh + step.wh });
      }
      return { samples, zone: r.zone };
    });
  const options = { seed: 30_3, numRuns: 300 };

  it('folding reading by reading gives the sustained power of the whole list, and keeps only the last five minutes open', () => {
    fc.assert(
      fc.property(readings, ({ samples, zone }) => {
        let digest = startDigest(samples[0]!);
        for (const s of samples.slice(1)) {
          digest = foldReading(digest, s, { ...terms, TimeZone: zone });
          expect(digest.Open.every((run) => digest.Last.At - run.At < SUSTAINED_POWER_WINDOW_MS)).toBe(true);
        }
        expect(digest.SustainedW).toBe(sustainedPowerW(samples));
        expect(digest.PeriodWh.reduce((s, [, wh]) => s + wh, 0)).toBe(digestEnergyWh(digest));
      }),
      options,
    );
  });

  it('a live estimate from the stored digest equals the final price from the same readings, lines included', () => {
    const rule = charging(2, {
      TimeOfDay: terms.TimeOfDay,
      PowerBands: BANDS,
      IdleFeeCentsPerHour: 90,
      IdleGraceMinutes: 5,
      ServiceFeeCents: 20,
      CapCents: 900,
    });
    fc.assert(
      fc.property(readings, fc.integer({ min: 0, max: HOUR }), ({ samples, zone }, tail) => {
        const start = samples[0]!.At;
        const last = samples[samples.length - 1]!.At;
        const running = { StartAt: start, FullAt: last, TimeZone: zone };
        const digest = digestOf(samples, { ...terms, TimeZone: zone });
        expect(estimateSession(rule, { ...running, Meter: digest }, last + tail)).toEqual(
          priceSession(rule, { ...running, Samples: samples, EndAt: last + tail }),
        );
      }),
      options,
    );
  });
});

describe('the rule API checks the dimensions with catalogued messages (tariffProblems)', () => {
  const problems = (more: Partial<Tariff>, kind: 1 | 2 | 3 = 2, type: 0 | 3 = 3) =>
    tariffProblems({
      ...charging(kind === 3 ? 1 : kind, more),
      TemporaryChargeType: kind,
      ChargeType: type,
    }).map((p) => [p.path ?? p.field, p.key, p.params ?? {}]);
  const period = (From: string, To: string) => ({ From, To, PriceCentsPerKWh: 10 });

  it('accepts the worked bill, periods leaving time uncovered, and empty lists as none', () => {
    expect(
      problems({
        TimeOfDay: [period('08:00', '22:00'), period('22:00', '08:00')],
        PowerBands: BANDS,
        IdleFeeCentsPerHour: 120,
        IdleGraceMinutes: 15,
        ServiceFeeCents: 50,
      }),
    ).toEqual([]);
    expect(problems({ TimeOfDay: [period('10:00', '12:00')] })).toEqual([]);
    expect(uncoveredTimes([period('10:00', '12:00'), period('20:00', '02:00')])).toEqual([
      { From: '02:00', To: '10:00' },
      { From: '12:00', To: '20:00' },
    ]);
    expect(uncoveredTimes([period('00:00', '00:00')])).toEqual([]);
    expect(problems({ PowerBands: [], TimeOfDay: [] }, 3)).toEqual([]);
  });

  it('names the band out of order and the power it must exceed', () => {
    expect(problems({ PowerBands: [BANDS[0]!, BANDS[2]!, BANDS[1]!] })).toEqual([
      ['PowerBands.2.UpToW', 'garage.validation.bandsAscending', { band: 3, previous: 800 }],
    ]);
  });

  it('names a time not written HH:mm, and two periods that overlap, across midnight too', () => {
    expect(problems({ TimeOfDay: [period('8:00', '10:00'), period('22:00', '24:00')] })).toEqual([
      ['TimeOfDay.0.From', 'garage.validation.timeOfDay', { period: 1 }],
      ['TimeOfDay.1.To', 'garage.validation.timeOfDay', { period: 2 }],
    ]);
    expect(problems({ TimeOfDay: [period('22:00', '02:00'), period('01:00', '03:00')] })).toEqual([
      ['TimeOfDay.1', 'garage.validation.periodsOverlap', { first: '22:00–02:00', second: '01:00–03:00' }],
    ]);
  });

  it('keeps each dimension to the rules it fits', () => {
    expect(problems({ PowerBands: BANDS }, 3)).toEqual([
      ['PowerBands', 'garage.validation.bandsChargingOnly', {}],
    ]);
    expect(problems({ TimeOfDay: [period('01:00', '02:00')] }, 1)).toEqual([
      ['TimeOfDay', 'garage.validation.periodsMeteredOnly', {}],
    ]);
    expect(problems({ IdleFeeCentsPerHour: 100, ServiceFeeCents: 10 }, 1, 0)).toEqual([
      ['IdleFeeCentsPerHour', 'garage.validation.idleFeeChargingOnly', {}],
      ['ServiceFeeCents', 'garage.validation.serviceFeeChargingOnly', {}],
    ]);
  });
});

describe('the lines as people read them', () => {
  it('reads the worked bill in Chinese and English, money in yuan', () => {
    const T = cst(2026, 11, 1, 21);
    const rule = charging(2, {
      TimeOfDay: [{ From: '22:00', To: '08:00', PriceCentsPerKWh: 60 }],
      PowerBands: [
        { UpToW: 200, PriceCents: 10 },
        { UpToW: 500, PriceCents: 20 },
      ],
      IdleFeeCentsPerHour: 120,
      IdleGraceMinutes: 15,
      ServiceFeeCents: 50,
      CapCents: 150,
    });
    const p = priceSession(rule, {
      StartAt: T,
      EndAt: T + 220 * MIN,
      Samples: samplesAt(T, 40, [360, 360]),
      FullAt: T + 150 * MIN,
    });
    const en = p.Lines.map((l) => priceLinePhrase(l, (key, params) => translate('en', key, params)));
    expect(en).toEqual([
      'Period 22:00–08:00: 0.120 kWh × ¥0.60 / kWh = ¥0.07',
      'Energy: 0.360 kWh × ¥1.00 / kWh = ¥0.36',
      'Power band 2 (200–500 W, sustained 360 W): 4 h × ¥0.20 / hour = ¥0.80',
      'Service fee: ¥0.50',
      'Idle fee (from 15 min after full): 55 min × ¥1.20 / hour = ¥1.10',
      'Cap ¥1.50: -¥1.33',
    ]);
    const zh = priceLineText(p.Lines[0]!, (key, params) => translate('zh', key, params));
    expect(zh).toEqual({
      label: '时段 22:00–08:00',
      quantity: '0.120 度',
      unitPrice: '¥0.60 / 度',
      amount: '¥0.07',
    });
  });
});
