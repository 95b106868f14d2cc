import type { cardUserLinkChannelItem } from '@gatehouse/shared';
import { doorDirection, doorNumber, enumLabel, isoInstant, issueStatus } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ExportColumn } from '../../../platform/exports/registry.ts';
import { contains, filter } from '../../../platform/filters.ts';
import { rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { id } from '../../../platform/schemas.ts';
import { inDepartmentTree } from '../card-user/items.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query and filter types */

export type AuthorizationItem = z.infer<typeof cardUserLinkChannelItem>;

export function authorizationQuery(db: Kysely<any>) {
  return db
    .selectFrom('CardUserLinkChannel')
    .innerJoin('CardUser', 'CardUser.Id', 'CardUserLinkChannel.CardUserId')
    .leftJoin('Department', 'Department.Id', 'CardUser.DepartmentId')
    .innerJoin('AccessControlChannel', 'AccessControlChannel.Id', 'CardUserLinkChannel.ChannelId')
    .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'CardUserLinkChannel.DeviceId')
    .select([
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

const iso = isoInstant;
const mapFlags = rowMapper<Record<string, any>>({ flags: ['HolderDisabled', 'Revoked'] });

export function toAuthorizationItem(row: Record<string, any>): AuthorizationItem {
  const { OwnValidFrom, OwnValidTo, HolderValidFrom, HolderValidTo, ...rest } = mapFlags(row);
  const holderFrom = Number(HolderValidFrom);
  const holderTo = Number(HolderValidTo);
  return {
    ...(rest as AuthorizationItem),
    CardNumbers: [],
    ValidFrom: iso(OwnValidFrom === null ? holderFrom : Math.max(Number(OwnValidFrom), holderFrom)),
    ValidTo: iso(OwnValidTo === null ? holderTo : Math.min(Number(OwnValidTo), holderTo)),
    CustomValidity: OwnValidFrom !== null || OwnValidTo !== null,
  };
}

/** The holders' current card numbers, for a page of authorisations. */
export async function enrichAuthorizations(
  ctx: AreaContext,
  items: AuthorizationItem[],
): Promise<AuthorizationItem[]> {
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

const holderHasCard = (eb: any, text: string) =>
  eb.exists(
    eb
      .selectFrom('Card')
      .select('Card.Id')
      .whereRef('Card.CardUserId', '=', 'CardUserLinkChannel.CardUserId')
      .where((e: any) => contains(e, 'Card.CardNumber', text)),
  );

export const authorizationFilters = {
  CardUserId: filter.id('CardUserLinkChannel.CardUserId'),
  /** Holder name or phone, or a card number. */
  Keyword: {
    schema: z.string().trim().min(1).max(100),
    where: (eb: any, v: string) =>
      eb.or([contains(eb, 'CardUser.Name', v), contains(eb, 'CardUser.Phone', v), holderHasCard(eb, v)]),
  },
  CardNumber: { schema: z.string().trim().min(1).max(10), where: holderHasCard },
  DeviceId: filter.id('CardUserLinkChannel.DeviceId'),
  ChannelId: filter.id('CardUserLinkChannel.ChannelId'),
  IssueStatus: filter.oneOf('CardUserLinkChannel.IssueStatus', issueStatus),
  /** Includes sub-departments. */
  DepartmentId: {
    schema: id,
    where: (eb: any, v: number) => inDepartmentTree('CardUser.DepartmentId', v)(eb),
  },
  PeopleGroupId: filter.id('CardUser.PeopleGroupId'),
  Revoked: filter.flag('CardUserLinkChannel.Revoked'),
};

export const authorizationSorts = {
  UpdatedAt: 'CardUserLinkChannel.UpdatedAt',
  Id: 'CardUserLinkChannel.Id',
  HolderName: 'CardUser.Name',
  DeviceName: 'AccessControlDevice.Name',
  IssueStatus: 'CardUserLinkChannel.IssueStatus',
};

export const authorizationExportColumns: ExportColumn<AuthorizationItem>[] = [
  { key: 'HolderName', labelKey: 'accessControl.field.HolderName' },
  { key: 'DepartmentName', labelKey: 'accessControl.field.Department', width: 18 },
  {
    key: 'CardNumbers',
    labelKey: 'accessControl.field.Cards',
    width: 24,
    label: (v: string[]) => v.join(','),
  },
  { key: 'DeviceName', labelKey: 'accessControl.field.DeviceName', width: 20 },
  { key: 'ChannelName', labelKey: 'accessControl.field.ChannelName', width: 18 },
  {
    key: 'DoorNumber',
    labelKey: 'accessControl.field.DoorNumber',
    label: (v, lang) => enumLabel(lang, doorNumber, v),
  },
  {
    key: 'Direction',
    labelKey: 'accessControl.field.Direction',
    label: (v, lang) => enumLabel(lang, doorDirection, v),
  },
  { key: 'ValidFrom', labelKey: 'accessControl.field.ValidFrom', kind: 'instant' },
  { key: 'ValidTo', labelKey: 'accessControl.field.ValidTo', kind: 'instant' },
  {
    key: 'IssueStatus',
    labelKey: 'accessControl.field.IssueStatus',
    label: (v, lang) => enumLabel(lang, issueStatus, v),
  },
  { key: 'UpdatedAt', labelKey: 'accessControl.field.UpdatedAt', kind: 'instant' },
];
