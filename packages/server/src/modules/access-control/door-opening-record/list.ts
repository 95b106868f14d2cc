import {
  ACCESS_CONTROL_ANY,
  DoorOpeningRecordApi,
  canonicalCardNumber,
  displayToCard,
  doorDirection,
  doorEventReason,
  doorRecordReason,
  translate,
  doorRecordResult,
  enumLabel,
  isoInstant,
  type DoorOpeningRecordItem,
  type HubEventInput,
  type Page,
  type SwipeQuery,
} from '@gatehouse/shared';
import { sql, type SelectQueryBuilder, type Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { scopedArea } from '../../../platform/context.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import type { Exportable, ExportColumn } from '../../../platform/exports/registry.ts';
import { contains } from '../../../platform/filters.ts';
import { assertDaySpan } from '../../../platform/resource.ts';
import { type Trx } from '../common.ts';
import type { DoorOpeningRecordTable } from '../tables.ts';
import { DAY_MS, type StoredControllerRecord } from './service.ts';

/**
 * The swipe-record list, newest first, built to stay fast on millions of rows.
 *
 * Filters on holder or card are selective (a person swipes a few times a day): an index per filter ends
 * with (At, Id), so the count is exact and cheap and a page sorts only the matches, or for a broad name
 * match only the time window the page falls in (windowedPage).
 *
 * Otherwise (time range, device, result) the matching rows can be most of the table. Totals then come from
 * DoorOpeningRecordDay, kept in step by recordSwipe: whole days inside the range are summed from it, and only
 * the partial first and last day are counted in the records. A deep page is found the same way: walking the
 * day counts from the newest day gives the day the page starts in, and the OFFSET is taken within that day
 * only. Totals are exact and no request reads more than about one day of index entries.
 */
export type { SwipeQuery };

export type SwipeItem = DoorOpeningRecordItem;

type Records = SelectQueryBuilder<Database, 'DoorOpeningRecord', object>;

const TIME_RANGE = { timeRange: { column: 'At' } };

const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A stored record as the list shows it (the drivers return bigint columns as text or bigint). */
function toItem(row: Omit<Selectable<DoorOpeningRecordTable>, 'AreaId'>): SwipeItem {
  return {
    Id: row.Id,
    At: isoInstant(Number(row.At)),
    CardNumber: row.CardNumber,
    CardValue: displayToCard(row.CardNumber),
    CardUserId: row.CardUserId,
    HolderName: row.HolderName,
    DeviceId: row.DeviceId,
    DeviceName: row.DeviceName,
    ChannelId: row.ChannelId,
    ChannelName: row.ChannelName,
    DoorNumber: row.DoorNumber,
    Direction: row.Direction,
    Result: row.Result === 1,
    Reason: row.Reason,
    EventType: numberOrNull(row.EventType),
    EventReason: numberOrNull(row.EventReason),
    RecordIndex: numberOrNull(row.RecordIndex),
    OpenedBy: null,
  };
}

/** The controller's remote-open reasons (docs/devices.md): 44 remote open, 45 remote open by a USB reader. */
const REMOTE_OPEN = new Set([44, 45]);
/** How long before a controller's remote-open record the operator's open command may have been sent. */
const REMOTE_OPEN_WINDOW_MS = 120_000;

const isRemoteOpen = (item: SwipeItem) => item.EventReason !== null && REMOTE_OPEN.has(item.EventReason);

/**
 * Who opened the door, for each remote-open record of a page (issue 21, item 6): the controller's record
 * names no one, the operation log's "open door" entry does (the same device and door, sent at most two minutes
 * before the controller recorded it, the latest such entry).
 */
async function withOpeners(db: Trx, areaId: number, items: SwipeItem[]): Promise<SwipeItem[]> {
  const remote = items.filter(isRemoteOpen);
  if (remote.length === 0) return items;
  const times = remote.map((i) => Date.parse(i.At));
  const entries = await db
    .selectFrom('AuditLog')
    .select(['At', 'UserName', 'After'])
    .where('AreaId', '=', areaId)
    .where('Action', '=', 'openDoor')
    .where('Entity', '=', 'AccessControlChannel')
    .where('At', '>=', Math.min(...times) - REMOTE_OPEN_WINDOW_MS)
    .where('At', '<=', Math.max(...times) + 5_000)
    .orderBy('At', 'desc')
    .execute();
  const opens = entries.map((e) => {
    let after: { DeviceId?: number; DoorNumber?: number } = {};
    try {
      after = JSON.parse(e.After ?? '{}') as typeof after;
    } catch {
      // not JSON: matches nothing
    }
    return { at: Number(e.At), user: e.UserName, device: after.DeviceId, door: after.DoorNumber };
  });
  return items.map((item) => {
    if (!isRemoteOpen(item)) return item;
    const at = Date.parse(item.At);
    const open = opens.find(
      (o) =>
        o.device === item.DeviceId &&
        o.door === item.DoorNumber &&
        o.at <= at + 5_000 &&
        o.at >= at - REMOTE_OPEN_WINDOW_MS,
    );
    return open?.user ? { ...item, OpenedBy: open.user } : item;
  });
}

/**
 * The live event of a record a controller reported: the list's own item, so an open list can show it as
 * it is without asking again (alarms are their own event type: the dashboard counts them).
 */
export function swipeEvent(r: StoredControllerRecord): HubEventInput {
  const item = swipeItem(r);
  return { Type: r.EventType === ALARM_RECORD ? 'DoorAlarm' : 'Swipe', ...item };
}

/** A stored record as the swipe list shows it (the live list and the outbox's `swipe.recorded` both use it). */
export function swipeItem(r: StoredControllerRecord): SwipeItem {
  return toItem({ ...r, Result: r.Result ? 1 : 0 });
}

/** Record type 3 of a controller's ring: an alarm (docs/devices.md, "Record"). */
const ALARM_RECORD = 3;

/** Holder ids the holder filters select, or null when there is no holder filter. */
async function holderIds(db: Trx, areaId: number, q: SwipeQuery): Promise<number[] | null> {
  if (q.HolderName === undefined) return q.CardUserId === undefined ? null : [q.CardUserId];
  let query = db
    .selectFrom('CardUser')
    .select('Id')
    .where('AreaId', '=', areaId)
    .where((eb) => contains(eb, 'CardUser.Name', q.HolderName!));
  if (q.CardUserId !== undefined) query = query.where('Id', '=', q.CardUserId);
  return (await query.execute()).map((r) => r.Id);
}

/** Area, filters and time bounds on the records. */
function filtered(
  db: Trx,
  areaId: number,
  q: SwipeQuery,
  holders: number[] | null,
  from: number | undefined,
  to: number | undefined,
): Records {
  let query = db.selectFrom('DoorOpeningRecord').where('DoorOpeningRecord.AreaId', '=', areaId);
  if (q.CardNumber !== undefined)
    query = query.where('CardNumber', '=', canonicalCardNumber(q.CardNumber) ?? '');
  if (holders) query = query.where('CardUserId', 'in', holders);
  if (q.DeviceId !== undefined) query = query.where('DeviceId', '=', q.DeviceId);
  if (q.Result !== undefined) query = query.where('Result', '=', q.Result ? 1 : 0);
  if (from !== undefined) query = query.where('At', '>=', from);
  if (to !== undefined) query = query.where('At', '<=', to);
  return query;
}

async function countOf(query: Records): Promise<number> {
  const row = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * A page in two steps: the ids (and times) are sorted and skipped inside a covering index, then only the
 * page's rows are read from the table (a deep page never reads the rows it skips), by id and within the
 * page's own time span: on PostgreSQL that span names the one or two monthly partitions to look in, where an
 * id alone would be looked up in every partition's primary key (28 at 10,000,000 rows: planning and probing
 * them cost 7–9 ms a page). `byHolder`: the matches are selected through the holder or card index; ordering
 * by `+At` keeps the planner from walking the area's time index instead (which would visit every record of
 * the period, not just the matches).
 */
async function pageOf(
  db: Trx,
  query: Records,
  offset: number,
  limit: number,
  byHolder = false,
): Promise<SwipeItem[]> {
  const keys = await query
    .select(['Id', 'At'])
    .orderBy(byHolder ? sql`+"At"` : sql.ref('At'), 'desc')
    .orderBy('Id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  if (keys.length === 0) return [];
  const times = keys.map((k) => Number(k.At));
  const rows = await db
    .selectFrom('DoorOpeningRecord')
    .selectAll()
    .where(
      'Id',
      'in',
      keys.map((k) => k.Id),
    )
    .where('At', '>=', Math.min(...times))
    .where('At', '<=', Math.max(...times))
    .orderBy('At', 'desc')
    .orderBy('Id', 'desc')
    .execute();
  return rows.map(toItem);
}

/** Up to this many matching records are simply sorted; beyond it a page is looked for in a time window. */
const SORT_LIMIT = 2000;

/**
 * A page of a large selective match (a holder-name filter matching many holders): instead of sorting every
 * match, estimate from the match count the time window the page falls in (records spread over time), check
 * it with two exact counts (records newer than the window ≤ offset; records down to its start ≥ offset +
 * limit), widen it until both hold, then sort only the window. Falls back to the plain sort if the records
 * are too unevenly spread for the estimate. The result is always the exact page.
 */
async function windowedPage(
  db: Trx,
  areaId: number,
  q: SwipeQuery,
  holders: number[] | null,
  total: number,
  offset: number,
  limit: number,
): Promise<SwipeItem[]> {
  // The area's oldest and newest record: one index seek each.
  const edge = async (order: 'asc' | 'desc') =>
    Number(
      (
        await db
          .selectFrom('DoorOpeningRecord')
          .select('At')
          .where('AreaId', '=', areaId)
          .orderBy('At', order)
          .limit(1)
          .executeTakeFirstOrThrow()
      ).At,
    );
  const lo = q.StartTime ?? (await edge('asc'));
  const hi = q.EndTime ?? (await edge('desc'));
  const span = hi - lo;
  let margin = span * Math.max(0.01, SORT_LIMIT / 4 / total);
  for (let attempt = 0; attempt < 5 && span > 0; attempt++, margin *= 4) {
    const top = Math.floor(Math.min(hi, hi - (span * offset) / total + margin));
    const bottom = Math.floor(Math.max(lo, hi - (span * (offset + limit)) / total - margin));
    const newer = top >= hi ? 0 : await countOf(filtered(db, areaId, q, holders, top + 1, q.EndTime));
    if (newer > offset) continue;
    const reached = bottom <= lo ? total : await countOf(filtered(db, areaId, q, holders, bottom, q.EndTime));
    if (reached < Math.min(total, offset + limit)) continue;
    return pageOf(
      db,
      filtered(db, areaId, q, holders, Math.max(bottom, lo), top),
      offset - newer,
      limit,
      true,
    );
  }
  return pageOf(db, filtered(db, areaId, q, holders, q.StartTime, q.EndTime), offset, limit, true);
}

/** Matching records per UTC day, exact: whole days from the day counts, the partial edge days counted. */
async function dayCounts(db: Trx, areaId: number, q: SwipeQuery): Promise<Map<number, number>> {
  const first = q.StartTime === undefined ? undefined : Math.floor(q.StartTime / DAY_MS);
  const last = q.EndTime === undefined ? undefined : Math.floor(q.EndTime / DAY_MS);
  let summary = db
    .selectFrom('DoorOpeningRecordDay')
    .select(['Day', sql<number>`sum("Count")`.as('n')])
    .where('AreaId', '=', areaId);
  if (q.DeviceId !== undefined) summary = summary.where('DeviceId', '=', q.DeviceId);
  if (q.Result !== undefined) summary = summary.where('Result', '=', q.Result ? 1 : 0);
  if (first !== undefined) summary = summary.where('Day', '>', first);
  if (last !== undefined) summary = summary.where('Day', '<', last);
  const days = new Map<number, number>();
  for (const r of await summary.groupBy('Day').execute()) days.set(Number(r.Day), Number(r.n));
  if (first !== undefined) {
    const end = Math.min(q.EndTime ?? Infinity, (first + 1) * DAY_MS - 1);
    days.set(first, await countOf(filtered(db, areaId, q, null, q.StartTime, end)));
  }
  if (last !== undefined && last !== first) {
    days.set(last, await countOf(filtered(db, areaId, q, null, last * DAY_MS, q.EndTime)));
  }
  return days;
}

/**
 * One page of the area's swipe records (newest first) and the exact number of matching records.
 * Refuses a range longer than the day-span limit, like every record list.
 */
export async function listSwipes(
  db: Trx,
  areaId: number,
  q: SwipeQuery,
  offset: number,
  limit: number,
): Promise<Page<SwipeItem>> {
  assertDaySpan(q, TIME_RANGE);
  const holders = await holderIds(db, areaId, q);
  if (holders && holders.length === 0) return { Items: [], Total: 0 };
  if (holders || q.CardNumber !== undefined) {
    const query = filtered(db, areaId, q, holders, q.StartTime, q.EndTime);
    const Total = await countOf(query);
    if (offset >= Total) return { Items: [], Total };
    if (Total <= SORT_LIMIT) return { Items: await pageOf(db, query, offset, limit, true), Total };
    return { Items: await windowedPage(db, areaId, q, holders, Total, offset, limit), Total };
  }
  const days = await dayCounts(db, areaId, q);
  const newestFirst = [...days.entries()].filter(([, n]) => n > 0).sort((a, b) => b[0] - a[0]);
  const Total = newestFirst.reduce((sum, [, n]) => sum + n, 0);
  let before = 0;
  for (const [i, [day, n]] of newestFirst.entries()) {
    if (before + n > offset) {
      const upper = Math.min(q.EndTime ?? Infinity, (day + 1) * DAY_MS - 1);
      // The oldest day the page reaches: the day holding its last row, or the oldest day there is. Bounded on
      // both sides, a page's statements plan only the partitions of those days on PostgreSQL.
      let reached = before;
      let last = i;
      while (last < newestFirst.length - 1 && reached + newestFirst[last]![1] < offset + limit)
        reached += newestFirst[last++]![1];
      const lower = Math.max(q.StartTime ?? -Infinity, newestFirst[last]![0] * DAY_MS);
      const query = filtered(db, areaId, q, null, lower, upper);
      return { Items: await pageOf(db, query, offset - before, limit), Total };
    }
    before += n;
  }
  return { Items: [], Total };
}

/** What a page of the list is asked for: its query, with the page turned into an offset. */
export async function swipePage(
  db: Trx,
  areaId: number,
  q: SwipeQuery & { PageIndex: number; PageSize: number },
) {
  const page = await listSwipes(db, areaId, q, (q.PageIndex - 1) * q.PageSize, q.PageSize);
  return { ...page, Items: await withOpeners(db, areaId, page.Items) };
}

/**
 * A card swipe, as opposed to a controller's door event (button, remote open, door sensor) or alarm: only a
 * swipe has a card, a direction, a granted/denied result and a reason (docs/devices.md, "Record"). The
 * export shows each row as the screen does: a door event's card, direction, result and reason are empty
 * (not the stored placeholders 0000000000 / in / failed / other), an alarm's result is "alarm", and the
 * event column names what happened.
 */
const isSwipe = (row: SwipeItem) => row.EventType === null || row.EventType === 1;
/** A swipe's result, and a remote open's: whether the controller opened the door (its record says). */
const hasResult = (row: SwipeItem) => isSwipe(row) || isRemoteOpen(row);
const swipeOnly =
  <K extends keyof SwipeItem>(key: K) =>
  (row: SwipeItem): SwipeItem[K] | null =>
    isSwipe(row) ? row[key] : null;

const columns = exportColumns<SwipeItem>('accessControl.field', {
  At: 'instant',
  CardNumber: { width: 14, value: (row) => (isSwipe(row) || row.CardValue !== 0 ? row.CardNumber : null) },
  HolderName: 'text',
  DeviceName: 20,
  ChannelName: 18,
  Direction: { enum: doorDirection, value: swipeOnly('Direction') },
  Result: {
    value: (row) => (hasResult(row) ? row.Result : row.EventType === ALARM_RECORD ? 'alarm' : null),
    label: (v, lang) =>
      v === 'alarm' ? translate(lang, 'accessControl.field.Alarm') : enumLabel(lang, doorRecordResult, v),
  },
  Reason: { enum: doorRecordReason, width: 20, value: swipeOnly('Reason') },
  EventReason: {
    header: 'DoorEvent',
    width: 22,
    // A swipe's cause is its reason (the controller's, when it named one); its code again here would be a
    // second cause on the same row.
    value: (row) => (isSwipe(row) ? null : row.EventReason),
    // Codes the enumeration does not name are shown as numbers, as on the screen.
    enum: doorEventReason,
  },
  OpenedBy: 'text',
});

/** The swipe list's export: its own service, not a declared resource's. */
export const swipeExport: Exportable = {
  name: DoorOpeningRecordApi.name,
  read: ACCESS_CONTROL_ANY,
  titleKey: 'accessControl.title.doorOpeningRecords',
  columns: columns as ExportColumn[],
  query: DoorOpeningRecordApi.filterQuery,
  requiresRange: ['StartTime', 'EndTime'],
  checkQuery: (q) => assertDaySpan(q, TIME_RANGE),
  count: async (ctx, q) => (await listSwipes(ctx.db.kysely, scopedArea(ctx), q as SwipeQuery, 0, 1)).Total,
  rows: async (ctx, q, limit) =>
    withOpeners(
      ctx.db.kysely,
      scopedArea(ctx),
      (await listSwipes(ctx.db.kysely, scopedArea(ctx), q as SwipeQuery, 0, limit)).Items,
    ),
};
