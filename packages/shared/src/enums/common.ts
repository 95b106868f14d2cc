import { defineEnum } from './define.ts';

/** The `Disabled` column of users, areas, devices and the like: true means disabled. */
export const disabledFlag = defineEnum('disabledFlag', [{ value: true }, { value: false }]);

/** Operations, management and maintenance staff of the WeChat mini-program (permission mapping not in the spec). */
export const wechatUserType = defineEnum('wechatUserType', [{ value: 0 }, { value: 1 }, { value: 2 }]);

// prettier-ignore
const NATION_IDS = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
  29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56,
] as const;

/** Ethnic group ids: 0 unknown, then 1 to 56 in the order and numbering of GB 3304 (01 Han … 56 Jino). */
export const nation = defineEnum(
  'nation',
  NATION_IDS.map((value) => ({ value })),
);

/** GB 3304 two-letter romanisation codes, indexed by nation id (0, unknown, has none). */
// prettier-ignore
export const NATION_CODES = [
  '', 'HA', 'MG', 'HU', 'ZA', 'UG', 'MH', 'YI', 'ZH', 'BY', 'CS', 'MA', 'DO', 'YA', 'BA', 'TJ', 'HN', 'KZ', 'DA',
  'LI', 'LS', 'VA', 'SH', 'GS', 'LH', 'SU', 'DX', 'NX', 'JP', 'KG', 'TU', 'DU', 'ML', 'QI', 'BL', 'SL', 'MN', 'GL',
  'XB', 'AC', 'PM', 'TA', 'NU', 'UZ', 'RS', 'EW', 'DE', 'BN', 'YG', 'GI', 'TT', 'DR', 'OR', 'HZ', 'MB', 'LB', 'JN',
] as const;
