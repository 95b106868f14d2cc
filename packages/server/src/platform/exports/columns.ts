import { enumLabel, type EnumDef } from '@gatehouse/shared';
import type { ExportColumn } from './registry.ts';

/** An exported column of a coded value (an enumeration), written in the operator's language. */
export function enumColumn<Item extends Record<string, unknown>>(
  key: keyof Item & string,
  labelKey: string,
  def: EnumDef,
  width?: number,
): ExportColumn<Item> {
  return { key, labelKey, label: (v, lang) => enumLabel(lang, def, v), ...(width ? { width } : {}) };
}
