/**
 * Card-number conversion of the spec: controllers report a card as a 32-bit value whose bytes are in the
 * opposite order to the number printed on the card. `cardToDisplay` reverses the four bytes and pads the
 * decimal to 10 digits; `displayToCard` is its exact inverse. Anything that cannot round-trip is refused
 * with a RangeError rather than truncated or wrapped.
 */

export const CARD_VALUE_MAX = 0xffff_ffff;
export const CARD_DISPLAY_LENGTH = 10;

function reverseBytes(n: number): number {
  return (((n & 0xff) << 24) | ((n & 0xff00) << 8) | ((n >>> 8) & 0xff00) | (n >>> 24)) >>> 0;
}

/** 32-bit card value (an integer 0..2^32-1) → 10-digit display text. */
export function cardToDisplay(n: number): string {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > CARD_VALUE_MAX) {
    throw new RangeError(`card value must be an integer from 0 to ${CARD_VALUE_MAX}, got ${String(n)}`);
  }
  return String(reverseBytes(n)).padStart(CARD_DISPLAY_LENGTH, '0');
}

/**
 * Display text → 32-bit card value. Accepts 1 to 10 ASCII digits (leading zeros optional, no sign, no
 * spaces) whose value fits in 32 bits.
 */
export function displayToCard(s: string): number {
  if (typeof s !== 'string' || !/^[0-9]{1,10}$/.test(s)) {
    throw new RangeError(`card number must be 1 to ${CARD_DISPLAY_LENGTH} digits, got ${JSON.stringify(s)}`);
  }
  const value = Number(s);
  if (value > CARD_VALUE_MAX) throw new RangeError(`card number ${s} does not fit in 32 bits`);
  return reverseBytes(value);
}
