import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CARD_VALUE_MAX, cardToDisplay, displayToCard } from '../src/index.ts';

const uint32 = fc.integer({ min: 0, max: CARD_VALUE_MAX });
const digitString = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

describe('cardToDisplay', () => {
  it.each([
    [0x12345678, '2018915346'], // bytes 12 34 56 78 → 78 56 34 12
    [1, '0016777216'],
    [0x01000000, '0000000001'],
    [255, '4278190080'],
    [0, '0000000000'],
    [CARD_VALUE_MAX, '4294967295'],
  ])('%i → %s', (value, display) => {
    expect(cardToDisplay(value)).toBe(display);
  });

  it.each([[-1], [2 ** 32], [1.5], [Number.NaN], [Infinity], ['123'], [null], [2 ** 53]])(
    'refuses %j with a RangeError',
    (value) => {
      expect(() => cardToDisplay(value as number)).toThrow(RangeError);
    },
  );
});

describe('displayToCard', () => {
  it.each([
    ['2018915346', 0x12345678],
    ['0016777216', 1],
    ['16777216', 1],
    ['0000000000', 0],
    ['0', 0],
    ['4294967295', CARD_VALUE_MAX],
  ])('%s → %i', (display, value) => {
    expect(displayToCard(display)).toBe(value);
  });

  it.each([
    ['4294967296'],
    ['9999999999'],
    ['12345678901'],
    ['00000000001'],
    [''],
    [' 123'],
    ['123 '],
    ['-1'],
    ['+1'],
    ['1e3'],
    ['1.0'],
    ['0x10'],
    ['１２３'],
    [123],
    [null],
  ])('refuses %j with a RangeError', (value) => {
    expect(() => displayToCard(value as string)).toThrow(RangeError);
  });
});

describe('card-number properties', () => {
  it('displayToCard(cardToDisplay(n)) === n for every 32-bit n', () => {
    fc.assert(
      fc.property(uint32, (n) => displayToCard(cardToDisplay(n)) === n),
      { numRuns: 20_000 },
    );
  });

  it('the display is always exactly 10 digits', () => {
    fc.assert(fc.property(uint32, (n) => /^\d{10}$/.test(cardToDisplay(n))));
  });

  it('cardToDisplay(displayToCard(s)) is s padded to 10 digits for every in-range digit string', () => {
    const inRange = digitString(1, 10).filter((s) => Number(s) <= CARD_VALUE_MAX);
    fc.assert(fc.property(inRange, (s) => cardToDisplay(displayToCard(s)) === s.padStart(10, '0')));
  });

  it('refuses integers outside 32 bits instead of wrapping them', () => {
    const outside = fc.oneof(
      fc.integer({ min: CARD_VALUE_MAX + 1, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
    );
    fc.assert(fc.property(outside, (n) => throwsRange(() => cardToDisplay(n))));
  });

  it('refuses non-integers', () => {
    const fractional = fc
      .double({ min: 0, max: CARD_VALUE_MAX, noNaN: true })
      .filter((x) => !Number.isInteger(x));
    fc.assert(fc.property(fractional, (x) => throwsRange(() => cardToDisplay(x))));
  });

  it('refuses digit strings longer than 10 instead of truncating them', () => {
    fc.assert(fc.property(digitString(11, 30), (s) => throwsRange(() => displayToCard(s))));
  });

  it('refuses 10-digit strings above 2^32 - 1 instead of wrapping them', () => {
    const tooBig = fc.integer({ min: CARD_VALUE_MAX + 1, max: 9_999_999_999 }).map(String);
    fc.assert(fc.property(tooBig, (s) => throwsRange(() => displayToCard(s))));
  });

  it('refuses any string with a character other than 0-9', () => {
    const withForeign = fc
      .tuple(digitString(0, 5), fc.string({ minLength: 1, maxLength: 3 }), digitString(0, 5))
      .filter(([, middle]) => /[^0-9]/.test(middle))
      .map(([a, b, c]) => a + b + c);
    fc.assert(fc.property(withForeign, (s) => throwsRange(() => displayToCard(s))));
  });
});

function throwsRange(fn: () => unknown): boolean {
  try {
    fn();
    return false;
  } catch (error) {
    return error instanceof RangeError;
  }
}
