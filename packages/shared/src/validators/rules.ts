/**
 * Form rules of the spec (section 5). Each is a pure function of a value returning null (valid) or a
 * catalogue key under `validation.` that both server (zod) and web (antd) translate.
 * Every rule but `required` and `commaDigits` accepts an absent value (undefined, null, '' or []): combine
 * with `required` when the field is mandatory. Values are never trimmed here: surrounding spaces are an
 * error the user should see, and a value of spaces only is not "absent" for the format rules (it fails
 * them), while `required` treats it as empty.
 */

export type ValidationKey =
  | 'validation.required'
  | 'validation.digits'
  | 'validation.commaDigits'
  | 'validation.commaIds'
  | 'validation.cardNumber'
  | 'validation.upperAlnum'
  | 'validation.phone'
  | 'validation.chineseName'
  | 'validation.citizenIdFormat'
  | 'validation.citizenIdCheck'
  | 'validation.plate'
  | 'validation.email'
  | 'validation.url'
  | 'validation.alnum'
  | 'validation.upper'
  | 'validation.lower'
  | 'validation.passcode'
  | 'validation.passcodeCount'
  | 'validation.passcodeRepeated';

export type Validator = (value: unknown) => ValidationKey | null;

/** What `required` refuses: nothing, an empty list, or text that is empty or only spaces. */
export function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** What the format rules let through untouched: a field left blank, not one holding spaces. */
function isAbsent(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

/** The text a rule checks. Numbers beyond 2^53 lose digits, so they are refused rather than checked. */
function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) {
    return String(value);
  }
  return null;
}

/** A rule for non-empty values that must match a pattern. */
function pattern(re: RegExp, key: ValidationKey): Validator {
  return (value) => {
    if (isAbsent(value)) return null;
    const s = text(value);
    return s !== null && re.test(s) ? null : key;
  };
}

export const required: Validator = (value) => (isEmpty(value) ? 'validation.required' : null);

export const digits = pattern(/^\d+$/, 'validation.digits');

/** Serial numbers: digits separated by commas, mandatory. */
export const commaDigits: Validator = (value) => {
  if (isEmpty(value)) return 'validation.required';
  const s = text(value);
  return s !== null && /^\d+(,\d+)*$/.test(s) ? null : 'validation.commaDigits';
};

/**
 * Ids in a query, separated by commas (an area's users): each a whole number from 1 to 2,147,483,647, the ids'
 * column range on both databases. Digits alone let "8640000000000001" through to PostgreSQL, whose integer
 * column refused it with a 500 (found by attack-fuzz.test.ts).
 */
export const commaIds: Validator = (value) => {
  const s = text(value);
  if (s === null || !/^\d+(,\d+)*$/.test(s)) return 'validation.commaIds';
  return s.split(',').every((part) => Number(part) >= 1 && Number(part) <= 2_147_483_647)
    ? null
    : 'validation.commaIds';
};

export const cardNumber = pattern(/^\d{2,10}$/, 'validation.cardNumber');

/** One item of a card-number list, or a whole stored card number in a filter: 1 to 10 digits. */
export const cardNumberItem = pattern(/^\d{1,10}$/, 'validation.cardNumber');

export const cardNumberList = pattern(/^\d{1,10}(,\d{1,10})*$/, 'validation.cardNumber');

export const upperAlnum = pattern(/^[A-Z0-9]+$/, 'validation.upperAlnum');

export const phone = pattern(/^1[3-9]\d{9}$/, 'validation.phone');

/**
 * 2 to 6 Chinese characters: the CJK unified ideographs (basic block, extension A, and extensions B to G
 * beyond the BMP, where rare name characters live) plus 〇. Counted in characters, not UTF-16 units.
 */
export const chineseName = pattern(
  /^[\u3007\u3400-\u4dbf\u4e00-\u9fff\u{20000}-\u{3134f}]{2,6}$/u,
  'validation.chineseName',
);

/** A real calendar date, Gregorian rules (1900 is not a leap year, 2000 is). */
export function isValidDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** GB 11643 check character of the first 17 digits. */
export function citizenIdCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11]!;
}

/**
 * Chinese citizen id: 15 digits (yymmdd birth date, 19xx) or 18 characters (yyyymmdd birth date not after
 * today, GB 11643 mod-11 check character, X in either case). A bad shape or date is a format error; a
 * wrong check character is a verification failure.
 */
export function citizenId(value: unknown, now: Date = new Date()): ValidationKey | null {
  if (isAbsent(value)) return null;
  const s = text(value);
  if (s === null) return 'validation.citizenIdFormat';
  if (/^\d{15}$/.test(s)) {
    const ok = isValidDate(1900 + Number(s.slice(6, 8)), Number(s.slice(8, 10)), Number(s.slice(10, 12)));
    return ok ? null : 'validation.citizenIdFormat';
  }
  if (!/^\d{17}[\dXx]$/.test(s)) return 'validation.citizenIdFormat';
  const year = Number(s.slice(6, 10));
  const month = Number(s.slice(10, 12));
  const day = Number(s.slice(12, 14));
  if (year < 1800 || !isValidDate(year, month, day)) return 'validation.citizenIdFormat';
  const birth = Date.UTC(year, month - 1, day);
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  if (birth > today) return 'validation.citizenIdFormat';
  return citizenIdCheckChar(s.slice(0, 17)) === s[17]!.toUpperCase() ? null : 'validation.citizenIdCheck';
}

/** Province abbreviations that start a plate, plus 使 (embassy) and 领 (consulate). */
export const PLATE_PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼使领';
/** Suffix characters of special plates: trailer, coach, police, Hong Kong, Macau, consulate, trial, over-limit. */
export const PLATE_SUFFIXES = '挂学警港澳领试超';

/**
 * First character of a small new-energy plate's serial: D, then A B C E for battery-electric cars, F, then
 * G H J K for the others (letters are taken in that order as a city's combinations run out; I and O never).
 */
export const NEW_ENERGY_SMALL_PREFIXES = 'ABCDEFGHJK';

const PLATE = new RegExp(
  `^[${PLATE_PROVINCES}][A-Z](?:[A-Z0-9]{4}[A-Z0-9${PLATE_SUFFIXES}]|[${NEW_ENERGY_SMALL_PREFIXES}][A-HJ-NP-Z0-9]\\d{4}|\\d{5}[DF])$`,
);

/**
 * Licence plate, 7 characters: province character, a letter, four letters or digits, then a letter, digit
 * or special suffix. Or 8 characters for new-energy vehicles (GA 36-2018): province, a letter, then for
 * small cars a letter of NEW_ENERGY_SMALL_PREFIXES, a letter (not I or O) or digit and four digits; for
 * large vehicles five digits then D (battery-electric) or F (other).
 */
export const plate = pattern(PLATE, 'validation.plate');

/** A practical address: dot-separated local part (no empty parts), host labels not edged by '-', letter TLD. */
export const email = pattern(
  /^[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/,
  'validation.email',
);

export const url: Validator = (value) => {
  if (isAbsent(value)) return null;
  const s = text(value);
  if (s === null || /\s/.test(s)) return 'validation.url';
  try {
    const parsed = new URL(s);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname
      ? null
      : 'validation.url';
  } catch {
    return 'validation.url';
  }
};

export const alnum = pattern(/^[A-Za-z0-9]+$/, 'validation.alnum');
export const upper = pattern(/^[A-Z]+$/, 'validation.upper');
export const lower = pattern(/^[a-z]+$/, 'validation.lower');

/** Every rule by name, for tools that pick a rule from configuration. */
export const validators = {
  required,
  digits,
  commaDigits,
  cardNumber,
  cardNumberItem,
  cardNumberList,
  upperAlnum,
  phone,
  chineseName,
  citizenId: (value: unknown) => citizenId(value),
  plate,
  email,
  url,
  alnum,
  upper,
  lower,
} satisfies Record<string, Validator>;

export type ValidatorName = keyof typeof validators;
