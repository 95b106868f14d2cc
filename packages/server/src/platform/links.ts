import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { audit } from './audit.ts';
import type { ServiceContext } from './context.ts';

/** One owner's rows in a link table: UserArea of an area (AreaId → UserId), RoleResource of a role. */
export interface LinkSet {
  table: keyof Database & string;
  /** The column naming the owner, and the owner's id. */
  owner: string;
  ownerId: number;
  /** The column naming what the owner is linked to. */
  linked: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- one helper over several link tables; callers name them. */
const untyped = (trx: Kysely<Database>) => trx as unknown as Kysely<any>;

/** Links the owner to `ids` (no duplicates expected). */
export async function insertLinks(
  trx: Kysely<Database>,
  set: LinkSet,
  ids: readonly number[],
): Promise<void> {
  if (ids.length)
    await untyped(trx)
      .insertInto(set.table)
      .values(ids.map((id) => ({ [set.owner]: set.ownerId, [set.linked]: id })))
      .execute();
}

/**
 * Replaces the owner's links by `ids`, in the caller's transaction, and answers the ids it was linked to
 * before (in order), for the audit entry of the change.
 */
export async function replaceLinks(
  trx: Kysely<Database>,
  set: LinkSet,
  ids: readonly number[],
): Promise<number[]> {
  const before: Record<string, number>[] = await untyped(trx)
    .selectFrom(set.table)
    .select(set.linked)
    .where(set.owner, '=', set.ownerId)
    .orderBy(set.linked)
    .execute();
  await untyped(trx).deleteFrom(set.table).where(set.owner, '=', set.ownerId).execute();
  await insertLinks(trx, set, ids);
  return before.map((row) => row[set.linked]!);
}

/**
 * replaceLinks with its audit entry: `action` on the owner (`entity`, the owner's id), the linked ids before
 * and after under the linked column's plural (UserIds, ResourceIds).
 */
export async function replaceLinksAudited(
  ctx: ServiceContext,
  trx: Kysely<Database>,
  action: string,
  entity: string,
  set: LinkSet,
  ids: readonly number[],
): Promise<void> {
  const before = await replaceLinks(trx, set, ids);
  const field = `${set.linked}s`;
  await audit(
    ctx,
    { action, entity, entityId: set.ownerId, before: { [field]: before }, after: { [field]: ids } },
    trx,
  );
}

/** A link table read for a page of owners (a rule's zones, a key's areas, a role's resources). */
export type LinkTable = Omit<LinkSet, 'ownerId'>;

/**
 * Per page of a list, in one query: the ids each owner is linked to, in their order. An owner without links
 * is not in the map.
 */
export async function linkedIds(
  db: Kysely<Database>,
  links: LinkTable,
  ownerIds: readonly number[],
): Promise<Map<number, number[]>> {
  if (ownerIds.length === 0) return new Map();
  const rows: { OwnerId: number; Id: number }[] = await untyped(db)
    .selectFrom(links.table)
    .select([`${links.owner} as OwnerId`, `${links.linked} as Id`])
    .where(links.owner, 'in', ownerIds)
    .orderBy(links.linked)
    .execute();
  return byOwner(rows, (row) => row.Id);
}

/**
 * Per page of a list, in one query: the rows of `named` (Id, Name) each owner is linked to, ordered by the
 * named table's Id or Name. An owner without links is not in the map.
 */
export async function linkedNames(
  db: Kysely<Database>,
  links: LinkTable,
  named: { table: keyof Database & string; orderBy: 'Id' | 'Name' },
  ownerIds: readonly number[],
): Promise<Map<number, { Id: number; Name: string }[]>> {
  if (ownerIds.length === 0) return new Map();
  const rows: { OwnerId: number; Id: number; Name: string }[] = await untyped(db)
    .selectFrom(links.table)
    .innerJoin(named.table, `${named.table}.Id`, `${links.table}.${links.linked}`)
    .select([`${links.table}.${links.owner} as OwnerId`, `${named.table}.Id`, `${named.table}.Name`])
    .where(`${links.table}.${links.owner}`, 'in', ownerIds)
    .orderBy(`${named.table}.${named.orderBy}`)
    .execute();
  return byOwner(rows, ({ Id, Name }) => ({ Id, Name }));
}

function byOwner<R extends { OwnerId: number }, T>(rows: R[], value: (row: R) => T): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.OwnerId);
    if (list) list.push(value(row));
    else map.set(row.OwnerId, [value(row)]);
  }
  return map;
}
