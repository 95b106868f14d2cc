import { enumLabel, type EnumDef, type Lang } from '@gatehouse/shared';
import type { ExportColumn } from './exports/registry.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- items are whatever the list returns */
type Row = Record<string, any>;

type Kind = NonNullable<ExportColumn['kind']>;

/**
 * How one exported column is shown: a text column's width, a kind ('text' is a plain text column), or in full.
 * `header` is the header's name in the catalogue's namespace when it is not the field's own; `enum` shows the
 * enumeration's label in the operator's language.
 */
export type ColumnSpec<Item extends Row = Row> =
  | number
  | Kind
  | {
      header?: string;
      width?: number;
      kind?: Kind;
      enum?: EnumDef;
      label?: ExportColumn<Item>['label'];
      value?: ExportColumn<Item>['value'];
    };

/** Columns by the item's field, in the order of the sheet (field names are never integer-like, so kept as written). */
export type ColumnSpecs<Item extends Row = Row> = { [K in keyof Item & string]?: ColumnSpec<Item> };

/**
 * The columns of a list's export, by the item's field: each header is `<fields>.<field>` (the namespace of the
 * catalogue's field names, e.g. 'garage.field') unless the column names another, so a sheet's columns read as
 * what they show rather than as the same key, header and label lambda spelt again for every field.
 */
export function exportColumns<Item extends Row = Row>(
  fields: string,
  specs: NoInfer<ColumnSpecs<Item>>,
): ExportColumn<Item>[] {
  return Object.entries(specs).map(([key, spec]) => {
    const full =
      typeof spec === 'object' ? spec : typeof spec === 'number' ? { width: spec } : { kind: spec };
    const def = full.enum;
    return {
      key,
      labelKey: `${fields}.${full.header ?? key}`,
      ...(full.kind && full.kind !== 'text' ? { kind: full.kind } : {}),
      ...(full.width ? { width: full.width } : {}),
      ...(full.value ? { value: full.value } : {}),
      ...(full.label
        ? { label: full.label }
        : def
          ? { label: (v: unknown, lang: Lang) => enumLabel(lang, def, v) }
          : {}),
    } as ExportColumn<Item>;
  });
}
