import type { Lang } from '../i18n/languages.ts';
import { translate } from '../i18n/translate.ts';
import { findEnumItem, type EnumDef, type EnumValue } from './define.ts';

/**
 * The translated label of a value. A value outside the enumeration (a newer device state, a bad row)
 * shows as itself rather than as a blank cell; null and undefined show as ''.
 */
export function enumLabel(lang: Lang, def: EnumDef, value: unknown): string {
  const item = findEnumItem(def, value);
  if (item) return translate(lang, item.key);
  return value === null || value === undefined ? '' : String(value);
}

export interface EnumOption<V extends EnumValue = EnumValue> {
  value: V;
  label: string;
  color?: string;
  /** Translated unit, for enumerations that carry one. */
  unit?: string;
}

/** Options for selects, filters and tags, in declaration order. */
export function enumOptions<V extends EnumValue>(lang: Lang, def: EnumDef<string, V>): EnumOption<V>[] {
  return def.items.map((item) => ({
    value: item.value,
    label: translate(lang, item.key),
    ...(item.color ? { color: item.color } : {}),
    ...(item.unit ? { unit: translate(lang, item.unit) } : {}),
  }));
}
