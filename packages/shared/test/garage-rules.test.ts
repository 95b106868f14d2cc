import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SITE_TIME_ZONE,
  HOST_CONNECTION_FIELDS,
  HOST_ONLINE_WINDOW_MS,
  LANGUAGES,
  TEMPORARY_CHARGE_TYPES_BY_CHARGE_TYPE,
  addLocalDays,
  addLocalMonths,
  centsFromYuan,
  chargePortState,
  chargeType,
  chargingSystemType,
  formatCents,
  formatKWh,
  hasKey,
  isHostOnline,
  isTimeZone,
  localDateKey,
  passEnd,
  portStateGroup,
  priceUnitKey,
  startOfLocalDay,
  tariffProblems,
  temporaryChargeType,
  type Tariff,
} from '../src/index.ts';

const SH = 'Asia/Shanghai';
const cst = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h - 8, mi);

describe('calendar in a site time zone', () => {
  it.each([
    ['31 Jan + 1 month → last day of February', cst(2026, 1, 31, 10), 2, 1, cst(2026, 2, 28, 10)],
    ['31 Jan 2028 + 1 month → 29 February (leap year)', cst(2028, 1, 31, 10), 2, 1, cst(2028, 2, 29, 10)],
    [
      '31 Jan + 3 months → 30 April, counted from the start',
      cst(2026, 1, 31, 10),
      2,
      3,
      cst(2026, 4, 30, 10),
    ],
    ['30 Nov + 2 months → 30 January, across a year end', cst(2026, 11, 30, 8), 2, 2, cst(2027, 1, 30, 8)],
    ['29 Feb 2028 + 1 year → 28 February 2029', cst(2028, 2, 29, 0), 3, 1, cst(2029, 2, 28, 0)],
    ['31 Jan 23:00 + 1 day → 1 Feb 23:00', cst(2026, 1, 31, 23), 1, 1, cst(2026, 2, 1, 23)],
    ['23:00 + 5 hours → 04:00 the next day', cst(2026, 11, 1, 23), 0, 5, cst(2026, 11, 2, 4)],
  ] as const)('passEnd: %s', (_name, start, unit, units, end) => {
    expect(passEnd(start, unit, units, SH)).toBe(end);
  });

  it('keeps the wall time across a daylight-saving change (New York, March)', () => {
    const start = Date.UTC(2026, 2, 1, 15); // 1 March 10:00 EST (UTC-5)
    const end = addLocalMonths(start, 1, 'America/New_York');
    expect(end).toBe(Date.UTC(2026, 3, 1, 14)); // 1 April 10:00 EDT (UTC-4)
    expect(addLocalDays(start, 31, 'America/New_York')).toBe(end);
  });

  it('refuses zero or fractional units', () => {
    expect(() => passEnd(cst(2026, 1, 1), 2, 0, SH)).toThrow(RangeError);
    expect(() => passEnd(cst(2026, 1, 1), 2, 1.5, SH)).toThrow(RangeError);
  });

  it('finds the local day: start and date text', () => {
    const late = Date.UTC(2026, 10, 22, 22, 30); // 23 Nov 06:30 in Shanghai
    expect(startOfLocalDay(late, SH)).toBe(cst(2026, 11, 23));
    expect(localDateKey(late, SH)).toBe('2026-11-23');
    expect(localDateKey(late, 'UTC')).toBe('2026-11-22');
    expect(addLocalDays(cst(2026, 3, 1), -1, SH)).toBe(cst(2026, 2, 28));
  });

  it('knows real zone names only', () => {
    expect(isTimeZone(DEFAULT_SITE_TIME_ZONE)).toBe(true);
    expect(isTimeZone('Europe/Madrid')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(8)).toBe(false);
  });
});

describe('money and energy text', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [100, '1.00'],
    [123456, '1234.56'],
    [-5, '-0.05'],
  ])('formatCents(%i) = %s', (cents, text) => expect(formatCents(cents)).toBe(text));

  it.each([
    ['12', 1200],
    ['12.5', 1250],
    ['12.50', 1250],
    ['0.05', 5],
    ['0.1', 10],
    ['1.234', null],
    ['-1', null],
    [' 1', null],
    ['1e3', null],
    ['', null],
  ])('centsFromYuan(%j) = %j', (text, cents) => expect(centsFromYuan(text)).toBe(cents));

  it('round-trips every amount exactly', () => {
    for (const cents of [0, 1, 10, 99, 101, 10_000_000, 123_456_789])
      expect(centsFromYuan(formatCents(cents))).toBe(cents);
  });

  it.each([
    [0, '0.000'],
    [5, '0.005'],
    [1234, '1.234'],
    [1_000_000, '1000.000'],
  ])('formatKWh(%i) = %s', (wh, text) => expect(formatKWh(wh)).toBe(text));

  it('refuses fractions', () => {
    expect(() => formatCents(1.5)).toThrow(RangeError);
    expect(() => formatKWh(0.5)).toThrow(RangeError);
  });
});

describe('rule terms per charge type', () => {
  const base = { UnitPriceCents: 100, FreeMinutes: 0, CapCents: null, TimeUnit: null } as const;
  it.each([
    ['temporary parking, timed', { ...base, ChargeType: 0, TemporaryChargeType: 1 }, []],
    ['temporary parking, per use', { ...base, ChargeType: 0, TemporaryChargeType: 3 }, []],
    [
      'temporary parking, metered',
      { ...base, ChargeType: 0, TemporaryChargeType: 2 },
      ['TemporaryChargeType:garage.validation.parkingNotMetered'],
    ],
    [
      'temporary charging, metered',
      { ...base, ChargeType: 3, TemporaryChargeType: 2, FreeMinutes: 5, CapCents: 800 },
      [],
    ],
    [
      'temporary charging, not configured',
      { ...base, ChargeType: 3, TemporaryChargeType: 0 },
      ['TemporaryChargeType:garage.validation.temporaryTypeRequired'],
    ],
    [
      'temporary with a time unit',
      { ...base, ChargeType: 3, TemporaryChargeType: 1, TimeUnit: 2 },
      ['TimeUnit:garage.validation.temporaryHasNoTimeUnit'],
    ],
    ['monthly', { ...base, ChargeType: 1, TemporaryChargeType: 0, TimeUnit: 2 }, []],
    ['monthly with charging, yearly', { ...base, ChargeType: 2, TemporaryChargeType: 0, TimeUnit: 3 }, []],
    [
      'monthly with everything wrong',
      { ...base, ChargeType: 1, TemporaryChargeType: 1, TimeUnit: null, FreeMinutes: 10, CapCents: 500 },
      [
        'TemporaryChargeType:garage.validation.monthlyHasNoTemporaryType',
        'TimeUnit:garage.validation.timeUnitRequired',
        'FreeMinutes:garage.validation.monthlyHasNoFreeMinutes',
        'CapCents:garage.validation.monthlyHasNoCap',
      ],
    ],
  ])('%s', (_name, terms, problems) => {
    expect(tariffProblems(terms as Tariff).map((p) => `${p.field}:${p.key}`)).toEqual(problems);
  });

  it('names an allowed temporary charge type list for every charge type', () => {
    for (const item of chargeType.items) {
      const allowed = TEMPORARY_CHARGE_TYPES_BY_CHARGE_TYPE[item.value]!;
      expect(allowed.length).toBeGreaterThan(0);
      for (const v of allowed) expect(temporaryChargeType.items.some((i) => i.value === v)).toBe(true);
    }
  });

  it.each([
    [{ ChargeType: 0, TemporaryChargeType: 1, TimeUnit: null }, 'unit.hour'],
    [{ ChargeType: 3, TemporaryChargeType: 2, TimeUnit: null }, 'unit.kWh'],
    [{ ChargeType: 3, TemporaryChargeType: 3, TimeUnit: null }, 'unit.times'],
    [{ ChargeType: 1, TemporaryChargeType: 0, TimeUnit: 2 }, 'enum.timeUnit.2'],
    [{ ChargeType: 2, TemporaryChargeType: 0, TimeUnit: 3 }, 'enum.timeUnit.3'],
    [{ ChargeType: 3, TemporaryChargeType: 0, TimeUnit: null }, null],
  ] as const)('priceUnitKey(%j) = %s', (terms, key) => {
    expect(priceUnitKey(terms as Tariff)).toBe(key);
    if (key) for (const lang of LANGUAGES) expect(hasKey(lang, key)).toBe(true);
  });
});

describe('charge-port groups and hosts', () => {
  it('puts every port state in exactly one group', () => {
    const groups = Object.fromEntries(chargePortState.items.map((i) => [i.value, portStateGroup(i.value)]));
    expect(groups).toEqual({
      0: 'idle',
      1: 'occupied',
      2: 'occupied',
      3: 'occupied',
      4: 'fault',
      5: 'occupied',
      6: 'fault',
      7: 'fault',
      8: 'fault',
      9: 'fault',
      10: 'fault',
      11: 'occupied',
      12: 'disabled',
      170: 'occupied',
      255: 'offline',
    });
  });

  it('never counts a state it does not know as free', () => {
    expect(portStateGroup(99)).toBe('occupied');
  });

  it('describes the connection of every charging system type, with labels in every language', () => {
    for (const item of chargingSystemType.items) {
      const spec = HOST_CONNECTION_FIELDS[item.value];
      expect(spec, String(item.value)).toBeDefined();
      for (const field of Object.values(spec!))
        for (const lang of LANGUAGES)
          expect(hasKey(lang, field.labelKey), `${lang} ${field.labelKey}`).toBe(true);
    }
    expect(Object.values(HOST_CONNECTION_FIELDS[0]!).every((f) => f.need === 'none')).toBe(true);
    expect(HOST_CONNECTION_FIELDS[1]!.Password.need).toBe('required');
  });

  it('counts a host online within the window only', () => {
    const now = cst(2026, 11, 1, 12);
    expect(isHostOnline(now - HOST_ONLINE_WINDOW_MS, now)).toBe(true);
    expect(isHostOnline(now - HOST_ONLINE_WINDOW_MS - 1, now)).toBe(false);
    expect(isHostOnline(null, now)).toBe(false);
  });
});
