/**
 * Access-control rules both sides apply: what a controller type offers (doors, directions), which
 * controllers need their authorisations synchronised, how a WG serial number names its model, and how
 * serial and card numbers are entered (one, a comma-separated list, or a range of cards).
 * Failures are catalogue keys with parameters, like the validators.
 */
import { cardNumber, cardNumberList, commaDigits } from './validators/rules.ts';
import { CARD_VALUE_MAX, cardToDisplay, displayToCard } from './utils/card-number.ts';

export interface RuleError {
  key: string;
  params?: Record<string, string | number>;
}

export type RuleResult<T> = { ok: true; value: T } | { ok: false; error: RuleError };

const fail = (key: string, params?: Record<string, string | number>): { ok: false; error: RuleError } => ({
  ok: false,
  error: params ? { key, params } : { key },
});

/** accessControlProtocol values. */
export const PROTOCOL_WG = 0;
export const PROTOCOL_OTHER = 1;

/** doorDirection values. */
export const DIRECTION_IN = 1;
export const DIRECTION_OUT = 2;

/** At most this many devices or cards are registered in one request. */
export const DEVICE_BATCH_MAX = 200;
export const CARD_BATCH_MAX = 1000;

/**
 * Doors of each accessControlType: 1 single door, 2 two doors, 3 four doors. An unspecified model (0)
 * may use any door number the enumeration knows (1 to 4).
 */
const DOORS: Record<number, number> = { 0: 4, 1: 1, 2: 2, 3: 4 };

export function doorCount(type: number): number {
  return DOORS[type] ?? 0;
}

/** Two-way models have an in and an out reader on each door; one-way models one reader per door. */
export function isTwoWay(type: number): boolean {
  return type === 1 || type === 2;
}

/** Door 0 means unspecified and is always allowed; otherwise 1 to the model's door count. */
export function doorNumberAllowed(type: number, door: number): boolean {
  return Number.isInteger(door) && (door === 0 || (door >= 1 && door <= doorCount(type)));
}

/** The channels a controller model has out of the box: a reader per door and direction. */
export function defaultChannels(type: number): { DoorNumber: number; Direction: number }[] {
  if (type === 0) return [];
  const out: { DoorNumber: number; Direction: number }[] = [];
  for (let door = 1; door <= doorCount(type); door++) {
    out.push({ DoorNumber: door, Direction: DIRECTION_IN });
    if (isTwoWay(type)) out.push({ DoorNumber: door, Direction: DIRECTION_OUT });
  }
  return out;
}

/**
 * WG controllers carry their authorisations in their own memory, so each grant, change and revoke waits
 * for the device sync (issue statuses 1, 2, -1). Controllers of other protocols check cards elsewhere:
 * their authorisations need no issue (status 0).
 */
export function protocolNeedsSync(protocol: number): boolean {
  return protocol === PROTOCOL_WG;
}

/**
 * A WG serial number names the model by its first digit: 1 single door two-way (type 1), 2 two doors
 * two-way (type 2), 4 four doors one-way (type 3). Any other first digit is not a WG controller (null).
 */
export function wgTypeFromSerial(serial: string): 1 | 2 | 3 | null {
  switch (serial[0]) {
    case '1':
      return 1;
    case '2':
      return 2;
    case '4':
      return 3;
    default:
      return null;
  }
}

/**
 * Comma-separated serial numbers (the spec's rule and message), each at most 10 digits and a 32-bit
 * value (the WG protocol carries the serial in 4 bytes), none repeated, at most DEVICE_BATCH_MAX.
 */
export function parseSerialNumbers(text: unknown): RuleResult<string[]> {
  const key = commaDigits(text);
  if (key) return fail(key);
  const serials = String(text).split(',');
  if (serials.length > DEVICE_BATCH_MAX)
    return fail('accessControl.error.batchTooLarge', { max: DEVICE_BATCH_MAX });
  const seen = new Set<string>();
  for (const serial of serials) {
    if (serial.length > 10 || Number(serial) > CARD_VALUE_MAX || Number(serial) === 0)
      return fail('accessControl.error.serialInvalid', { serial });
    if (seen.has(serial)) return fail('accessControl.error.serialRepeated', { serial });
    seen.add(serial);
  }
  return { ok: true, value: serials };
}

/**
 * The one stored form of a card number: the 10-digit text printed on the card (leading zeros added), so
 * '16777216' and '0016777216' are the same card. Null when it is not 1 to 10 digits or exceeds 32 bits.
 */
export function canonicalCardNumber(text: string): string | null {
  try {
    return cardToDisplay(displayToCard(text));
  } catch {
    return null;
  }
}

/** One card number as entered (the spec's 2 to 10 digits), in its stored form. */
export function parseCardNumber(text: unknown): RuleResult<string> {
  if (typeof text !== 'string' || text === '') return fail('validation.required');
  const key = cardNumber(text);
  const canonical = key ? null : canonicalCardNumber(text);
  return canonical ? { ok: true, value: canonical } : fail('validation.cardNumber');
}

/** A comma-separated list of card numbers (each 1 to 10 digits), none repeated, in stored form. */
export function parseCardNumberList(text: unknown): RuleResult<string[]> {
  if (typeof text !== 'string' || text === '') return fail('validation.required');
  if (cardNumberList(text)) return fail('validation.cardNumber');
  const items = text.split(',');
  if (items.length > CARD_BATCH_MAX)
    return fail('accessControl.error.batchTooLarge', { max: CARD_BATCH_MAX });
  const seen = new Set<string>();
  for (const item of items) {
    const canonical = canonicalCardNumber(item);
    if (!canonical) return fail('validation.cardNumber');
    if (seen.has(canonical)) return fail('accessControl.error.cardRepeated', { card: canonical });
    seen.add(canonical);
  }
  return { ok: true, value: [...seen] };
}

/**
 * Every card from `start` to `end` inclusive, counting in printed numbers (a box of cards is numbered
 * consecutively on the cards, not in the controller's byte order). At most CARD_BATCH_MAX cards.
 */
export function expandCardRange(start: unknown, end: unknown): RuleResult<string[]> {
  const from = parseCardNumber(start);
  if (!from.ok) return from;
  const to = parseCardNumber(end);
  if (!to.ok) return to;
  const first = Number(from.value);
  const last = Number(to.value);
  if (last < first) return fail('accessControl.error.cardRangeReversed');
  if (last - first + 1 > CARD_BATCH_MAX)
    return fail('accessControl.error.batchTooLarge', { max: CARD_BATCH_MAX });
  const out: string[] = [];
  for (let n = first; n <= last; n++) out.push(String(n).padStart(10, '0'));
  return { ok: true, value: out };
}
