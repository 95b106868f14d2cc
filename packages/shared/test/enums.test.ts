import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ENUMS,
  NATION_CODES,
  chargePortState,
  defineEnum,
  disabledFlag,
  doorRecordResult,
  enumLabel,
  enumOptions,
  enumValues,
  findEnumItem,
  isEnumValue,
  issueStatus,
  nation,
  paymentState,
  temporaryChargeType,
  translate,
  type EnumLabels,
} from '../src/index.ts';

describe('enumeration data', () => {
  it('names each enumeration after its registry entry and keys each item enum.<name>.<value>', () => {
    for (const [name, def] of Object.entries(ENUMS)) {
      expect(def.name).toBe(name);
      for (const item of def.items) expect(item.key).toBe(`enum.${name}.${String(item.value)}`);
    }
    expect(issueStatus.items[0]!.key).toBe('enum.issueStatus.-2');
    expect(disabledFlag.items[0]!.key).toBe('enum.disabledFlag.true');
  });

  it('holds the values of the spec', () => {
    expect(enumValues(issueStatus)).toEqual([-2, -1, 0, 1, 2, 3]);
    expect(enumValues(disabledFlag)).toEqual([true, false]);
    expect(enumValues(doorRecordResult)).toEqual([true, false]);
    expect(enumValues(ENUMS.accessControlType)).toEqual([0, 1, 2, 3]);
    expect(enumValues(ENUMS.doorNumber)).toEqual([0, 1, 2, 3, 4]);
    expect(enumValues(ENUMS.cardReaderType)).toEqual([0, 1, 2, 3, 4]);
    expect(enumValues(ENUMS.changeType)).toEqual([0, 1, 2, 3, 4]);
    expect(enumValues(ENUMS.timeUnit)).toEqual([0, 1, 2, 3]);
    expect(enumValues(ENUMS.wechatUserType)).toEqual([0, 1, 2]);
    // 255 is Gatehouse's own: "unknown / offline", shown (never stored) for a charger that is not connected.
    expect(enumValues(chargePortState)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 170, 255]);
    expect(enumValues(paymentState)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('uses the second reading of the temporary charge type, with units', () => {
    expect(enumOptions('zh', temporaryChargeType)).toEqual([
      { value: 0, label: '未配置' },
      { value: 1, label: '计时', unit: '小时' },
      { value: 2, label: '计量', unit: '度' },
      { value: 3, label: '按次', unit: '次' },
    ]);
    expect(enumOptions('en', temporaryChargeType).map((o) => o.unit)).toEqual([
      undefined,
      'hour',
      'kWh',
      'use',
    ]);
  });

  it('lists 57 nations, 0 unknown then GB 3304 order', () => {
    expect(enumValues(nation)).toEqual(Array.from({ length: 57 }, (_, i) => i));
    const zh = (id: number) => enumLabel('zh', nation, id);
    expect([zh(0), zh(1), zh(2), zh(4), zh(10), zh(11), zh(23), zh(44), zh(49), zh(56)]).toEqual([
      '未知',
      '汉族',
      '蒙古族',
      '藏族',
      '朝鲜族',
      '满族',
      '高山族',
      '俄罗斯族',
      '京族',
      '基诺族',
    ]);
    expect([1, 5, 10, 56].map((id) => enumLabel('en', nation, id))).toEqual([
      'Han',
      'Uyghur',
      'Korean',
      'Jino',
    ]);
    expect(NATION_CODES).toHaveLength(57);
    expect(new Set(NATION_CODES.slice(1)).size).toBe(56);
  });

  it('names every ethnic group differently in every language', () => {
    for (const lang of ['zh', 'en', 'es', 'ja'] as const) {
      const labels = enumOptions(lang, nation).map((o) => o.label);
      expect(new Set(labels).size, lang).toBe(57);
    }
    for (const { label } of enumOptions('zh', nation).slice(1)) expect(label).toMatch(/族$/);
  });
});

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('charge-port palette', () => {
  it('gives every state its own colour', () => {
    const colors = chargePortState.items.map((i) => i.color);
    for (const c of colors) expect(c).toMatch(/^#[0-9A-F]{6}$/);
    expect(new Set(colors).size).toBe(colors.length);
  });

  it('reaches 4.5:1 against white for every state (text on white, or white text on the colour)', () => {
    for (const item of chargePortState.items) {
      expect(contrast(item.color!, '#FFFFFF'), item.key).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('hands the colour to options', () => {
    expect(enumOptions('en', chargePortState)[1]).toEqual({ value: 1, label: 'Charging', color: '#1565C0' });
  });
});

describe('helpers', () => {
  it('enumLabel translates known values and shows unknown ones as they are', () => {
    expect(enumLabel('en', issueStatus, -2)).toBe('Deletion succeeded');
    expect(enumLabel('zh', issueStatus, 3)).toBe('下发成功');
    expect(enumLabel('ja', disabledFlag, true)).toBe('無効');
    expect(enumLabel('es', disabledFlag, false)).toBe('Habilitado');
    expect(enumLabel('en', chargePortState, 170)).toBe('Waiting for card swipe');
    expect(enumLabel('en', chargePortState, 99)).toBe('99');
    expect(enumLabel('en', issueStatus, '3')).toBe('3');
    expect(enumLabel('en', issueStatus, null)).toBe('');
    expect(enumLabel('en', issueStatus, undefined)).toBe('');
  });

  it('isEnumValue is strict about type', () => {
    expect(isEnumValue(issueStatus, -1)).toBe(true);
    expect(isEnumValue(issueStatus, '-1')).toBe(false);
    expect(isEnumValue(issueStatus, 4)).toBe(false);
    expect(isEnumValue(disabledFlag, false)).toBe(true);
    expect(isEnumValue(disabledFlag, 0)).toBe(false);
  });

  it('findEnumItem returns the item with its extras', () => {
    expect(findEnumItem(temporaryChargeType, 2)).toMatchObject({ value: 2, unit: 'unit.kWh' });
    expect(findEnumItem(temporaryChargeType, 9)).toBeUndefined();
  });

  it('enumOptions keep declaration order and translate every label', () => {
    const options = enumOptions('en', paymentState);
    expect(options.map((o) => o.value)).toEqual(enumValues(paymentState));
    expect(options[2]).toEqual({ value: 2, label: 'Paid' });
    for (const o of options) expect(o.label).toBe(translate('en', `enum.paymentState.${o.value}`));
  });

  it('defineEnum refuses repeated values and empty lists', () => {
    expect(() => defineEnum('dup', [{ value: 1 }, { value: 1 }])).toThrow(/repeats/);
    expect(() => defineEnum('empty', [])).toThrow(/no items/);
  });

  it('enumerations are frozen', () => {
    expect(Object.isFrozen(issueStatus)).toBe(true);
    expect(Object.isFrozen(issueStatus.items)).toBe(true);
    expect(Object.isFrozen(issueStatus.items[0])).toBe(true);
  });

  it('types values and keys as literals', () => {
    expectTypeOf(enumValues(issueStatus)[0]).toEqualTypeOf<-2 | -1 | 0 | 1 | 2 | 3>();
    expectTypeOf(disabledFlag.items[0]!.key).toEqualTypeOf<
      'enum.disabledFlag.true' | 'enum.disabledFlag.false'
    >();
    // A label table missing a value does not type-check, so the Chinese catalogue cannot skip one.
    // @ts-expect-error value 3 has no label
    const missing: EnumLabels['issueStatus'] = { '-2': 'a', '-1': 'b', 0: 'c', 1: 'd', 2: 'e' };
    expect(missing).toBeDefined();
  });
});
