import type { CardUserItem, HolderInput } from '@gatehouse/shared';
import { audit } from '../../../platform/audit.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { setHolderCards } from '../card-registration/service.ts';
import { markHoldersChanged, restoreHolder, withdrawHolder } from '../card-user-link-channel/lifecycle.ts';
import type { Trx } from '../common.ts';
import { enrichHolders, holderQuery, toHolderItem } from './items.ts';
import { notVisitorHolder } from '../visitor-pass/holders.ts';
import {
  CHANGE,
  diffSnapshots,
  holderSnapshot,
  writeChangeRecord,
  writeRenewalRecord,
  type FieldChange,
} from './change-log.ts';

/**
 * Card-holder writes. Each runs in one transaction with its change record (and renewal record for an
 * extension), its audit entry, and the issue-status consequences for the holder's authorisations.
 */

/** One holder of the area as the list shows it (what a create or an edit answers). */
export async function holderById(ctx: AreaContext, holderId: number): Promise<CardUserItem> {
  const row = await holderQuery(ctx.db.kysely)
    .where('CardUser.Id', '=', holderId)
    .where('CardUser.AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!row) throw notFound();
  const [item] = await enrichHolders(ctx, [toHolderItem(row)]);
  return item!;
}

/**
 * A holder may be deleted while nothing depends on it (no card, authorisation or swipe). Its change and
 * renewal records describe only this holder: they go with it, in the same transaction (the delete's audit
 * entry keeps the holder as it was).
 */
export async function removeHolderRecords(ctx: AreaContext, trx: Trx, holderId: number): Promise<void> {
  await findHolder(ctx, trx, holderId);
  await assertNoDependents('CardUser', trx, holderId, ctx.lang);
  await emitHolderDeleted(ctx, trx, holderId);
  await trx.deleteFrom('ChangeRecord').where('CardUserId', '=', holderId).execute();
  await trx.deleteFrom('RenewalRecord').where('CardUserId', '=', holderId).execute();
}
/** `holder.deleted` in the delete's transaction (platform/outbox), named as it was. */
async function emitHolderDeleted(ctx: AreaContext, trx: Trx, holderId: number): Promise<void> {
  const holder = await trx
    .selectFrom('CardUser')
    .select(['Id', 'Name', 'AreaId'])
    .where('Id', '=', holderId)
    .executeTakeFirst();
  if (!holder) return;
  const cards = await trx
    .selectFrom('Card')
    .select('CardNumber')
    .where('CardUserId', '=', holderId)
    .orderBy('CardNumber')
    .execute();
  const names = await areaNames(trx, [holder.AreaId]);
  await emitEvent(trx, {
    type: 'holder.deleted',
    at: ctx.clock.now(),
    data: {
      Id: holder.Id,
      Name: holder.Name,
      CardNumbers: cards.map((c) => c.CardNumber),
      AreaId: holder.AreaId,
      AreaName: names.get(holder.AreaId) ?? '',
    },
  });
}

async function inArea(
  trx: Trx,
  table: 'Department' | 'PeopleGroup' | 'PeopleType',
  rowId: number,
  areaId: number,
): Promise<boolean> {
  return !!(await trx
    .selectFrom(table)
    .select('Id')
    .where('Id', '=', rowId)
    .where('AreaId', '=', areaId)
    .executeTakeFirst());
}

/** Department, people group and type must be of the same area. */
export async function checkReferences(trx: Trx, areaId: number, input: Partial<HolderInput>): Promise<void> {
  if (input.DepartmentId && !(await inArea(trx, 'Department', input.DepartmentId, areaId)))
    throw fieldError('DepartmentId', 'error.departmentMissing');
  if (input.PeopleGroupId && !(await inArea(trx, 'PeopleGroup', input.PeopleGroupId, areaId)))
    throw fieldError('PeopleGroupId', 'accessControl.error.peopleGroupMissing');
  if (input.PeopleTypeId && !(await inArea(trx, 'PeopleType', input.PeopleTypeId, areaId)))
    throw fieldError('PeopleTypeId', 'accessControl.error.peopleTypeMissing');
}

async function checkCitizenId(
  trx: Trx,
  areaId: number,
  citizenId: string | null | undefined,
  exceptId?: number,
) {
  if (!citizenId) return;
  let query = trx
    .selectFrom('CardUser')
    .select('Id')
    .where('AreaId', '=', areaId)
    .where('CitizenId', '=', citizenId);
  if (exceptId !== undefined) query = query.where('Id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw new AppError(409, 'accessControl.error.citizenIdTaken');
}

function holderValues(input: HolderInput) {
  return {
    Name: input.Name,
    Phone: input.Phone ?? null,
    CitizenId: input.CitizenId ?? null,
    Nation: input.Nation ?? 0,
    DepartmentId: input.DepartmentId ?? null,
    PeopleGroupId: input.PeopleGroupId ?? null,
    PeopleTypeId: input.PeopleTypeId ?? null,
    ValidFrom: input.ValidFrom,
    ValidTo: input.ValidTo,
    Remark: input.Remark ?? null,
  };
}

/** Inserts a holder with its cards and its "add user" change record, inside the caller's transaction. */
export async function insertHolder(
  ctx: AreaContext,
  trx: Trx,
  areaId: number,
  input: HolderInput,
): Promise<number> {
  const now = ctx.clock.now();
  const created = await trx
    .insertInto('CardUser')
    .values({ AreaId: areaId, ...holderValues(input), CreatedAt: now, UpdatedAt: now })
    .returning('Id')
    .executeTakeFirstOrThrow();
  if (input.CardIds?.length) await setHolderCards(trx, areaId, created.Id, input.CardIds, now);
  const after = await holderSnapshot(trx, created.Id);
  await writeChangeRecord(
    ctx,
    trx,
    { Id: created.Id, AreaId: areaId, Name: input.Name },
    CHANGE.add,
    diffSnapshots(null, after),
  );
  return created.Id;
}

/**
 * The holder row a visitor pass's card is on the controllers as (visitor-pass/service.ts), in the caller's
 * transaction: the pass's validity (its last second: a holder's end is inclusive), no department, no change
 * record (a visitor is not one of the area's holders: the holder screens and pickers leave the row out).
 */
export async function insertVisitorHolder(
  trx: Trx,
  areaId: number,
  input: { Name: string; Phone: string | null; ValidFrom: number; ValidTo: number },
  now: number,
): Promise<number> {
  const created = await trx
    .insertInto('CardUser')
    .values({
      AreaId: areaId,
      Name: input.Name,
      Phone: input.Phone,
      CitizenId: null,
      Nation: 0,
      DepartmentId: null,
      PeopleGroupId: null,
      PeopleTypeId: null,
      ValidFrom: input.ValidFrom,
      ValidTo: input.ValidTo,
      Remark: null,
      CreatedAt: now,
      UpdatedAt: now,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  return created.Id;
}

/** A visitor pass ended: its holder row is disabled, so nothing can be granted to it again. */
export async function closeVisitorHolder(trx: Trx, holderId: number, now: number): Promise<void> {
  await trx.updateTable('CardUser').set({ Disabled: 1, UpdatedAt: now }).where('Id', '=', holderId).execute();
}

export async function createHolder(ctx: AreaContext, input: HolderInput): Promise<number> {
  const areaId = ctx.areaId;
  return ctx.db.kysely.transaction().execute(async (trx) => {
    await checkReferences(trx, areaId, input);
    await checkCitizenId(trx, areaId, input.CitizenId);
    const holderId = await insertHolder(ctx, trx, areaId, input);
    await audit(ctx, { action: 'create', entity: 'CardUser', entityId: holderId, after: input }, trx);
    return holderId;
  });
}

async function findHolder(ctx: AreaContext, trx: Trx, holderId: number) {
  const holder = await trx
    .selectFrom('CardUser')
    .selectAll()
    .where('Id', '=', holderId)
    .where('AreaId', '=', ctx.areaId)
    // A visitor's holder row is the pass's own (its window and state come from the pass): the holder
    // screens do not show it, and their writes do not reach it either.
    .where(notVisitorHolder('CardUser.Id'))
    .executeTakeFirst();
  if (!holder) throw notFound();
  return holder;
}

/**
 * Edits a holder. Recorded as "modify user" with the changed fields; a later end of validity is an
 * extension and is recorded as such (change record "user extension" and a renewal record), so no
 * extension escapes the renewal list. A change of cards or validity sets live authorisations to pending update.
 */
export async function updateHolder(ctx: AreaContext, holderId: number, input: HolderInput): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const existing = await findHolder(ctx, trx, holderId);
    await checkReferences(trx, existing.AreaId, input);
    await checkCitizenId(trx, existing.AreaId, input.CitizenId, holderId);
    const before = await holderSnapshot(trx, holderId);
    await trx
      .updateTable('CardUser')
      .set({ ...holderValues(input), UpdatedAt: now })
      .where('Id', '=', holderId)
      .execute();
    const cardsChanged =
      input.CardIds !== undefined &&
      (await setHolderCards(trx, existing.AreaId, holderId, input.CardIds, now));
    const after = await holderSnapshot(trx, holderId);
    const changes = diffSnapshots(before, after);
    if (changes.length === 0) return;
    const holder = { Id: holderId, AreaId: existing.AreaId, Name: input.Name };
    const extended = input.ValidTo > Number(existing.ValidTo);
    const modified: FieldChange[] = changes.filter((c) => !(extended && c.Field === 'ValidTo'));
    if (modified.length)
      await writeChangeRecord(ctx, trx, holder, CHANGE.modify, modified, { announce: !extended });
    if (extended) {
      await writeChangeRecord(
        ctx,
        trx,
        holder,
        CHANGE.extend,
        changes.filter((c) => c.Field === 'ValidTo'),
      );
      await writeRenewalRecord(ctx, trx, holder, Number(existing.ValidTo), input.ValidTo, null);
    }
    const validityChanged =
      input.ValidTo !== Number(existing.ValidTo) || input.ValidFrom !== Number(existing.ValidFrom);
    if (cardsChanged || validityChanged) await markHoldersChanged(ctx, trx, [holderId], now);
    await audit(
      ctx,
      { action: 'update', entity: 'CardUser', entityId: holderId, before: existing, after: input },
      trx,
    );
  });
}

/**
 * Disables or enables a holder ("disable user" / "enable user"). Disabling withdraws every live
 * authorisation from its controller (pending deletion); enabling issues again what the disable withdrew.
 * Setting the state it already has changes nothing and records nothing.
 */
export async function setHolderStatus(ctx: AreaContext, holderId: number, disabled: boolean): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const existing = await findHolder(ctx, trx, holderId);
    if (Boolean(existing.Disabled) === disabled) return;
    await trx
      .updateTable('CardUser')
      .set({ Disabled: disabled ? 1 : 0, UpdatedAt: now })
      .where('Id', '=', holderId)
      .execute();
    if (disabled) await withdrawHolder(ctx, trx, holderId, now);
    else await restoreHolder(ctx, trx, holderId, now);
    await writeChangeRecord(ctx, trx, existing, disabled ? CHANGE.disable : CHANGE.enable, null);
    await audit(
      ctx,
      {
        action: 'status',
        entity: 'CardUser',
        entityId: holderId,
        before: { Disabled: Boolean(existing.Disabled) },
        after: { Disabled: disabled },
      },
      trx,
    );
  });
}

/**
 * Extends holders' validity to a later end (all or none): per holder a "user extension" change record and
 * a renewal record with the old and new end; their live authorisations wait for an update.
 */
export async function extendHolders(
  ctx: AreaContext,
  holderIds: number[],
  validTo: number,
  remark: string | null,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const holderId of new Set(holderIds)) {
      const existing = await findHolder(ctx, trx, holderId);
      const oldValidTo = Number(existing.ValidTo);
      if (validTo <= oldValidTo)
        throw fieldError('ValidTo', 'accessControl.error.extendNotLater', { name: existing.Name });
      const before = await holderSnapshot(trx, holderId);
      await trx
        .updateTable('CardUser')
        .set({ ValidTo: validTo, UpdatedAt: now })
        .where('Id', '=', holderId)
        .execute();
      const after = await holderSnapshot(trx, holderId);
      await writeChangeRecord(ctx, trx, existing, CHANGE.extend, diffSnapshots(before, after));
      await writeRenewalRecord(ctx, trx, existing, oldValidTo, validTo, remark);
      await markHoldersChanged(ctx, trx, [holderId], now);
      await audit(
        ctx,
        {
          action: 'extend',
          entity: 'CardUser',
          entityId: holderId,
          before: { ValidTo: oldValidTo },
          after: { ValidTo: validTo, Remark: remark },
        },
        trx,
      );
    }
  });
}
