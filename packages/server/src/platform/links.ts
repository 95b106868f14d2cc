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
