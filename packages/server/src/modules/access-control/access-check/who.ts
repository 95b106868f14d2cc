import {
  ACCESS_CONTROL_ANY,
  AccessCheckWhoApi,
  LOCKDOWN_DOOR_MODE,
  issueStatus,
  profileGrantsAt,
  type AccessCheckWhoItem,
  type LockdownMode,
} from '@gatehouse/shared';
import type { z } from 'zod';
import { exportColumns } from '../../../platform/export-columns.ts';
import type { Exportable, ExportColumn } from '../../../platform/exports/registry.ts';
import { contains } from '../../../platform/filters.ts';
import { scopedArea, type AreaContext, type ServiceContext } from '../../../platform/context.ts';
import { inChunks } from '../common.ts';
import { planInputs } from '../time-profile/service.ts';
import { LIVE_GRANTS, doorOf, lockdownAt } from './facts.ts';
import { checkedTime, doorModesAt } from './service.ts';

/**
 * The reverse question of the access check (docs/access-control.md, "Access check"): who can pass a door (or any
 * door of the area) at a time, by Gatehouse's rules: each live authorisation whose holder is enabled and has a
 * card, whose validity holds the instant, whose visitor pass has not ended and whose time profile (with the
 * holidays, judged as the controller judges it) covers the minute, on a door not held normally closed then (a
 * lockdown, its schedule, its mode set by hand). Paged in memory after the database narrowed the rows (the time
 * profile is judged in code); exported like any list.
 */

type WhoQuery = z.output<typeof AccessCheckWhoApi.filterQuery>;

function whoQuery(ctx: AreaContext, areaId: number, at: number) {
  return (
    ctx.db.kysely
      .selectFrom('CardUserLinkChannel as L')
      .innerJoin('CardUser as U', 'U.Id', 'L.CardUserId')
      .innerJoin('AccessControlChannel as C', 'C.Id', 'L.ChannelId')
      .innerJoin('AccessControlDevice as D', 'D.Id', 'L.DeviceId')
      .leftJoin('VisitorPass as P', 'P.CardUserId', 'L.CardUserId')
      .leftJoin('TimeProfile as T', 'T.Id', 'L.TimeProfileId')
      .select([
        'L.Id',
        'L.CardUserId',
        'U.Name as HolderName',
        'P.Id as PassId',
        'P.State as PassState',
        'P.ValidTo as PassEnd',
        'L.DeviceId',
        'D.Name as DeviceName',
        'L.ChannelId',
        'C.Name as ChannelName',
        'C.DoorNumber',
        'L.IssueStatus',
        'U.ValidFrom as HolderFrom',
        'U.ValidTo as HolderTo',
        'L.ValidFrom',
        'L.ValidTo',
        'L.TimeProfileId',
        'T.Name as TimeProfileName',
      ])
      .where('L.AreaId', '=', areaId)
      .where('L.Revoked', '=', 0)
      .where('L.IssueStatus', 'in', [...LIVE_GRANTS])
      .where('U.Disabled', '=', 0)
      .where('D.Disabled', '=', 0)
      .where('C.DoorNumber', '>=', 1)
      .where('U.ValidFrom', '<=', at)
      .where('U.ValidTo', '>=', at)
      .where((eb) => eb.or([eb('L.ValidFrom', 'is', null), eb('L.ValidFrom', '<=', at)]))
      .where((eb) => eb.or([eb('L.ValidTo', 'is', null), eb('L.ValidTo', '>=', at)]))
      // Without a card nothing is on the controller for the holder.
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('Card').select('Card.Id').whereRef('Card.CardUserId', '=', 'L.CardUserId')),
      )
  );
}

/** Every authorisation that lets its holder through at the time asked, by holder name. */
async function whoRows(ctx: ServiceContext, q: WhoQuery): Promise<Omit<AccessCheckWhoItem, 'CardNumbers'>[]> {
  const areaId = scopedArea(ctx);
  const area: AreaContext = { ...ctx, areaId };
  const { zone, local, at } = await checkedTime(area, q.At);
  let query = whoQuery(area, areaId, at);
  if (q.ChannelId !== undefined) {
    const door = await doorOf(ctx.db.kysely, areaId, q.ChannelId);
    query = query.where('L.DeviceId', '=', door.DeviceId).where('C.DoorNumber', '=', door.DoorNumber);
  }
  if (q.DeviceId !== undefined) query = query.where('L.DeviceId', '=', q.DeviceId);
  const keyword = q.Keyword;
  if (keyword !== undefined)
    query = query.where((eb) =>
      eb.or([
        contains(eb, 'U.Name', keyword),
        eb.exists(
          eb
            .selectFrom('Card as K')
            .select('K.Id')
            .whereRef('K.CardUserId', '=', 'L.CardUserId')
            .where((e) => contains(e, 'K.CardNumber', keyword)),
        ),
      ]),
    );
  const rows = await query.orderBy('U.Name').orderBy('L.Id').execute();
  const lockdown = await lockdownAt(ctx.db.kysely, areaId, at);
  // A lockdown holds every door normally closed: nobody passes.
  if (lockdown && LOCKDOWN_DOOR_MODE[lockdown.Mode as LockdownMode] === 2) return [];
  const { profiles, holidays } = await planInputs(ctx.db.kysely, areaId);
  const modesOf = await doorModesAt(area, [...new Set(rows.map((r) => r.DeviceId))], at, zone);
  const granted = new Map<number, boolean>();
  const closed = new Map<string, boolean>();
  const passes = (profileId: number | null) => {
    if (profileId === null) return true;
    if (!granted.has(profileId))
      granted.set(profileId, profileGrantsAt(profileId, profiles, holidays, local).granted);
    return granted.get(profileId)!;
  };
  const doorClosed = (deviceId: number, door: number) => {
    const key = `${deviceId}:${door}`;
    if (!closed.has(key)) {
      const m = modesOf(deviceId, door);
      // An evacuation holds every door open; otherwise its schedule's mode, else the one set by hand.
      closed.set(key, !lockdown && (m.scheduled ?? m.byHand) === 2);
    }
    return closed.get(key)!;
  };
  return rows
    .filter((r) => r.PassState === null || (Number(r.PassState) === 1 && Number(r.PassEnd) > at))
    .filter((r) => passes(r.TimeProfileId) && !doorClosed(r.DeviceId, r.DoorNumber))
    .map((r) => ({
      Id: r.Id,
      CardUserId: r.CardUserId,
      HolderName: r.HolderName,
      Visitor: r.PassId !== null,
      DeviceId: r.DeviceId,
      DeviceName: r.DeviceName,
      ChannelId: r.ChannelId,
      ChannelName: r.ChannelName,
      DoorNumber: r.DoorNumber,
      IssueStatus: r.IssueStatus,
      ValidFrom: new Date(Math.max(Number(r.HolderFrom), Number(r.ValidFrom ?? r.HolderFrom))).toISOString(),
      ValidTo: new Date(Math.min(Number(r.HolderTo), Number(r.ValidTo ?? r.HolderTo))).toISOString(),
      TimeProfileId: r.TimeProfileId,
      TimeProfileName: r.TimeProfileId === null ? null : (r.TimeProfileName ?? String(r.TimeProfileId)),
    }));
}

/** The holders' card numbers, joined, for the rows shown. */
async function withCards(
  ctx: ServiceContext,
  rows: Omit<AccessCheckWhoItem, 'CardNumbers'>[],
): Promise<AccessCheckWhoItem[]> {
  const holders = [...new Set(rows.map((r) => r.CardUserId))];
  const cards = await inChunks(holders, (chunk) =>
    ctx.db.kysely
      .selectFrom('Card')
      .select(['CardUserId', 'CardNumber'])
      .where('CardUserId', 'in', chunk)
      .orderBy('CardNumber')
      .execute(),
  );
  const byHolder = new Map<number, string[]>();
  for (const c of cards) byHolder.set(c.CardUserId!, [...(byHolder.get(c.CardUserId!) ?? []), c.CardNumber]);
  return rows.map((r) => ({ ...r, CardNumbers: (byHolder.get(r.CardUserId) ?? []).join(', ') }));
}

export async function whoPage(
  ctx: AreaContext,
  q: WhoQuery & { PageIndex: number; PageSize: number },
): Promise<{ Items: AccessCheckWhoItem[]; Total: number }> {
  const rows = await whoRows(ctx, q);
  const start = (q.PageIndex - 1) * q.PageSize;
  return { Items: await withCards(ctx, rows.slice(start, start + q.PageSize)), Total: rows.length };
}

const columns = exportColumns<AccessCheckWhoItem>('accessControl.field', {
  HolderName: 16,
  CardNumbers: 24,
  DeviceName: 20,
  ChannelName: 20,
  IssueStatus: { enum: issueStatus, width: 16 },
  ValidFrom: 'instant',
  ValidTo: 'instant',
  TimeProfileName: { header: 'TimeProfile', width: 20 },
});

export const whoExport: Exportable = {
  name: AccessCheckWhoApi.name,
  read: ACCESS_CONTROL_ANY,
  titleKey: 'accessCheck.title.who',
  columns: columns as ExportColumn[],
  query: AccessCheckWhoApi.filterQuery,
  count: async (ctx, q) => (await whoRows(ctx, q as WhoQuery)).length,
  rows: async (ctx, q, limit) => withCards(ctx, (await whoRows(ctx, q as WhoQuery)).slice(0, limit)),
};
