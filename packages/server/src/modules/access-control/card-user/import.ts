import {
  LANGUAGES,
  canonicalCardNumber,
  enumLabel,
  enumOptions,
  fromLocalTime,
  nation,
  translate,
  type Lang,
} from '@gatehouse/shared';
import ExcelJS from 'exceljs';
import { readFirstSheet } from '../../../platform/xlsx/read-sheet.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError } from '../../../platform/errors.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { FileReply } from '../../../platform/route.ts';
import { fieldErrors } from '../../../platform/validation.ts';
import { customTimeZone } from '../../../platform/area-zone.ts';
import type { Trx } from '../common.ts';
import { createHolderBody, type HolderInput } from '@gatehouse/shared';
import { insertHolder } from './service.ts';

/**
 * Holder import from the .xlsx template: the first sheet, one holder per row from row 2, columns in the
 * template's order (headers may be in any of the four languages). Every row is checked first, against the
 * same rules as the form plus the area's departments, groups, types and free cards; any error refuses the
 * whole file with a report per row, so nothing is ever half-imported.
 */
export const IMPORT_MAX_ROWS = 5000;

const COLUMNS = [
  { field: 'Name', labelKey: 'accessControl.field.HolderName', required: true },
  { field: 'Phone', labelKey: 'accessControl.field.Phone' },
  { field: 'CitizenId', labelKey: 'accessControl.field.CitizenId' },
  { field: 'Nation', labelKey: 'accessControl.field.Nation' },
  { field: 'Department', labelKey: 'accessControl.field.Department' },
  { field: 'PeopleGroup', labelKey: 'accessControl.field.PeopleGroup' },
  { field: 'PeopleType', labelKey: 'accessControl.field.PeopleType' },
  { field: 'Cards', labelKey: 'accessControl.field.Cards' },
  { field: 'ValidFrom', labelKey: 'accessControl.field.ValidFrom', required: true },
  { field: 'ValidTo', labelKey: 'accessControl.field.ValidTo', required: true },
  { field: 'Remark', labelKey: 'accessControl.field.Remark' },
] as const;
type Column = (typeof COLUMNS)[number]['field'];

export interface RowError {
  Row: number;
  Field: string;
  Message: string;
}

interface AreaLookups {
  departments: Map<string, number[]>;
  groups: Map<string, number>;
  types: Map<string, number>;
  zone: string | undefined;
}

/** Department paths ("物业服务中心/工程维修部") and bare names (possibly several) of an area. */
async function lookups(trx: Trx, areaId: number): Promise<AreaLookups & { paths: string[] }> {
  const [departments, groups, types, area] = await Promise.all([
    trx.selectFrom('Department').select(['Id', 'ParentId', 'Name']).where('AreaId', '=', areaId).execute(),
    trx
      .selectFrom('PeopleGroup')
      .select(['Id', 'Name'])
      .where('AreaId', '=', areaId)
      .orderBy('Sort')
      .execute(),
    trx
      .selectFrom('PeopleType')
      .select(['Id', 'Name'])
      .where('AreaId', '=', areaId)
      .orderBy('Sort')
      .execute(),
    trx.selectFrom('AreaInfo').select('Custom').where('Id', '=', areaId).executeTakeFirst(),
  ]);
  const byId = new Map(departments.map((d) => [d.Id, d]));
  const pathOf = (d: { ParentId: number | null; Name: string }): string => {
    const parent = d.ParentId === null ? undefined : byId.get(d.ParentId);
    return parent ? `${pathOf(parent)}/${d.Name}` : d.Name;
  };
  const map = new Map<string, number[]>();
  const paths: string[] = [];
  for (const d of departments) {
    const path = pathOf(d);
    paths.push(path);
    map.set(path, [d.Id]);
    if (path !== d.Name) map.set(d.Name, [...(map.get(d.Name) ?? []), d.Id]);
  }
  return {
    departments: map,
    paths: paths.sort(),
    groups: new Map(groups.map((g) => [g.Name, g.Id])),
    types: new Map(types.map((t) => [t.Name, t.Id])),
    zone: customTimeZone(area?.Custom ?? null),
  };
}

/** The template: headers in the caller's language, and a second sheet listing the values the area accepts. */
export async function importTemplate(ctx: AreaContext): Promise<FileReply> {
  const lang = ctx.lang;
  const area = await lookups(ctx.db.kysely, ctx.areaId);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Gatehouse';
  const sheet = workbook.addWorksheet(translate(lang, 'accessControl.import.sheetHolders'), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = COLUMNS.map((c) => ({
    header: `${translate(lang, c.labelKey)}${'required' in c ? ' *' : ''}`,
    key: c.field,
    width: c.field === 'CitizenId' || c.field === 'Cards' ? 24 : c.field.startsWith('Valid') ? 20 : 14,
    style: { numFmt: '@' },
  }));
  sheet.getRow(1).font = { bold: true };
  const notes = workbook.addWorksheet(translate(lang, 'accessControl.import.sheetNotes'));
  notes.columns = [
    { header: translate(lang, 'accessControl.import.notes'), key: 'note', width: 70 },
    { header: translate(lang, 'accessControl.field.Department'), key: 'department', width: 30 },
    { header: translate(lang, 'accessControl.field.PeopleGroup'), key: 'group', width: 16 },
    { header: translate(lang, 'accessControl.field.PeopleType'), key: 'type', width: 16 },
    { header: translate(lang, 'accessControl.field.Nation'), key: 'nation', width: 14 },
  ];
  notes.getRow(1).font = { bold: true };
  const texts = [1, 2, 3, 4, 5].map((n) => translate(lang, `accessControl.import.note${n}`));
  const groups = [...area.groups.keys()];
  const types = [...area.types.keys()];
  const nations = enumOptions(lang, nation).map((o) => o.label);
  const rows = Math.max(texts.length, area.paths.length, groups.length, types.length, nations.length);
  for (let i = 0; i < rows; i++) {
    notes.addRow({
      note: texts[i] ?? '',
      department: area.paths[i] ?? '',
      group: groups[i] ?? '',
      type: types[i] ?? '',
      nation: nations[i] ?? '',
    });
  }
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return new FileReply(
    buffer,
    `${translate(lang, 'accessControl.title.importTemplate')}.xlsx`,
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
}

/** Epoch ms of a wall-clock time in the area's time zone (the server's when it has none). */
function zonedTime([year, month, day, hour, minute, second]: number[], zone: string | undefined): number {
  if (!zone) return new Date(year!, month! - 1, day, hour, minute, second).getTime();
  return fromLocalTime(
    { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second!, millisecond: 0 },
    zone,
  );
}

/**
 * A date or date-time cell → epoch ms. A date alone is the start of that day for ValidFrom and its last
 * second for ValidTo. Excel date cells carry wall-clock time (read here from their UTC fields).
 */
function parseDate(value: string | Date, endOfDay: boolean, zone: string | undefined): number | null {
  let parts: [number, number, number, number, number, number];
  let dateOnly: boolean;
  if (value instanceof Date) {
    parts = [
      value.getUTCFullYear(),
      value.getUTCMonth() + 1,
      value.getUTCDate(),
      value.getUTCHours(),
      value.getUTCMinutes(),
      value.getUTCSeconds(),
    ];
    dateOnly = parts[3] === 0 && parts[4] === 0 && parts[5] === 0;
  } else if (/^\d{5}(\.\d+)?$/.test(value)) {
    // An Excel date serial (days since 1899-12-30) from a cell formatted as text or number.
    const wall = new Date(Math.round((Number(value) - 25_569) * 86_400) * 1000);
    return parseDate(wall, endOfDay, zone);
  } else {
    const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
    if (!m) return null;
    parts = [
      Number(m[1]),
      Number(m[2]),
      Number(m[3]),
      Number(m[4] ?? 0),
      Number(m[5] ?? 0),
      Number(m[6] ?? 0),
    ];
    dateOnly = m[4] === undefined;
    const check = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2]));
    if (check.getUTCMonth() !== parts[1] - 1 || check.getUTCDate() !== parts[2] || parts[3] > 23) return null;
  }
  if (dateOnly && endOfDay) parts = [parts[0], parts[1], parts[2], 23, 59, 59];
  return zonedTime(parts, zone);
}

/** Nation by its label in any language (or its number); blank is unknown (0). */
function nationOf(text: string): number | null {
  if (text === '') return 0;
  if (/^\d{1,2}$/.test(text)) return Number(text) <= 56 ? Number(text) : null;
  for (const lang of LANGUAGES) {
    for (const item of nation.items) {
      if (enumLabel(lang as Lang, nation, item.value).toLowerCase() === text.toLowerCase()) return item.value;
    }
  }
  return null;
}

function headerMatches(cell: string | Date): boolean {
  if (typeof cell !== 'string') return false;
  const text = cell.replace(/\s*\*$/, '');
  return LANGUAGES.some((lang) => translate(lang as Lang, COLUMNS[0].labelKey) === text);
}

/** Reads, checks and imports a template (base64 .xlsx). Returns the number of holders added. */
export async function importHolders(ctx: AreaContext, base64: string): Promise<{ Imported: number }> {
  const areaId = ctx.areaId;
  // Size-checked, then parsed in a worker thread: a compressed bomb or a huge sheet never reaches the
  // parser or blocks the server (platform/xlsx).
  const sheet = await readFirstSheet(Buffer.from(base64, 'base64'), {
    columns: COLUMNS.length,
    maxRows: IMPORT_MAX_ROWS,
  });
  if (!sheet.ok) {
    if (sheet.reason === 'tooManyRows')
      throw new AppError(400, 'accessControl.import.tooManyRows', { max: IMPORT_MAX_ROWS });
    if (sheet.reason === 'unreadable') throw new AppError(400, 'accessControl.import.unreadable');
    throw new AppError(400, 'accessControl.import.tooLarge');
  }
  const [header, ...body] = sheet.rows;
  if (!header || !headerMatches(header.cells[0] ?? ''))
    throw new AppError(400, 'accessControl.import.wrongTemplate');

  const raw: { row: number; cells: Record<Column, string | Date> }[] = [];
  for (const { row, cells: values } of body) {
    const cells = Object.fromEntries(COLUMNS.map((c, i) => [c.field, values[i] ?? ''])) as Record<
      Column,
      string | Date
    >;
    if (Object.values(cells).every((v) => v === '')) continue;
    raw.push({ row, cells });
  }
  if (raw.length === 0) throw new AppError(400, 'accessControl.import.empty');
  if (raw.length > IMPORT_MAX_ROWS)
    throw new AppError(400, 'accessControl.import.tooManyRows', { max: IMPORT_MAX_ROWS });

  const k = ctx.db.kysely;
  const area = await lookups(k, areaId);
  const label = (field: Column) => translate(ctx.lang, COLUMNS.find((c) => c.field === field)!.labelKey);
  const errors: RowError[] = [];
  const accepted: { row: number; input: HolderInput }[] = [];
  const seenCitizenIds = new Map<string, number>();
  const seenCards = new Map<string, number>();

  // Cards and citizen ids named in the file, looked up once.
  const allCards = new Set<string>();
  for (const { cells } of raw)
    for (const n of String(cells.Cards)
      .split(/[,，\s]+/)
      .filter(Boolean)) {
      const canonical = canonicalCardNumber(n);
      if (canonical) allCards.add(canonical);
    }
  const cardRows = new Map<string, { Id: number; CardUserId: number | null }>();
  const cardList = [...allCards];
  for (let i = 0; i < cardList.length; i += 500) {
    for (const c of await k
      .selectFrom('Card')
      .select(['Id', 'CardNumber', 'CardUserId'])
      .where('AreaId', '=', areaId)
      .where('CardNumber', 'in', cardList.slice(i, i + 500))
      .execute())
      cardRows.set(c.CardNumber, c);
  }
  const existingIds = new Set(
    (
      await k
        .selectFrom('CardUser')
        .select('CitizenId')
        .where('AreaId', '=', areaId)
        .where('CitizenId', 'is not', null)
        .execute()
    ).map((r) => r.CitizenId!),
  );

  for (const { row, cells } of raw) {
    const rowErrors: RowError[] = [];
    const fail = (field: Column, key: string, params?: Record<string, string | number>) =>
      rowErrors.push({ Row: row, Field: label(field), Message: translate(ctx.lang, key, params) });
    const text = (field: Column) => {
      const v = cells[field];
      return v instanceof Date ? '' : v;
    };

    const nationId = nationOf(text('Nation'));
    if (nationId === null) fail('Nation', 'validation.invalidOption');
    const ref = (field: 'Department' | 'PeopleGroup' | 'PeopleType'): number | null => {
      const name = text(field);
      if (!name) return null;
      if (field === 'Department') {
        const ids = area.departments.get(name.replace(/\s*\/\s*/g, '/'));
        if (!ids) fail(field, 'accessControl.import.unknownValue', { value: name });
        else if (ids.length > 1) fail(field, 'accessControl.import.departmentAmbiguous', { value: name });
        return ids?.length === 1 ? ids[0]! : null;
      }
      const found = (field === 'PeopleGroup' ? area.groups : area.types).get(name);
      if (found === undefined) fail(field, 'accessControl.import.unknownValue', { value: name });
      return found ?? null;
    };
    const DepartmentId = ref('Department');
    const PeopleGroupId = ref('PeopleGroup');
    const PeopleTypeId = ref('PeopleType');

    const CardIds: number[] = [];
    for (const n of text('Cards')
      .split(/[,，\s]+/)
      .filter(Boolean)) {
      const canonical = canonicalCardNumber(n);
      const card = canonical ? cardRows.get(canonical) : undefined;
      if (!canonical) fail('Cards', 'validation.cardNumber');
      else if (!card) fail('Cards', 'accessControl.error.cardMissingNumber', { card: canonical });
      else if (card.CardUserId !== null) fail('Cards', 'accessControl.error.cardTaken', { card: canonical });
      else if (seenCards.has(canonical))
        fail('Cards', 'accessControl.import.repeatedInFile', {
          value: canonical,
          row: seenCards.get(canonical)!,
        });
      else {
        seenCards.set(canonical, row);
        CardIds.push(card.Id);
      }
    }

    const dates: Record<'ValidFrom' | 'ValidTo', number | undefined> = {
      ValidFrom: undefined,
      ValidTo: undefined,
    };
    for (const field of ['ValidFrom', 'ValidTo'] as const) {
      const v = cells[field];
      if (v === '') continue;
      const ms = parseDate(v, field === 'ValidTo', area.zone);
      if (ms === null) fail(field, 'accessControl.import.badDate');
      else dates[field] = ms;
    }

    const candidate = {
      Name: text('Name'),
      Phone: text('Phone') || null,
      CitizenId: text('CitizenId') || null,
      Nation: nationId ?? 0,
      DepartmentId,
      PeopleGroupId,
      PeopleTypeId,
      CardIds,
      ValidFrom: dates.ValidFrom,
      ValidTo: dates.ValidTo,
      Remark: text('Remark') || null,
    };
    const parsed = createHolderBody.safeParse(candidate);
    if (!parsed.success) {
      const fieldOf = (f: string): Column =>
        (COLUMNS.find((c) => c.field === f)?.field ?? (f === 'CardIds' ? 'Cards' : 'Name')) as Column;
      for (const e of fieldErrors(parsed.error, candidate, ctx.lang)) {
        // A date that failed to parse was reported already.
        if (
          (e.Field === 'ValidFrom' || e.Field === 'ValidTo') &&
          cells[e.Field] !== '' &&
          dates[e.Field] === undefined
        )
          continue;
        rowErrors.push({ Row: row, Field: label(fieldOf(e.Field)), Message: e.Message });
      }
    } else {
      const citizenId = parsed.data.CitizenId;
      if (citizenId && existingIds.has(citizenId)) fail('CitizenId', 'accessControl.error.citizenIdTaken');
      else if (citizenId && seenCitizenIds.has(citizenId))
        fail('CitizenId', 'accessControl.import.repeatedInFile', {
          value: citizenId,
          row: seenCitizenIds.get(citizenId)!,
        });
      else if (citizenId) seenCitizenIds.set(citizenId, row);
    }
    if (rowErrors.length) errors.push(...rowErrors);
    else if (parsed.success) accepted.push({ row, input: parsed.data });
  }

  if (errors.length) {
    const rows = new Set(errors.map((e) => e.Row)).size;
    throw new AppError(
      400,
      'accessControl.import.failed',
      { rows, total: raw.length },
      { RowErrors: errors },
    );
  }

  await k.transaction().execute(async (trx) => {
    for (const { input } of accepted) await insertHolder(ctx, trx, areaId, input);
    await audit(ctx, { action: 'import', entity: 'CardUser', after: { Count: accepted.length } }, trx);
  });
  return { Imported: accepted.length };
}
