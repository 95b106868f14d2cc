import { translate, type Lang } from '@gatehouse/shared';
import ExcelJS from 'exceljs';
import type { ExportColumn } from './registry.ts';

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** 'YYYY-MM-DD HH:mm:ss' in a time zone (the area's, else the server's). */
export function formatInstant(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  let formatter = formatters.get(timeZone ?? '');
  if (!formatter) {
    // The Swedish locale writes ISO-like dates: 2026-11-22 08:00:00.
    formatter = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    });
    formatters.set(timeZone ?? '', formatter);
  }
  return formatter.format(date);
}

export interface WorkbookInput {
  title: string;
  columns: ExportColumn[];
  rows: Record<string, unknown>[];
  lang: Lang;
  timeZone?: string | undefined;
}

/** One sheet: a bold, frozen header row of translated labels, then one row per item with labels for codes. */
export async function writeWorkbook({
  title,
  columns,
  rows,
  lang,
  timeZone,
}: WorkbookInput): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Gatehouse';
  workbook.created = new Date();
  // Sheet names: at most 31 characters, none of []:*?/\.
  const sheet = workbook.addWorksheet(title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = columns.map((c) => ({
    header: translate(lang, c.labelKey),
    key: c.key,
    width: c.width ?? (c.kind === 'instant' ? 20 : 16),
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    const values: Record<string, unknown> = {};
    for (const c of columns) {
      const value = c.value ? c.value(row) : row[c.key];
      if (c.label) values[c.key] = value === null || value === undefined ? '' : c.label(value, lang);
      else if (c.kind === 'instant')
        values[c.key] = typeof value === 'string' ? formatInstant(value, timeZone) : '';
      else values[c.key] = value ?? '';
    }
    sheet.addRow(values);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
