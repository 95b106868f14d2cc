import { isoInstant, issueStatus, type CardUserLinkChannelItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { holderHasCardLike, holderKeyword, inDepartmentTree } from '../card-user/items.ts';
import { doorColumns } from '../common.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query and filter types */

/** An authorisation with its holder (and department), channel and device. */
export function authorizationQuery(db: Kysely<any>) {
  return db
    .selectFrom('CardUserLinkChannel')
    .innerJoin('CardUser', 'CardUser.Id', 'CardUserLinkChannel.CardUserId')
    .leftJoin('Department', 'Department.Id', 'CardUser.DepartmentId')
    .innerJoin('AccessControlChannel', 'AccessControlChannel.Id', 'CardUserLinkChannel.ChannelId')
    .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'CardUserLinkChannel.DeviceId')
    .leftJoin('TimeProfile', 'TimeProfile.Id', 'CardUserLinkChannel.TimeProfileId')
    .select([
      'CardUserLinkChannel.TimeProfileId',
      'TimeProfile.Name as TimeProfileName',
      'CardUserLinkChannel.Id',
      'CardUserLinkChannel.CardUserId',
      'CardUser.Name as HolderName',
      'CardUser.Disabled as HolderDisabled',
      'CardUser.DepartmentId',
      'Department.Name as DepartmentName',
      'CardUserLinkChannel.ChannelId',
      'AccessControlChannel.Name as ChannelName',
      'AccessControlChannel.DoorNumber',
      'AccessControlChannel.Direction',
      'CardUserLinkChannel.DeviceId',
      'AccessControlDevice.Name as DeviceName',
      'AccessControlDevice.SerialNumber',
      'AccessControlDevice.Protocol',
      'CardUserLinkChannel.ValidFrom as OwnValidFrom',
      'CardUserLinkChannel.ValidTo as OwnValidTo',
      'CardUser.ValidFrom as HolderValidFrom',
      'CardUser.ValidTo as HolderValidTo',
      'CardUserLinkChannel.IssueStatus',
      'CardUserLinkChannel.Revoked',
      'CardUserLinkChannel.CreatedAt',
      'CardUserLinkChannel.UpdatedAt',
    ]);
}

const mapFlags = rowMapper<Record<string, any>>({ flags: ['HolderDisabled', 'Revoked'] });

/** The effective validity: the authorisation's own range within the holder's, or the holder's. */
export function toAuthorizationItem(row: Record<string, any>): CardUserLinkChannelItem {
  const { OwnValidFrom, OwnValidTo, HolderValidFrom, HolderValidTo, ...rest } = mapFlags(row);
  const holderFrom = Number(HolderValidFrom);
  const holderTo = Number(HolderValidTo);
  return {
    ...(rest as CardUserLinkChannelItem),
    CardNumbers: [],
    ValidFrom: isoInstant(OwnValidFrom === null ? holderFrom : Math.max(Number(OwnValidFrom), holderFrom)),
    ValidTo: isoInstant(OwnValidTo === null ? holderTo : Math.min(Number(OwnValidTo), holderTo)),
    CustomValidity: OwnValidFrom !== null || OwnValidTo !== null,
  };
}

/** The holders' current card numbers, for a page of authorisations. */
export async function enrichAuthorizations(
  ctx: AreaContext,
  items: CardUserLinkChannelItem[],
): Promise<CardUserLinkChannelItem[]> {
  const cards = await ctx.db.kysely
    .selectFrom('Card')
    .select(['CardUserId', 'CardNumber'])
    .where('CardUserId', 'in', [...new Set(items.map((i) => i.CardUserId))])
    .orderBy('CardNumber')
    .execute();
  return items.map((i) => ({
    ...i,
    CardNumbers: cards.filter((c) => c.CardUserId === i.CardUserId).map((c) => c.CardNumber),
  }));
}

const HOLDER = 'CardUserLinkChannel.CardUserId';

/** The condition of each filter of the authorisation list. */
export const authorizationWhere = {
  CardUserId: match.equals<number>('CardUserLinkChannel.CardUserId'),
  /** Holder name or phone, or a card number. */
  Keyword: (eb: any, v: string) => holderKeyword(eb, v, HOLDER),
  CardNumber: (eb: any, v: string) => holderHasCardLike(eb, v, HOLDER),
  DeviceId: match.equals<number>('CardUserLinkChannel.DeviceId'),
  ChannelId: match.equals<number>('CardUserLinkChannel.ChannelId'),
  IssueStatus: match.equals<number>('CardUserLinkChannel.IssueStatus'),
  /** Includes sub-departments. */
  DepartmentId: (eb: any, v: number) => inDepartmentTree('CardUser.DepartmentId', v)(eb),
  PeopleGroupId: match.equals<number>('CardUser.PeopleGroupId'),
  TimeProfileId: match.equals<number>('CardUserLinkChannel.TimeProfileId'),
  Revoked: match.flag('CardUserLinkChannel.Revoked'),
};

export const authorizationSorts = {
  UpdatedAt: 'CardUserLinkChannel.UpdatedAt',
  Id: 'CardUserLinkChannel.Id',
  HolderName: 'CardUser.Name',
  DeviceName: 'AccessControlDevice.Name',
  IssueStatus: 'CardUserLinkChannel.IssueStatus',
};

export const authorizationExportColumns = [
  ...exportColumns<CardUserLinkChannelItem>('accessControl.field', {
    HolderName: 'text',
    DepartmentName: { header: 'Department', width: 18 },
    CardNumbers: { header: 'Cards', width: 24, label: (v: string[]) => v.join(',') },
    DeviceName: 20,
    ChannelName: 18,
  }),
  ...doorColumns<CardUserLinkChannelItem>(),
  ...exportColumns<CardUserLinkChannelItem>('accessControl.field', {
    ValidFrom: 'instant',
    ValidTo: 'instant',
    TimeProfileName: { header: 'TimeProfile', width: 18 },
    IssueStatus: { enum: issueStatus },
    UpdatedAt: 'instant',
  }),
];
