import type ExcelJS from 'exceljs';

export interface SheetRequest {
  buffer: Uint8Array;
  /** Cells read per row, from column A. */
  columns: number;
  /** Non-empty rows after the header before the sheet is refused. */
  maxRows: number;
}

export type SheetResult =
  | { ok: true; rows: Array<{ row: number; cells: Array<string | Date> }> }
  | { ok: false; reason: 'unreadable' | 'tooLarge' | 'tooManyRows' | 'timeout' };

/** A cell as text: rich text joined, formulas by their result, dates kept apart. */
export function cellValue(value: ExcelJS.CellValue): string | Date {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('result' in value) return cellValue(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text).trim();
    return '';
  }
  return String(value).trim();
}
