import {
  DEFAULT_SITE_TIME_ZONE,
  displayToCard,
  pathOf,
  visitorPassState,
  VisitorPassApi,
  type VisitorPassItem,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { customTimeZone } from '../../../platform/area-zone.ts';
import type { ServiceContext } from '../../../platform/context.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { contains, match, type Where } from '../../../platform/filters.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { inChunks, type Trx } from '../common.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query and filter types */

/** A visitor pass of the list (docs/access-control.md, "Visitor passes"): the row, its area's zone. */
export function passQuery(db: Kysely<any>) {
  return db
    .selectFrom('VisitorPass')
    .innerJoin('AreaInfo', 'AreaInfo.Id', 'VisitorPass.AreaId')
    .select([
      'VisitorPass.Id',
      'VisitorPass.AreaId',
      'VisitorPass.CardUserId',
      'VisitorPass.VisitorName',
      'VisitorPass.Phone',
      'VisitorPass.Company',
      'VisitorPass.HostCardUserId',
      'VisitorPass.HostName',
      'VisitorPass.ChannelIds',
      'VisitorPass.CardNumber',
      'VisitorPass.ValidFrom',
      'VisitorPass.ValidTo',
      'VisitorPass.HoursOnController',
      'VisitorPass.State',
      'VisitorPass.EndedAt',
      'VisitorPass.EndedBy',
      'VisitorPass.CreatedBy',
      'VisitorPass.CreatedAt',
      'AreaInfo.Custom as AreaCustom',
    ]);
}

/** The pass item with what `enrichPasses` fills; the holder row stays on the server. */
export type PassRow = VisitorPassItem & { AreaId: number; CardUserId: number };

const mapPass = rowMapper<PassRow>({
  flags: ['HoursOnController'],
  instants: ['ValidFrom', 'ValidTo', 'EndedAt', 'CreatedAt'],
});

export function toPassItem(row: Record<string, unknown>): PassRow {
  const custom = row.AreaCustom as string | null;
  delete row.AreaCustom;
  const item = mapPass(row);
  return {
    ...item,
    ChannelIds: JSON.parse(String(row.ChannelIds)) as number[],
    CardValue: displayToCard(item.CardNumber),
    State: Number(item.State),
    TimeZone: customTimeZone(custom) ?? DEFAULT_SITE_TIME_ZONE,
    Upcoming: false,
    Doors: [],
    QrUrl: `${pathOf(VisitorPassApi.qr)}?Id=${item.Id}`,
  };
}

/**
 * Each pass's doors with where its authorisation stands on the controller, and whether it is still ahead (the
 * context's clock). In bulk: one read of the passes' authorisations.
 */
export async function enrichPasses<T extends PassRow>(
  ctx: ServiceContext,
  items: T[],
  db?: Trx,
): Promise<T[]> {
  const k = db ?? ctx.db.kysely;
  const now = ctx.clock.now();
  const rows = await inChunks(
    items.map((i) => i.CardUserId),
    (chunk) =>
      k
        .selectFrom('CardUserLinkChannel as L')
        .innerJoin('AccessControlChannel as C', 'C.Id', 'L.ChannelId')
        .innerJoin('AccessControlDevice as D', 'D.Id', 'L.DeviceId')
        .select([
          'L.CardUserId',
          'L.ChannelId',
          'C.Name as ChannelName',
          'L.DeviceId',
          'D.Name as DeviceName',
          'L.IssueStatus',
        ])
        .where('L.CardUserId', 'in', chunk)
        .orderBy('D.Name')
        .orderBy('C.Name')
        .execute(),
  );
  return items.map((item) => ({
    ...item,
    Upcoming: item.State === 1 && Date.parse(item.ValidFrom) > now,
    Doors: rows
      .filter((r) => r.CardUserId === item.CardUserId)
      .map(({ CardUserId: _holder, ...door }) => door),
  }));
}

/** The item as the API answers it (without the holder row's id). */
export function publicPass(row: PassRow): VisitorPassItem {
  const { AreaId: _area, CardUserId: _holder, ...item } = row;
  return item;
}

export const passWhere: {
  Keyword: Where<string>;
  State: Where<number>;
  HostCardUserId: Where<number>;
  ChannelId: Where<number>;
  ValidAt: Where<number>;
} = {
  Keyword: (eb, text) =>
    eb.or(
      ['VisitorPass.VisitorName', 'VisitorPass.Company', 'VisitorPass.Phone', 'VisitorPass.CardNumber'].map(
        (c) => contains(eb, c, text),
      ),
    ),
  State: match.equals('VisitorPass.State'),
  HostCardUserId: match.equals('VisitorPass.HostCardUserId'),
  // The pass's doors are its holder row's authorisations.
  ChannelId: (eb, channelId) =>
    eb.exists(
      eb
        .selectFrom('CardUserLinkChannel as F')
        .select('F.Id')
        .whereRef('F.CardUserId', '=', 'VisitorPass.CardUserId')
        .where('F.ChannelId', '=', channelId),
    ),
  ValidAt: (eb, at) => eb.and([eb('VisitorPass.ValidFrom', '<=', at), eb('VisitorPass.ValidTo', '>', at)]),
};

export const passSorts = {
  CreatedAt: 'VisitorPass.CreatedAt',
  ValidFrom: 'VisitorPass.ValidFrom',
  ValidTo: 'VisitorPass.ValidTo',
  VisitorName: 'VisitorPass.VisitorName',
  Id: 'VisitorPass.Id',
};

export const passExportColumns = exportColumns<VisitorPassItem>('accessControl.field', {
  Id: { header: 'VisitorPassId', kind: 'number' },
  VisitorName: 20,
  Company: 20,
  Phone: 14,
  HostName: 16,
  CardNumber: 14,
  ValidFrom: 'instant',
  ValidTo: 'instant',
  Doors: {
    width: 40,
    value: (item) => item.Doors.map((d) => `${d.DeviceName} ${d.ChannelName}`).join(', '),
  },
  State: { header: 'PassState', enum: visitorPassState },
  EndedAt: 'instant',
  EndedBy: 'text',
  CreatedBy: 'text',
  CreatedAt: 'instant',
});
