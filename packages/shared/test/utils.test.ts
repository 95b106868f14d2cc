import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_DAY_SPAN,
  dateSpanDays,
  exceedsMaxDaySpan,
  formatDate,
  parseCustom,
  randomCode,
  relativeTime,
} from '../src/index.ts';

describe('randomCode', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives 3 digits by default', () => {
    for (let i = 0; i < 50; i++) expect(randomCode()).toMatch(/^\d{3}$/);
  });

  it.each([[1], [6], [12], [40]])('gives %i digits when asked', (digits) => {
    expect(randomCode(digits)).toMatch(new RegExp(`^\\d{${digits}}$`));
  });

  it.each([[0], [-1], [1.5], [Number.NaN], [Infinity], ['3'], [null]])(
    'refuses %j with a RangeError',
    (digits) => {
      expect(() => randomCode(digits as number)).toThrow(RangeError);
    },
  );

  it('draws from the Web Crypto generator and redraws bytes that would bias the digits', () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation((array) => {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      bytes.fill(0);
      bytes.set([255, 250, 7, 249, 13].slice(0, bytes.length));
      return array;
    });
    // 255 and 250 are dropped; 7, 249 and 13 give 7, 9, 3.
    expect(randomCode(3)).toBe('793');
    expect(spy).toHaveBeenCalled();
  });

  it('keeps leading zeros', () => {
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation((array) => {
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).fill(0);
      return array;
    });
    expect(randomCode(4)).toBe('0000');
  });

  it('uses every digit', () => {
    const seen = new Set(randomCode(2000));
    expect(seen.size).toBe(10);
  });
});

describe('relativeTime', () => {
  const NOW = new Date(2026, 0, 15, 12, 0, 0);
  const ago = (ms: number) => new Date(NOW.getTime() - ms);
  const S = 1000;
  const M = 60 * S;
  const H = 60 * M;

  it.each([
    [0, 'just now'],
    [10 * S, 'just now'],
    [29_999, 'just now'],
    [30 * S, '1 minute ago'],
    [59 * S, '1 minute ago'],
    [61 * S, '1 minute ago'],
    [2 * M, '2 minutes ago'],
    [H - 1, '59 minutes ago'],
    [H, '1 hour ago'],
    [2 * H + 59 * M, '2 hours ago'],
    [24 * H - 1, '23 hours ago'],
    [24 * H, '1 day ago'],
    [48 * H - 1, '1 day ago'],
    [48 * H, '2026-01-13'],
    [400 * 24 * H, '2024-12-11'],
  ])('%i ms ago reads %s', (ms, text) => {
    expect(relativeTime(ago(ms), NOW, 'en')).toBe(text);
  });

  it('treats up to 30 s in the future as clock drift and later dates as dates', () => {
    expect(relativeTime(ago(-29 * S), NOW, 'en')).toBe('just now');
    expect(relativeTime(ago(-30 * S), NOW, 'en')).toBe('2026-01-15');
    expect(relativeTime(ago(-3 * 24 * H), NOW, 'en')).toBe('2026-01-18');
  });

  it('speaks every language', () => {
    const cases = [0, 5 * M, 1 * M, 3 * H, 1 * H, 30 * H].map((ms) => ago(ms));
    const read = (lang: 'zh' | 'en' | 'es' | 'ja') => cases.map((d) => relativeTime(d, NOW, lang));
    expect(read('zh')).toEqual(['刚刚', '5 分钟前', '1 分钟前', '3 小时前', '1 小时前', '1 天前']);
    expect(read('es')).toEqual([
      'justo ahora',
      'hace 5 minutos',
      'hace 1 minuto',
      'hace 3 horas',
      'hace 1 hora',
      'hace 1 día',
    ]);
    expect(read('ja')).toEqual(['たった今', '5 分前', '1 分前', '3 時間前', '1 時間前', '1 日前']);
  });

  it('defaults to Chinese and accepts epoch milliseconds and ISO strings', () => {
    expect(relativeTime(NOW.getTime() - 5 * M, NOW.getTime())).toBe('5 分钟前');
    expect(relativeTime(ago(2 * H).toISOString(), NOW.toISOString(), 'en')).toBe('2 hours ago');
  });

  it('gives an empty text for an invalid date', () => {
    expect(relativeTime('not a date', NOW, 'en')).toBe('');
    expect(relativeTime(Number.NaN, NOW, 'en')).toBe('');
    expect(relativeTime(NOW, 'nope', 'en')).toBe('');
  });
});

describe('formatDate', () => {
  const local = new Date(2026, 0, 2, 3, 4, 5);

  it('formats Date, epoch milliseconds and ISO strings with the default pattern', () => {
    expect(formatDate(local)).toBe('2026-01-02 03:04:05');
    expect(formatDate(local.getTime())).toBe('2026-01-02 03:04:05');
    expect(formatDate(local.toISOString())).toBe('2026-01-02 03:04:05');
    expect(formatDate('2026-01-02T03:04:05')).toBe('2026-01-02 03:04:05');
  });

  it('takes a dayjs pattern', () => {
    expect(formatDate(local, 'YYYY/MM/DD')).toBe('2026/01/02');
    expect(formatDate(local, 'HH:mm')).toBe('03:04');
  });

  it.each([['not a date'], [''], [Number.NaN], [Infinity], [null], [undefined], [new Date('x')], [{}]])(
    'gives an empty text for %j',
    (value) => {
      expect(formatDate(value as Date)).toBe('');
    },
  );
});

describe('parseCustom', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['{}', {}],
    [' {"theme":{"color":"#fff"}} ', { theme: { color: '#fff' } }],
  ])('parses the object %s', (json, expected) => {
    expect(parseCustom(json)).toEqual(expected);
  });

  it.each([
    ['[1]'],
    ['null'],
    ['1'],
    ['"x"'],
    ['true'],
    ['{bad'],
    [''],
    [null],
    [undefined],
    [42],
    [{ a: 1 }],
  ])('gives null for %j', (json) => {
    expect(parseCustom(json)).toBeNull();
  });
});

describe('day span', () => {
  it('counts started days between two instants', () => {
    expect(dateSpanDays('2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z')).toBe(0);
    expect(dateSpanDays('2024-01-01T00:00:00Z', '2024-01-01T23:59:59.999Z')).toBe(1);
    expect(dateSpanDays('2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z')).toBe(1);
    expect(dateSpanDays('2024-01-01T00:00:00Z', '2024-01-02T00:00:00.001Z')).toBe(2);
  });

  it('allows 61 whole days (1 January to 1 March 2024, both included) and refuses 62', () => {
    expect(MAX_DAY_SPAN).toBe(61);
    expect(dateSpanDays('2024-01-01T00:00:00Z', '2024-03-01T23:59:59.999Z')).toBe(61);
    expect(exceedsMaxDaySpan('2024-01-01T00:00:00Z', '2024-03-01T23:59:59.999Z')).toBe(false);
    expect(exceedsMaxDaySpan('2024-01-01T00:00:00Z', '2024-03-02T00:00:00Z')).toBe(false);
    expect(exceedsMaxDaySpan('2024-01-01T00:00:00Z', '2024-03-02T00:00:00.001Z')).toBe(true);
    expect(exceedsMaxDaySpan('2024-01-01T00:00:00Z', '2024-03-02T23:59:59.999Z')).toBe(true);
  });

  it('agrees in every time zone because it works on elapsed time', () => {
    // The same whole-day range in UTC+8, as a browser in China sends it.
    const from = Date.parse('2023-12-31T16:00:00Z');
    const to = Date.parse('2024-03-01T15:59:59.999Z');
    expect(dateSpanDays(from, to)).toBe(61);
    expect(dateSpanDays(new Date(from), new Date(to))).toBe(61);
  });

  it('gives a reversed range a negative span, which never exceeds the maximum', () => {
    expect(dateSpanDays('2024-03-01T00:00:00Z', '2024-01-01T00:00:00Z')).toBe(-60);
    expect(dateSpanDays('2024-01-01T00:00:01Z', '2024-01-01T00:00:00Z')).toBe(0);
    expect(Object.is(dateSpanDays('2024-01-01T00:00:01Z', '2024-01-01T00:00:00Z'), -0)).toBe(false);
    expect(exceedsMaxDaySpan('2024-06-01T00:00:00Z', '2024-01-01T00:00:00Z')).toBe(false);
  });

  it('throws a RangeError for an invalid date', () => {
    expect(() => dateSpanDays('nope', '2024-01-01T00:00:00Z')).toThrow(RangeError);
    expect(() => exceedsMaxDaySpan('2024-01-01T00:00:00Z', Number.NaN)).toThrow(RangeError);
  });
});
