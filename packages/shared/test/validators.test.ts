import { describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  alnum,
  cardNumber,
  cardNumberItem,
  cardNumberList,
  chineseName,
  citizenId,
  citizenIdCheckChar,
  commaDigits,
  commaIds,
  digits,
  email,
  hasKey,
  lower,
  phone,
  plate,
  required,
  upper,
  upperAlnum,
  url,
  validators,
  type ValidationKey,
  type Validator,
} from '../src/index.ts';

interface Table {
  rule: Validator;
  key: ValidationKey;
  valid: unknown[];
  invalid: unknown[];
}

/** Blank input: the format rules let it through (pair them with `required`); spaces alone are not blank. */
const ABSENT = ['', null, undefined, []];

const tables: Record<string, Table> = {
  digits: {
    rule: digits,
    key: 'validation.digits',
    valid: ['0', '0123', '9876543210', 42, 0],
    invalid: ['12a', ' 12', '12 ', '1.5', '-1', '+1', '１２', 1.5, -1, ' ', true, {}],
  },
  cardNumber: {
    rule: cardNumber,
    key: 'validation.cardNumber',
    valid: ['12', '0001', '1234567890', 12],
    invalid: ['1', '12345678901', '12a', ' 12', '12 ', '1,2', 1, ' '],
  },
  cardNumberItem: {
    rule: cardNumberItem,
    key: 'validation.cardNumber',
    valid: ['1', '0001', '1234567890', 7],
    invalid: ['12345678901', '1,2', '12a', ' 12', '12 ', '-1', 1.5, ' '],
  },
  cardNumberList: {
    rule: cardNumberList,
    key: 'validation.cardNumber',
    valid: ['1', '12,34', '1,1234567890', '0,0,0'],
    invalid: ['1,12345678901', '12345678901', '1,,2', ',1', '1,', '1, 2', '1，2', 'a', ' 1', ' '],
  },
  upperAlnum: {
    rule: upperAlnum,
    key: 'validation.upperAlnum',
    valid: ['ABC123', 'A', '1', 'Z9'],
    invalid: ['abc', 'ABc', 'AB C', 'AB-1', ' AB', 'AB ', 'ÄB', ' '],
  },
  phone: {
    rule: phone,
    key: 'validation.phone',
    valid: ['13800138000', '19912345678', '15000000000', 13800138000],
    invalid: [
      '12345678901',
      '10012345678',
      '1380013800',
      '138001380000',
      ' 13800138000',
      '13800138000 ',
      '+8613800138000',
      '138-0013-8000',
      '1380013800a',
      '23800138000',
      ' ',
    ],
  },
  chineseName: {
    rule: chineseName,
    key: 'validation.chineseName',
    valid: ['张三', '欧阳娜娜', '王小明明明明', '李〇', '𠮷野家', '㐀丽'],
    invalid: ['张', '张三李四王五赵', 'Zhang', '张 三', ' 张三', '张三 ', '张三1', '阿·卜杜', 'ｚｈ', ' '],
  },
  email: {
    rule: email,
    key: 'validation.email',
    valid: ['a@b.co', 'first.last+tag@example.com.cn', 'x_y@sub-domain.example.org', 'USER@EXAMPLE.COM'],
    invalid: [
      'a@b',
      'a@b.c',
      'a..b@c.com',
      '.a@c.com',
      'a.@c.com',
      'a@-b.com',
      'a@b-.com',
      ' a@b.com',
      'a@b.com ',
      'a b@c.com',
      '@b.com',
      'a@@b.com',
      ' ',
    ],
  },
  url: {
    rule: url,
    key: 'validation.url',
    valid: [
      'http://example.com',
      'https://example.com/path?q=1#x',
      'http://localhost:8080',
      'https://192.168.1.10/',
    ],
    invalid: [
      'ftp://x.com',
      'example.com',
      'http://',
      ' http://a.com',
      'http://a.com ',
      'http://a b.com',
      'javascript:alert(1)',
      ' ',
    ],
  },
  alnum: {
    rule: alnum,
    key: 'validation.alnum',
    valid: ['abc123', 'ABC', '1'],
    invalid: ['abc_1', 'ab c', '中文', 'é', ' a', ' '],
  },
  upper: {
    rule: upper,
    key: 'validation.upper',
    valid: ['ABC', 'Z'],
    invalid: ['ABc', 'AB1', 'AB ', 'É', ' '],
  },
  lower: {
    rule: lower,
    key: 'validation.lower',
    valid: ['abc', 'z'],
    invalid: ['abC', 'ab1', ' ab', 'é', ' '],
  },
};

describe.each(Object.entries(tables))('%s', (_name, { rule, key, valid, invalid }) => {
  it.each(valid.map((v) => [v]))('accepts %j', (value) => {
    expect(rule(value)).toBeNull();
  });
  it.each(invalid.map((v) => [v]))('refuses %j', (value) => {
    expect(rule(value)).toBe(key);
  });
  it.each(ABSENT.map((v) => [v]))('lets the blank value %j through', (value) => {
    expect(rule(value)).toBeNull();
  });
});

describe('required', () => {
  it.each([[''], [null], [undefined], ['   '], ['\t'], [[]]])('refuses %j', (value) => {
    expect(required(value)).toBe('validation.required');
  });
  it.each([['a'], [' a '], [0], [false], [['x']]])('accepts %j', (value) => {
    expect(required(value)).toBeNull();
  });
});

describe('commaDigits (mandatory)', () => {
  it.each([['1'], ['1,2,3'], ['001,22'], [7]])('accepts %j', (value) => {
    expect(commaDigits(value)).toBeNull();
  });
  it.each([[''], [null], [undefined], ['  ']])('refuses the blank value %j as required', (value) => {
    expect(commaDigits(value)).toBe('validation.required');
  });
  it.each([['1,,2'], [',1'], ['1,'], ['1, 2'], [' 1,2'], ['1,2 '], ['1，2'], ['1;2'], ['a'], ['1.5']])(
    'refuses %j',
    (value) => {
      expect(commaDigits(value)).toBe('validation.commaDigits');
    },
  );
});

describe('citizenId', () => {
  const NOW = new Date(2026, 5, 15, 12, 0, 0);
  const cases: [string, unknown, ValidationKey | null][] = [
    ['18 digits, check digit', '440524188001010014', null],
    ['18 digits, check X', '11010519491231002X', null],
    ['18 digits, lower-case x', '11010519491231002x', null],
    ['18 digits, another region', '310115198405122137', null],
    ['29 February 2000 (leap: divisible by 400)', '110105200002291235', null],
    ['29 February 2024', '110105202402294565', null],
    ['wrong check digit', '440524188001010015', 'validation.citizenIdCheck'],
    ['wrong check: digit instead of X', '110105194912310021', 'validation.citizenIdCheck'],
    ['wrong check: X instead of digit', '11010520000229123X', 'validation.citizenIdCheck'],
    [
      '29 February 1900 (not leap) with a correct check digit',
      '110105190002291239',
      'validation.citizenIdFormat',
    ],
    ['30 February', '110105198102301234', 'validation.citizenIdFormat'],
    ['month 13', '110105198113011232', 'validation.citizenIdFormat'],
    ['day 00', '110105198101001234', 'validation.citizenIdFormat'],
    ['born in 2099 (future)', '110105209912311232', 'validation.citizenIdFormat'],
    ['leading space', ' 11010519491231002X', 'validation.citizenIdFormat'],
    ['trailing space', '11010519491231002X ', 'validation.citizenIdFormat'],
    ['check character Y', '11010519491231002Y', 'validation.citizenIdFormat'],
    ['X in the middle', '1101051949123100X2', 'validation.citizenIdFormat'],
    ['17 digits', '11010519491231002', 'validation.citizenIdFormat'],
    ['19 digits', '4405241880010100140', 'validation.citizenIdFormat'],
    ['full-width digits', '４４０５２４１８８００１０１００１４', 'validation.citizenIdFormat'],
    ['15 digits, 31 December 1949', '110105491231002', null],
    ['15 digits, 29 February 1996', '110105960229123', null],
    ['15 digits, 29 February 1900 (yy 00 is 1900)', '110105000229123', 'validation.citizenIdFormat'],
    ['15 digits, 30 February', '110105810230123', 'validation.citizenIdFormat'],
    ['15 digits, month 13', '110105811301123', 'validation.citizenIdFormat'],
    ['15 digits with X', '11010549123100X', 'validation.citizenIdFormat'],
    ['16 digits', '1101054912310021', 'validation.citizenIdFormat'],
    ['spaces only', '   ', 'validation.citizenIdFormat'],
    // An 18-digit number is past 2^53: it arrives with its last digits changed and must not be checked.
    ['a number that lost digits', Number('440524188001010014'), 'validation.citizenIdFormat'],
    ['blank', '', null],
    ['null', null, null],
  ];
  it.each(cases)('%s', (_label, value, expected) => {
    expect(citizenId(value, NOW)).toBe(expected);
  });

  it('accepts a birth date of today and refuses tomorrow', () => {
    const today = '11010520260615123';
    const tomorrow = '11010520260616123';
    expect(citizenId(today + citizenIdCheckChar(today), NOW)).toBeNull();
    expect(citizenId(tomorrow + citizenIdCheckChar(tomorrow), NOW)).toBe('validation.citizenIdFormat');
  });

  it('computes the GB 11643 check character of the standard examples', () => {
    expect(citizenIdCheckChar('11010519491231002')).toBe('X');
    expect(citizenIdCheckChar('44052418800101001')).toBe('4');
  });

  it('takes today from the clock when called as a plain validator', () => {
    expect(validators.citizenId('11010519491231002X')).toBeNull();
    expect(validators.citizenId('110105209912311232')).toBe('validation.citizenIdFormat');
  });
});

describe('plate', () => {
  const valid: [string, string][] = [
    ['ordinary, digits', '京A12345'],
    ['ordinary, letters and digits', '沪AB123C'],
    ['ordinary, all letters', '粤BABCDE'],
    ['trailer 挂', '粤B1234挂'],
    ['coach 学', '苏A1234学'],
    ['police 警', '京A1234警'],
    ['Hong Kong 港', '粤Z1234港'],
    ['Macau 澳', '粤Z1234澳'],
    ['consulate 领', '沪A1234领'],
    ['trial 试', '浙A1234试'],
    ['over-limit 超', '川A1234超'],
    ['embassy prefix 使', '使A12345'],
    ['new energy small, D then digits', '京AD12345'],
    ['new energy small, F then a letter', '沪AFA1234'],
    ['new energy small, extended prefix A', '粤BA12345'],
    ['new energy small, extended prefix K', '粤BKZ1234'],
    ['new energy large, D', '京A12345D'],
    ['new energy large, F', '鲁B12345F'],
  ];
  const invalid: [string, unknown][] = [
    ['leading space', ' 京A12345'],
    ['trailing space', '京A12345 '],
    ['inner space', '京 A12345'],
    ['lower-case letter', '京a12345'],
    ['no province', 'AA12345'],
    ['unknown province character', '中A12345'],
    ['digit instead of the authority letter', '京112345'],
    ['6 characters', '京A1234'],
    ['9 characters', '京AD123456'],
    ['8 characters, not new energy', '京A123456'],
    ['new energy small, prefix I', '京AI12345'],
    ['new energy small, prefix L', '京AL12345'],
    ['new energy small, second letter I', '京ADI2345'],
    ['new energy small, second letter O', '京ADO2345'],
    ['new energy small, letter in the last four', '京AD1A345'],
    ['new energy large, suffix X', '京A12345X'],
    ['new energy large, suffix with a letter inside', '京A1234AD'],
    ['unknown suffix character', '京A1234水'],
    ['two suffix characters', '京A123挂挂'],
    ['spaces only', '   '],
    ['a number', 12345],
  ];
  it.each(valid)('accepts %s: %s', (_label, value) => {
    expect(plate(value)).toBeNull();
  });
  it.each(invalid)('refuses %s: %j', (_label, value) => {
    expect(plate(value)).toBe('validation.plate');
  });
});

describe('validator registry', () => {
  it('lists every rule of the spec by name', () => {
    expect(Object.keys(validators).sort()).toEqual(
      [
        'required',
        'digits',
        'commaDigits',
        'cardNumber',
        'cardNumberItem',
        'cardNumberList',
        'upperAlnum',
        'phone',
        'chineseName',
        'citizenId',
        'plate',
        'email',
        'url',
        'alnum',
        'upper',
        'lower',
      ].sort(),
    );
  });

  it('returns only keys that every language translates', () => {
    const keys = new Set<string>(['validation.required', 'validation.citizenIdCheck']);
    for (const { key } of Object.values(tables)) keys.add(key);
    keys.add('validation.commaDigits');
    keys.add('validation.citizenIdFormat');
    for (const key of keys)
      for (const lang of LANGUAGES) expect(hasKey(lang, key), `${lang} ${key}`).toBe(true);
  });
});

describe('commaIds', () => {
  it.each([['1'], ['1,2,3'], ['2147483647'], [7]])('accepts %j', (value) => {
    expect(commaIds(value)).toBeNull();
  });
  it.each([['0'], ['2147483648'], ['8640000000000001'], ['1,0'], ['1,,2'], [''], ['a'], ['1, 2']])(
    'refuses %j (not ids of the database, or not a list)',
    (value) => {
      expect(commaIds(value)).toBe('validation.commaIds');
    },
  );
});
