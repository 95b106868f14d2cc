import { displayToCard, disabledFlag, nation, type CardUserItem } from '@gatehouse/shared';
import { sql, type Kysely, type SqlBool } from 'kysely';
import { exportColumns } from '../../../platform/export-columns.ts';
import { contains, match } from '../../../platform/filters.ts';
import { rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { notVisitorHolder } from '../visitor-pass/holders.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query and filter types */

export type HolderItem = CardUserItem;

export function holderQuery(db: Kysely<any>) {
  return db
    .selectFrom('CardUser')
    .leftJoin('Department', 'Department.Id', 'CardUser.DepartmentId')
    .leftJoin('PeopleGroup', 'PeopleGroup.Id', 'CardUser.PeopleGroupId')
    .leftJoin('PeopleType', 'PeopleType.Id', 'CardUser.PeopleTypeId')
    .select([
      'CardUser.Id',
      'CardUser.Name',
      'CardUser.Phone',
      'CardUser.CitizenId',
      'CardUser.Nation',
      'CardUser.DepartmentId',
      'Department.Name as DepartmentName',
      'CardUser.PeopleGroupId',
      'PeopleGroup.Name as PeopleGroupName',
      'CardUser.PeopleTypeId',
      'PeopleType.Name as PeopleTypeName',
      'CardUser.ValidFrom',
      'CardUser.ValidTo',
      'CardUser.Disabled',
      'CardUser.Remark',
      'CardUser.CreatedAt',
      'CardUser.UpdatedAt',
    ])
    .where(notVisitorHolder('CardUser.Id'));
}

const mapHolder = rowMapper<HolderItem>({ instants: ['ValidFrom', 'ValidTo', 'CreatedAt', 'UpdatedAt'] });

export const toHolderItem = (row: Record<string, any>): HolderItem => ({
  ...mapHolder(row),
  Expired: false,
  Cards: [],
  CardNumbers: [],
  AuthorizationCount: 0,
});

/** Cards, authorisation counts and the expiry flag of a page of holders, in two queries. */
export async function enrichHolders(ctx: AreaContext, items: HolderItem[]): Promise<HolderItem[]> {
  const ids = items.map((i) => i.Id);
  const [cards, counts] = await Promise.all([
    ctx.db.kysely
      .selectFrom('Card')
      .select(['Id', 'CardNumber', 'CardType', 'CardUserId'])
      .where('CardUserId', 'in', ids)
      .orderBy('CardNumber')
      .execute(),
    ctx.db.kysely
      .selectFrom('CardUserLinkChannel')
      .select((eb) => ['CardUserId', eb.fn.countAll().as('n')])
      .where('CardUserId', 'in', ids)
      .where('Revoked', '=', 0)
      .groupBy('CardUserId')
      .execute(),
  ]);
  const now = ctx.clock.now();
  const countOf = new Map(counts.map((c) => [c.CardUserId, Number(c.n)]));
  return items.map((item) => {
    const own = cards
      .filter((c) => c.CardUserId === item.Id)
      .map((c) => ({
        Id: c.Id,
        CardNumber: c.CardNumber,
        CardValue: displayToCard(c.CardNumber),
        CardType: c.CardType,
      }));
    return {
      ...item,
      Expired: Date.parse(item.ValidTo) < now,
      Cards: own,
      CardNumbers: own.map((c) => c.CardNumber),
      AuthorizationCount: countOf.get(item.Id) ?? 0,
    };
  });
}

/** A department and everything under it (the tree screen's selection means the whole branch). */
export function inDepartmentTree(column: string, departmentId: number) {
  return (eb: any) =>
    sql<SqlBool>`${eb.ref(column)} in (with recursive "Sub"("Id") as (select cast(${departmentId} as integer) union all select "Department"."Id" from "Department" join "Sub" on "Department"."ParentId" = "Sub"."Id") select "Id" from "Sub")`;
}

/** Holders (by the column holding their id) with a card whose printed number contains the text. */
export function holderHasCardLike(eb: any, text: string, holderId: string) {
  return eb.exists(
    eb
      .selectFrom('Card')
      .select('Card.Id')
      .whereRef('Card.CardUserId', '=', holderId)
      .where((e: any) => contains(e, 'Card.CardNumber', text)),
  );
}

/** A holder's name or phone, or one of its card numbers, contains the text (CardUser joined). */
export function holderKeyword(eb: any, text: string, holderId: string) {
  return eb.or([
    contains(eb, 'CardUser.Name', text),
    contains(eb, 'CardUser.Phone', text),
    holderHasCardLike(eb, text, holderId),
  ]);
}

/** The condition of each filter of the holder list. */
export const holderWhere = {
  /** Name, phone, citizen id or card number. */
  Keyword: (eb: any, v: string) =>
    eb.or([holderKeyword(eb, v, 'CardUser.Id'), contains(eb, 'CardUser.CitizenId', v)]),
  Name: match.like('CardUser.Name'),
  Phone: match.like('CardUser.Phone'),
  CitizenId: match.like('CardUser.CitizenId'),
  CardNumber: (eb: any, v: string) => holderHasCardLike(eb, v, 'CardUser.Id'),
  Nation: match.equals<number>('CardUser.Nation'),
  /** Includes the department's sub-departments. */
  DepartmentId: (eb: any, v: number) => inDepartmentTree('CardUser.DepartmentId', v)(eb),
  PeopleGroupId: match.equals<number>('CardUser.PeopleGroupId'),
  PeopleTypeId: match.equals<number>('CardUser.PeopleTypeId'),
  Disabled: match.flag('CardUser.Disabled'),
  /** Validity ends at or after this instant. */
  ValidToFrom: match.from('CardUser.ValidTo'),
  /** Validity ends at or before this instant (ValidToTo = now: the expired). */
  ValidToTo: match.to('CardUser.ValidTo'),
};

export const holderSorts = {
  CreatedAt: 'CardUser.CreatedAt',
  Id: 'CardUser.Id',
  Name: 'CardUser.Name',
  ValidTo: 'CardUser.ValidTo',
  UpdatedAt: 'CardUser.UpdatedAt',
};

export const holderExportColumns = exportColumns<HolderItem>('accessControl.field', {
  Name: { header: 'HolderName' },
  Phone: 14,
  CitizenId: 22,
  Nation: { enum: nation },
  DepartmentName: { header: 'Department', width: 18 },
  PeopleGroupName: { header: 'PeopleGroup' },
  PeopleTypeName: { header: 'PeopleType' },
  CardNumbers: { header: 'Cards', width: 26, label: (v: string[]) => v.join(',') },
  ValidFrom: 'instant',
  ValidTo: 'instant',
  Disabled: { header: 'Status', enum: disabledFlag },
  Remark: 24,
  CreatedAt: 'instant',
});
