import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInstant } from '../src/utils/iso-instant.ts';

describe('isoInstant', () => {
  it('writes exactly what Date.toISOString writes, for every instant from 1970 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([0, 951_782_400_000, 951_868_799_999, 4_107_542_400_000, 1_795_389_999_999, 253_402_300_799_999])(
    'agrees on the edges: %i (epoch, leap days of 2000 and 2100, year 9999)',
    (ms) => expect(isoInstant(ms)).toBe(new Date(ms).toISOString()),
  );

  it('falls back to the built-in formatter outside its range', () => {
    expect(isoInstant(-1)).toBe('1969-12-31T23:59:59.999Z');
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
  });
});
