import {
  LANGUAGES,
  canonicalCardNumber,
  enumLabel,
  enumOptions,
  fromLocalTime,
  nation,
  translate,
  type Lang,
  createHolderBody,
  type HolderInput,
  type ImportRowError,
} from '@gatehouse/shared';
import ExcelJS from 'exceljs';
import { readFirstSheet } from '../../../platform/xlsx/read-sheet.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError } from '../../../platform/errors.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { FileReply } from '../../../platform/route.ts';
import { fieldErrors } from '../../../platform/validation.ts';
import { customTimeZone } from '../../../platform/area-zone.ts';
import { inChunks, type Trx } from '../common.ts';
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

export type RowError = ImportRowError;

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

type Cells = Record<Column, string | Date>;

interface RawRow {
  row: number;
  cells: Cells;
}

/**
 * The filled rows of a template, each with its sheet row number. Size-checked, then parsed in a worker
 * thread: a compressed bomb or a huge sheet never reaches the parser or blocks the server (platform/xlsx).
 */
async function templateRows(base64: string): Promise<RawRow[]> {
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
  const raw: RawRow[] = [];
  for (const { row, cells: values } of body) {
    const cells = Object.fromEntries(COLUMNS.map((c, i) => [c.field, values[i] ?? ''])) as Cells;
    if (Object.values(cells).every((v) => v === '')) continue;
    raw.push({ row, cells });
  }
  if (raw.length === 0) throw new AppError(400, 'accessControl.import.empty');
  if (raw.length > IMPORT_MAX_ROWS)
    throw new AppError(400, 'accessControl.import.tooManyRows', { max: IMPORT_MAX_ROWS });
  return raw;
}

/** The card numbers a cell lists (commas, full-width commas or spaces between them). */
const cardNumbersOf = (cell: string | Date) =>
  String(cell)
    .split(/[,，\s]+/)
    .filter(Boolean);

/** What checking a file's rows needs: the area's values, what the file names as stored, what it repeats. */
interface RowCheck {
  lang: Lang;
  area: AreaLookups;
  /** Cards of the area the file names, by printed number. */
  cards: Map<string, { Id: number; CardUserId: number | null }>;
  /** Citizen ids of the area's holders. */
  citizenIds: Set<string>;
  /** Where the file named a card or citizen id first. */
  seenCards: Map<string, number>;
  seenCitizenIds: Map<string, number>;
}

/** The area's values, and its cards and citizen ids the file names, looked up once. */
async function rowCheck(ctx: AreaContext, raw: RawRow[]): Promise<RowCheck> {
  const k = ctx.db.kysely;
  const named = new Set<string>();
  for (const { cells } of raw)
    for (const n of cardNumbersOf(cells.Cards)) {
      const canonical = canonicalCardNumber(n);
      if (canonical) named.add(canonical);
    }
  const found = await inChunks([...named], (chunk) =>
    k
      .selectFrom('Card')
      .select(['Id', 'CardNumber', 'CardUserId'])
      .where('AreaId', '=', ctx.areaId)
      .where('CardNumber', 'in', chunk)
      .execute(),
  );
  const cards: RowCheck['cards'] = new Map(found.map((c) => [c.CardNumber, c]));
  const holders = await k
    .selectFrom('CardUser')
    .select('CitizenId')
    .where('AreaId', '=', ctx.areaId)
    .where('CitizenId', 'is not', null)
    .execute();
  return {
    lang: ctx.lang,
    area: await lookups(k, ctx.areaId),
    cards,
    citizenIds: new Set(holders.map((r) => r.CitizenId!)),
    seenCards: new Map(),
    seenCitizenIds: new Map(),
  };
}

type Fail = (field: Column, key: string, params?: Record<string, string | number>) => void;

/** A department (by path or unique name), people group or type of the area, by the name in its cell. */
function referenceOf(
  area: AreaLookups,
  field: 'Department' | 'PeopleGroup' | 'PeopleType',
  name: string,
  fail: Fail,
): number | null {
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
}

/** The free cards of the area a row lists, each named once in the whole file. */
function cardsOf(check: RowCheck, row: number, cell: string, fail: Fail): number[] {
  const ids: number[] = [];
  for (const n of cardNumbersOf(cell)) {
    const canonical = canonicalCardNumber(n);
    const card = canonical ? check.cards.get(canonical) : undefined;
    if (!canonical) fail('Cards', 'validation.cardNumber');
    else if (!card) fail('Cards', 'accessControl.error.cardMissingNumber', { card: canonical });
    else if (card.CardUserId !== null) fail('Cards', 'accessControl.error.cardTaken', { card: canonical });
    else if (check.seenCards.has(canonical))
      fail('Cards', 'accessControl.import.repeatedInFile', {
        value: canonical,
        row: check.seenCards.get(canonical)!,
      });
    else {
      check.seenCards.set(canonical, row);
      ids.push(card.Id);
    }
  }
  return ids;
}

/** The validity's ends; a cell that is not a date is reported here (and left out of the holder's check). */
function datesOf(cells: Cells, zone: string | undefined, fail: Fail) {
  const dates: Record<'ValidFrom' | 'ValidTo', number | undefined> = {
    ValidFrom: undefined,
    ValidTo: undefined,
  };
  for (const field of ['ValidFrom', 'ValidTo'] as const) {
    const v = cells[field];
    if (v === '') continue;
    const ms = parseDate(v, field === 'ValidTo', zone);
    if (ms === null) fail(field, 'accessControl.import.badDate');
    else dates[field] = ms;
  }
  return dates;
}

/** A citizen id is not the area's already, nor named twice in the file. */
function checkCitizenId(check: RowCheck, row: number, citizenId: string | null | undefined, fail: Fail) {
  if (!citizenId) return;
  if (check.citizenIds.has(citizenId)) fail('CitizenId', 'accessControl.error.citizenIdTaken');
  else if (check.seenCitizenIds.has(citizenId))
    fail('CitizenId', 'accessControl.import.repeatedInFile', {
      value: citizenId,
      row: check.seenCitizenIds.get(citizenId)!,
    });
  else check.seenCitizenIds.set(citizenId, row);
}

/** One row against the form's rules and the area's values: the holder to add, or what is wrong with it. */
function checkRow(check: RowCheck, { row, cells }: RawRow): { errors: RowError[]; input?: HolderInput } {
  const errors: RowError[] = [];
  const label = (field: Column) => translate(check.lang, COLUMNS.find((c) => c.field === field)!.labelKey);
  const fail: Fail = (field, key, params) =>
    errors.push({ Row: row, Field: label(field), Message: translate(check.lang, key, params) });
  const text = (field: Column) => {
    const v = cells[field];
    return v instanceof Date ? '' : v;
  };

  // Checked in the template's column order, so a row's messages read left to right.
  const nationId = nationOf(text('Nation'));
  if (nationId === null) fail('Nation', 'validation.invalidOption');
  const DepartmentId = referenceOf(check.area, 'Department', text('Department'), fail);
  const PeopleGroupId = referenceOf(check.area, 'PeopleGroup', text('PeopleGroup'), fail);
  const PeopleTypeId = referenceOf(check.area, 'PeopleType', text('PeopleType'), fail);
  const CardIds = cardsOf(check, row, text('Cards'), fail);
  const dates = datesOf(cells, check.area.zone, fail);
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
  if (parsed.success) {
    checkCitizenId(check, row, parsed.data.CitizenId, fail);
    return errors.length ? { errors } : { errors, input: parsed.data };
  }
  const fieldOf = (f: string): Column =>
    (COLUMNS.find((c) => c.field === f)?.field ?? (f === 'CardIds' ? 'Cards' : 'Name')) as Column;
  for (const e of fieldErrors(parsed.error, candidate, check.lang)) {
    // A date that failed to parse was reported already.
    if (
      (e.Field === 'ValidFrom' || e.Field === 'ValidTo') &&
      cells[e.Field] !== '' &&
      dates[e.Field] === undefined
    )
      continue;
    errors.push({ Row: row, Field: label(fieldOf(e.Field)), Message: e.Message });
  }
  return { errors };
}

/** Reads, checks and imports a template (base64 .xlsx). Returns the number of holders added. */
export async function importHolders(ctx: AreaContext, base64: string): Promise<{ Imported: number }> {
  const raw = await templateRows(base64);
  const check = await rowCheck(ctx, raw);
  const errors: RowError[] = [];
  const accepted: HolderInput[] = [];
  for (const line of raw) {
    const result = checkRow(check, line);
    errors.push(...result.errors);
    if (result.input) accepted.push(result.input);
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
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const input of accepted) await insertHolder(ctx, trx, ctx.areaId, input);
    await audit(ctx, { action: 'import', entity: 'CardUser', after: { Count: accepted.length } }, trx);
  });
  return { Imported: accepted.length };
}
