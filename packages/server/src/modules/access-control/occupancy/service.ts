import {
  DIRECTION_IN,
  OCCUPANCY_RESET_HOUR_DEFAULT,
  isoInstant,
  occupancySince,
  type OccupancyItem,
  type OccupancySummary,
  type Page,
} from '@gatehouse/shared';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { areaTimeZone } from '../../../platform/area-zone.ts';
import { audit } from '../../../platform/audit.ts';
import { actorDisplayName, type AreaContext } from '../../../platform/context.ts';
import { contains } from '../../../platform/filters.ts';
import { inDepartmentTree } from '../card-user/items.ts';
import { activeMuster } from '../muster/items.ts';
import { numberOrNull } from '../../../platform/instants.ts';

/**
 * Who is inside an area (docs/access-control.md, "Occupancy and muster"): the holders whose last granted swipe was
 * at an in reader, since the area's reset hour last came round in its zone. The reset is a condition of the read,
 * not a sweep: nothing has to run at the reset hour, on any instance, for a holder who left without swiping out to
 * stop counting, and the rows stay as the ingest wrote them (one writer). Also the area's reset hour (written
 * here, OccupancySetting).
 */

/** An area's reset hour: its own, else the default. */
export async function resetHourOf(db: Kysely<Database>, areaId: number): Promise<number> {
  const row = await db
    .selectFrom('OccupancySetting')
    .select('ResetHour')
    .where('AreaId', '=', areaId)
    .executeTakeFirst();
  return row ? Number(row.ResetHour) : OCCUPANCY_RESET_HOUR_DEFAULT;
}

/** Where the area's count starts now: its zone, its reset hour, and the last time that hour came round. */
export async function occupancyWindow(ctx: AreaContext, db: Kysely<Database> = ctx.db.kysely) {
  const [zone, resetHour] = await Promise.all([areaTimeZone(db, ctx.areaId), resetHourOf(db, ctx.areaId)]);
  return { zone, resetHour, since: occupancySince(ctx.clock.now(), zone, resetHour) };
}

/** Not a visitor pass's holder row: one of the area's people. */
const visitorFlag = sql<number>`case when exists (select 1 from "VisitorPass" where "VisitorPass"."CardUserId" = "O"."CardUserId") then 1 else 0 end`;

/** The holders inside the area now (since `since`), with their last swipe and what the screens show of them. */
export function insideQuery(db: Kysely<Database>, areaId: number, since: number) {
  return db
    .selectFrom('Occupancy as O')
    .innerJoin('CardUser as H', 'H.Id', 'O.CardUserId')
    .leftJoin('Department as D', 'D.Id', 'H.DepartmentId')
    .where('O.AreaId', '=', areaId)
    .where('O.Direction', '=', DIRECTION_IN)
    .where('O.LastAt', '>=', since);
}

/** What a list row, and a roll call's copy of it, take of someone inside. */
export function insideColumns(query: ReturnType<typeof insideQuery>) {
  return query.select([
    'O.CardUserId',
    'H.Name',
    'H.Phone',
    'D.Name as DepartmentName',
    visitorFlag.as('Visitor'),
    'O.LastAt',
    'O.CardNumber',
    'O.DeviceId',
    'O.DeviceName',
    'O.ChannelId',
    'O.ChannelName',
    'O.DoorNumber',
  ]);
}

type InsideRow = Awaited<ReturnType<ReturnType<typeof insideColumns>['execute']>>[number];

function toOccupancyItem(row: InsideRow): OccupancyItem {
  return {
    Id: Number(row.CardUserId),
    CardUserId: Number(row.CardUserId),
    Name: row.Name,
    Phone: row.Phone ?? null,
    DepartmentName: row.DepartmentName ?? null,
    Visitor: Number(row.Visitor) === 1,
    LastAt: isoInstant(Number(row.LastAt)),
    CardNumber: row.CardNumber,
    DeviceId: Number(row.DeviceId),
    DeviceName: row.DeviceName,
    ChannelId: numberOrNull(row.ChannelId),
    ChannelName: row.ChannelName ?? null,
    DoorNumber: Number(row.DoorNumber),
  };
}

export interface OccupancyQuery {
  PageIndex: number;
  PageSize: number;
  SortField?: 'LastAt' | 'Name';
  SortOrder?: 'asc' | 'desc';
  Keyword?: string;
  DepartmentId?: number;
  DeviceId?: number;
  Visitor?: boolean;
}

/**
 * GET /api/Occupancy: who is inside, newest arrival first unless sorted by name; the area is the caller's (the
 * route's guard), so another area's people are never read. The list is as long as the people inside (an index
 * range of the area's in-rows), so it is counted exactly.
 */
export async function listOccupancy(ctx: AreaContext, q: OccupancyQuery): Promise<Page<OccupancyItem>> {
  const { since } = await occupancyWindow(ctx);
  const db = ctx.db.kysely;
  let query = insideQuery(db, ctx.areaId, since);
  if (q.Keyword !== undefined) {
    const text = q.Keyword;
    query = query.where((eb) =>
      eb.or([
        contains(eb, 'H.Name', text),
        contains(eb, 'H.Phone', text),
        contains(eb, 'O.CardNumber', text),
      ]),
    );
  }
  if (q.DepartmentId !== undefined)
    query = query.where((eb) => inDepartmentTree('H.DepartmentId', q.DepartmentId!)(eb) as never);
  if (q.DeviceId !== undefined) query = query.where('O.DeviceId', '=', q.DeviceId);
  if (q.Visitor !== undefined) query = query.where(sql<SqlBool>`${visitorFlag} = ${q.Visitor ? 1 : 0}`);
  const counted = await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  const order = q.SortOrder ?? (q.SortField === 'Name' ? 'asc' : 'desc');
  const rows = await insideColumns(query)
    .orderBy(q.SortField === 'Name' ? 'H.Name' : 'O.LastAt', order)
    .orderBy('O.CardUserId', order)
    .limit(q.PageSize)
    .offset((q.PageIndex - 1) * q.PageSize)
    .execute();
  return { Items: rows.map(toOccupancyItem), Total: Number(counted?.n ?? 0) };
}

/** How many are inside the area now (and of them visitors), since when, and the roll call under way. */
export async function occupancySummary(
  ctx: AreaContext,
  db: Kysely<Database> = ctx.db.kysely,
): Promise<OccupancySummary> {
  const { zone, resetHour, since } = await occupancyWindow(ctx, db);
  const [counted, muster] = await Promise.all([
    insideQuery(db, ctx.areaId, since)
      .select([sql<number>`count(*)`.as('n'), sql<number>`sum(${visitorFlag})`.as('visitors')])
      .executeTakeFirst(),
    activeMuster(db, ctx.areaId),
  ]);
  return {
    Inside: Number(counted?.n ?? 0),
    Visitors: Number(counted?.visitors ?? 0),
    Since: isoInstant(since),
    ResetHour: resetHour,
    TimeZone: zone,
    Muster: muster
      ? {
          Id: muster.Id,
          StartedAt: muster.StartedAt,
          Total: muster.Total,
          Safe: muster.Safe,
          Missing: muster.Missing,
        }
      : null,
  };
}

/**
 * Sets the area's reset hour (AccessControl/Admin), audited with the hour before and after. It applies to the next
 * read: whoever swiped in before the reset hour now last come round is no longer counted.
 */
export async function setResetHour(ctx: AreaContext, resetHour: number): Promise<OccupancySummary> {
  const now = ctx.clock.now();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await resetHourOf(trx, ctx.areaId);
    const values = { ResetHour: resetHour, UpdatedAt: now, UpdatedBy: actorDisplayName(ctx.actor) };
    await trx
      .insertInto('OccupancySetting')
      .values({ AreaId: ctx.areaId, ...values })
      .onConflict((oc) => oc.column('AreaId').doUpdateSet(values))
      .execute();
    await audit(
      ctx,
      {
        action: 'setOccupancyReset',
        entity: 'Occupancy',
        entityId: ctx.areaId,
        before: { ResetHour: before },
        after: { ResetHour: resetHour },
      },
      trx,
    );
    return occupancySummary(ctx, trx);
  });
}
