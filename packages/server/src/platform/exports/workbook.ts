import { localTime, translate, type Lang } from '@gatehouse/shared';
import ExcelJS from 'exceljs';
import type { ExportColumn } from './registry.ts';

/** The server's own time zone: the one an export without an area's zone is written in. */
const SERVER_ZONE = new Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' in a time zone (the area's, else the server's), by the shared site calendar. */
export function formatInstant(iso: string, timeZone: string = SERVER_ZONE): string {
  const ms = new Date(iso).getTime();
  if (Number.isNaN(ms)) return '';
  const t = localTime(ms, timeZone);
  const date = `${String(t.year).padStart(4, '0')}-${pad(t.month)}-${pad(t.day)}`;
  return `${date} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

/** Money and energy are stored as integers (cents, Wh) and written as yuan and kWh, showing every digit stored. */
const UNIT = { money: { per: 100, format: '0.00' }, energy: { per: 1000, format: '0.000' } } as const;

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
      else if (c.kind === 'money' || c.kind === 'energy')
        values[c.key] = typeof value === 'number' ? value / UNIT[c.kind].per : null;
      else values[c.key] = value ?? '';
    }
    const added = sheet.addRow(values);
    columns.forEach((c, i) => {
      if (c.kind === 'money' || c.kind === 'energy') added.getCell(i + 1).numFmt = UNIT[c.kind].format;
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
