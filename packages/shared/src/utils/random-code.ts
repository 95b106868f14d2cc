import { RANDOM_CODE_DEFAULT_DIGITS } from '../constants.ts';

/** getRandomValues fills at most 65,536 bytes per call. */
const MAX_BYTES = 65_536;

/**
 * A numeric confirmation code of `digits` digits, as text so leading zeros survive ('042').
 * Uses the Web Crypto generator (browsers and Node 20 alike); each digit is uniform, since bytes of 250 and
 * above are drawn again instead of folded onto 0-5.
 */
export function randomCode(digits: number = RANDOM_CODE_DEFAULT_DIGITS): string {
  if (!Number.isSafeInteger(digits) || digits < 1) {
    throw new RangeError(`randomCode: digits must be a positive integer, got ${String(digits)}`);
  }
  let code = '';
  while (code.length < digits) {
    const bytes = globalThis.crypto.getRandomValues(
      new Uint8Array(Math.min(MAX_BYTES, digits - code.length + 8)),
    );
    for (const byte of bytes) {
      if (byte < 250) code += String(byte % 10);
      if (code.length === digits) break;
    }
  }
  return code;
}
