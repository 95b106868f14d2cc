import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_BATCH_MAX,
  DEVICE_BATCH_MAX,
  canonicalCardNumber,
  cardToDisplay,
  defaultChannels,
  displayToCard,
  doorCount,
  doorNumberAllowed,
  expandCardRange,
  isTwoWay,
  parseCardNumber,
  parseCardNumberList,
  parseSerialNumbers,
  protocolNeedsSync,
  wgTypeFromSerial,
} from '../src/index.ts';

describe('controller types', () => {
  it.each([
    [0, 4, false],
    [1, 1, true],
    [2, 2, true],
    [3, 4, false],
    [9, 0, false],
  ])('type %i has %i doors (two-way: %s)', (type, doors, twoWay) => {
    expect(doorCount(type)).toBe(doors);
    expect(isTwoWay(type)).toBe(twoWay);
  });

  it('allows door 0 (unspecified) and 1 to the door count, nothing beyond', () => {
    expect(doorNumberAllowed(1, 0)).toBe(true);
    expect(doorNumberAllowed(1, 1)).toBe(true);
    expect(doorNumberAllowed(1, 2)).toBe(false);
    expect(doorNumberAllowed(2, 2)).toBe(true);
    expect(doorNumberAllowed(2, 3)).toBe(false);
    expect(doorNumberAllowed(3, 4)).toBe(true);
    expect(doorNumberAllowed(3, 5)).toBe(false);
    expect(doorNumberAllowed(0, 4)).toBe(true);
    expect(doorNumberAllowed(1, -1)).toBe(false);
    expect(doorNumberAllowed(1, 1.5)).toBe(false);
  });

  it('gives two-way models an in and an out reader per door, one-way models an in reader', () => {
    expect(defaultChannels(1)).toEqual([
      { DoorNumber: 1, Direction: 1 },
      { DoorNumber: 1, Direction: 2 },
    ]);
    expect(defaultChannels(2)).toHaveLength(4);
    expect(defaultChannels(3)).toEqual([1, 2, 3, 4].map((DoorNumber) => ({ DoorNumber, Direction: 1 })));
    expect(defaultChannels(0)).toEqual([]);
  });

  it('needs a device sync for WG only', () => {
    expect(protocolNeedsSync(0)).toBe(true);
    expect(protocolNeedsSync(1)).toBe(false);
  });

  it.each([
    ['123456789', 1],
    ['223456789', 2],
    ['423456789', 3],
    ['323456789', null],
    ['923456789', null],
    ['', null],
  ])('WG serial %s is type %s', (serial, type) => {
    expect(wgTypeFromSerial(serial)).toBe(type);
  });
});

describe('serial numbers', () => {
  it('splits a comma-separated list', () => {
    expect(parseSerialNumbers('123456789,223456789')).toEqual({
      ok: true,
      value: ['123456789', '223456789'],
    });
  });

  it.each([
    ['', 'validation.required'],
    ['123, 456', 'validation.commaDigits'],
    ['123,,456', 'validation.commaDigits'],
    ['12a', 'validation.commaDigits'],
    ['123,123', 'accessControl.error.serialRepeated'],
    ['12345678901', 'accessControl.error.serialInvalid'],
    ['4294967296', 'accessControl.error.serialInvalid'],
    ['0', 'accessControl.error.serialInvalid'],
  ])('refuses %j with %s', (text, key) => {
    const result = parseSerialNumbers(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.key).toBe(key);
  });

  it(`refuses more than ${DEVICE_BATCH_MAX} at once`, () => {
    const many = Array.from({ length: DEVICE_BATCH_MAX + 1 }, (_, i) => String(100_000_000 + i)).join(',');
    expect(parseSerialNumbers(many)).toMatchObject({
      ok: false,
      error: { key: 'accessControl.error.batchTooLarge' },
    });
  });
});

describe('card numbers', () => {
  it('stores the printed 10-digit form: leading zeros added, value kept within 32 bits', () => {
    expect(canonicalCardNumber('16777216')).toBe('0016777216');
    expect(canonicalCardNumber('0016777216')).toBe('0016777216');
    expect(canonicalCardNumber('4294967295')).toBe('4294967295');
    expect(canonicalCardNumber('4294967296')).toBeNull();
    expect(canonicalCardNumber('12a')).toBeNull();
    expect(canonicalCardNumber('')).toBeNull();
  });

  it('is the display form of the value a controller reports', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), (value) => {
        const printed = cardToDisplay(value);
        expect(canonicalCardNumber(printed)).toBe(printed);
        expect(displayToCard(canonicalCardNumber(String(Number(printed)))!)).toBe(value);
      }),
    );
  });

  it('takes one number of 2 to 10 digits', () => {
    expect(parseCardNumber('12')).toEqual({ ok: true, value: '0000000012' });
    expect(parseCardNumber('1')).toMatchObject({ ok: false, error: { key: 'validation.cardNumber' } });
    expect(parseCardNumber('12345678901')).toMatchObject({
      ok: false,
      error: { key: 'validation.cardNumber' },
    });
    expect(parseCardNumber('')).toMatchObject({ ok: false, error: { key: 'validation.required' } });
  });

  it('takes a list of 1 to 10 digits each, none repeated once padded', () => {
    expect(parseCardNumberList('1,22,0000000333')).toEqual({
      ok: true,
      value: ['0000000001', '0000000022', '0000000333'],
    });
    expect(parseCardNumberList('22,0022')).toMatchObject({
      ok: false,
      error: { key: 'accessControl.error.cardRepeated', params: { card: '0000000022' } },
    });
    expect(parseCardNumberList('1, 2')).toMatchObject({ ok: false, error: { key: 'validation.cardNumber' } });
    expect(parseCardNumberList('9999999999')).toMatchObject({
      ok: false,
      error: { key: 'validation.cardNumber' },
    });
  });

  it('expands a range of printed numbers, both ends included', () => {
    expect(expandCardRange('0000000098', '101')).toEqual({
      ok: true,
      value: ['0000000098', '0000000099', '0000000100', '0000000101'],
    });
    expect(expandCardRange('55', '55')).toEqual({ ok: true, value: ['0000000055'] });
    expect(expandCardRange('20', '10')).toMatchObject({
      ok: false,
      error: { key: 'accessControl.error.cardRangeReversed' },
    });
    expect(expandCardRange('10', String(10 + CARD_BATCH_MAX))).toMatchObject({
      ok: false,
      error: { key: 'accessControl.error.batchTooLarge', params: { max: CARD_BATCH_MAX } },
    });
    expect(expandCardRange('10', String(9 + CARD_BATCH_MAX))).toMatchObject({ ok: true });
    expect(expandCardRange('4294967290', '4294967296')).toMatchObject({
      ok: false,
      error: { key: 'validation.cardNumber' },
    });
  });

  it('yields consecutive canonical numbers for any valid range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10, max: 0xffff_ffff - 50 }),
        fc.integer({ min: 0, max: 50 }),
        (start, length) => {
          const result = expandCardRange(String(start), String(start + length));
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(result.value).toHaveLength(length + 1);
          result.value.forEach((n, i) => {
            expect(n).toHaveLength(10);
            expect(Number(n)).toBe(start + i);
            expect(canonicalCardNumber(n)).toBe(n);
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
