import { expect, it } from 'vitest';
import { fromLocalTime, localTime } from '../src/index.ts';

/*
 * The wall clock of an instant in a zone is read from Intl once per zone and quarter hour and then computed
 * (tariff/calendar.ts, offsetAt): it must equal Intl's own answer everywhere, across daylight-saving changes,
 * historical odd offsets (local mean time), half-hour and 45-minute zones, and far dates.
 */
const zones = [
  'Asia/Shanghai',
  'Europe/Madrid',
  'America/New_York',
  'Asia/Tokyo',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/Santiago',
  'UTC',
];

function formatter(zone: string) {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
}

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function reference(ms: number, zone: string) {
  let f = formatters.get(zone);
  if (!f) formatters.set(zone, (f = formatter(zone)));
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { ...parts, millisecond: ((ms % 1000) + 1000) % 1000 };
}

it(
  'equals Intl for random instants from 1890 to 2100 and every second around this year’s changes',
  { timeout: 60_000 },
  () => {
    let seed = 20261126;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const from = Date.UTC(1890, 0, 1);
    const to = Date.UTC(2100, 0, 1);
    for (const zone of zones) {
      for (let i = 0; i < 3000; i++) {
        const ms = Math.floor(from + random() * (to - from));
        expect(localTime(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toEqual(reference(ms, zone));
      }
    }
    // Every second or so of the hour around Madrid's and New York's 2026 changes (spring and autumn), and an old one.
    for (const [zone, at] of [
      ['Europe/Madrid', Date.UTC(2026, 2, 29, 1)],
      ['Europe/Madrid', Date.UTC(2026, 9, 25, 1)],
      ['America/New_York', Date.UTC(2026, 2, 8, 7)],
      ['America/New_York', Date.UTC(2026, 10, 1, 6)],
      // Shanghai's local mean time (+08:05:43) ended at 1900-12-31T15:54:17Z, inside a quarter hour.
      ['Asia/Shanghai', Date.UTC(1900, 11, 31, 15, 54, 17)],
    ] as const) {
      for (let ms = at - 1_800_000; ms <= at + 1_800_000; ms += 997)
        expect(localTime(ms, zone)).toEqual(reference(ms, zone));
    }
  },
);

it('takes a wall time back to its instant', () => {
  for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 3_600_000 * 7 + 1234) {
    expect(fromLocalTime(localTime(ms, 'Asia/Shanghai'), 'Asia/Shanghai')).toBe(ms);
    expect(fromLocalTime(localTime(ms, 'America/New_York'), 'America/New_York')).toBeOneOf([
      ms,
      ms - 3_600_000,
    ]);
  }
});
