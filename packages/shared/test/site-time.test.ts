import dayjs from 'dayjs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatInZone,
  fromWallClock,
  siteTimeZone,
  toWallClock,
  wallClockToIso,
  zoneOffsetLabel,
} from '../src/index.ts';

// The runtime's own zone must not matter: the same wall text at the site whatever zone the browser is in.
const RUNTIME_ZONES = ['UTC', 'Asia/Shanghai', 'America/New_York', 'Pacific/Kiritimati'];
const savedTz = process.env.TZ;
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe.each(RUNTIME_ZONES)('site time with the runtime in %s', (runtimeZone) => {
  it('shows an instant as the site wall time and types it back to the same instant', () => {
    process.env.TZ = runtimeZone;
    const iso = '2026-01-31T15:59:59.000Z';
    expect(formatInZone(iso, 'Asia/Shanghai')).toBe('2026-01-31 23:59:59');
    expect(formatInZone(iso, 'UTC', 'YYYY-MM-DD HH:mm')).toBe('2026-01-31 15:59');
    const wall = toWallClock(iso, 'Asia/Shanghai')!;
    expect(wall.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-01-31 23:59:59');
    expect(wallClockToIso(wall, 'Asia/Shanghai')).toBe(iso);
  });

  it('a validity end picked as 23:59:59 is 23:59:59 at the site', () => {
    process.env.TZ = runtimeZone;
    const picked = dayjs('2026-03-01 23:59:59');
    expect(wallClockToIso(picked, 'Asia/Shanghai')).toBe('2026-03-01T15:59:59.000Z');
    expect(fromWallClock(picked.startOf('day'), 'Asia/Shanghai')).toBe(
      Date.parse('2026-02-28T16:00:00.000Z'),
    );
    expect(formatInZone(wallClockToIso(picked, 'Asia/Shanghai'), 'Asia/Shanghai')).toBe(
      '2026-03-01 23:59:59',
    );
  });
});

describe('site zone', () => {
  it('reads the area Custom timezone, else Asia/Shanghai', () => {
    expect(siteTimeZone('{"timezone":"Europe/Paris"}')).toBe('Europe/Paris');
    expect(siteTimeZone({ timezone: 'UTC' })).toBe('UTC');
    expect(siteTimeZone('{"timezone":"Mars/Base"}')).toBe('Asia/Shanghai');
    expect(siteTimeZone(null)).toBe('Asia/Shanghai');
    expect(siteTimeZone('not json')).toBe('Asia/Shanghai');
  });

  it('labels offsets', () => {
    expect(zoneOffsetLabel('Asia/Shanghai')).toBe('UTC+8');
    expect(zoneOffsetLabel('UTC')).toBe('UTC');
    expect(zoneOffsetLabel('Asia/Kolkata')).toBe('UTC+5:30');
    expect(zoneOffsetLabel('America/New_York', Date.parse('2026-01-15T12:00:00Z'))).toBe('UTC-5');
  });

  it('leaves missing and invalid input empty', () => {
    expect(formatInZone(null, 'UTC')).toBe('');
    expect(formatInZone('nope', 'UTC')).toBe('');
    expect(toWallClock(undefined, 'UTC')).toBeNull();
  });
});
