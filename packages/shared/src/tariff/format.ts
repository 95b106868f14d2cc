/** Money is integer cents and energy integer Wh everywhere; these turn them into the text people read and type. */

/** 123456 → '1234.56', -5 → '-0.05'. No currency sign and no grouping: screens and exports add their own. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${String(cents)}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Yuan as typed ('12', '12.5', '12.50', '0.05') → cents, exactly (no floating point); null for anything
 * else (negative, more than two decimals, spaces, exponent).
 */
export function centsFromYuan(text: string): number | null {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Wh → kWh text with three decimals: 1234 → '1.234'. */
export function formatKWh(wh: number): string {
  if (!Number.isSafeInteger(wh)) throw new RangeError(`not a whole number of Wh: ${String(wh)}`);
  const sign = wh < 0 ? '-' : '';
  const abs = Math.abs(wh);
  return `${sign}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, '0')}`;
}
