import { HOLDER_FIELDS, type HolderField, type HolderFieldChange } from '@gatehouse/shared';
import type { AreaContext } from '../../../platform/context.ts';
import { areaFormatter, operator, type Trx } from '../common.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { enrichHolders, holderQuery, toHolderItem } from './items.ts';

/** changeType values. */
export const CHANGE = { add: 0, modify: 1, disable: 2, enable: 3, extend: 4 } as const;

/** A holder as a change record shows it: names for references, printed card numbers, local date-times. */
export type HolderSnapshot = Record<HolderField, string | null>;

export type FieldChange = HolderFieldChange;

/** The holder's current state in display form; Nation stays an id (translated when read). */
export async function holderSnapshot(trx: Trx, holderId: number): Promise<HolderSnapshot> {
  const row = await holderQuery(trx)
    .select('CardUser.AreaId')
    .where('CardUser.Id', '=', holderId)
    .executeTakeFirstOrThrow();
  const cards = await trx
    .selectFrom('Card')
    .select('CardNumber')
    .where('CardUserId', '=', holderId)
    .orderBy('CardNumber')
    .execute();
  const format = await areaFormatter(trx, row.AreaId);
  return {
    Name: row.Name,
    Phone: row.Phone,
    CitizenId: row.CitizenId,
    Nation: String(row.Nation),
    Department: row.DepartmentName,
    PeopleGroup: row.PeopleGroupName,
    PeopleType: row.PeopleTypeName,
    Cards: cards.length ? cards.map((c) => c.CardNumber).join(',') : null,
    ValidFrom: format(Number(row.ValidFrom)),
    ValidTo: format(Number(row.ValidTo)),
    Remark: row.Remark,
  };
}

export function diffSnapshots(before: HolderSnapshot | null, after: HolderSnapshot): FieldChange[] {
  return HOLDER_FIELDS.filter((f) => (before?.[f] ?? null) !== after[f] && (before || after[f] !== null)).map(
    (Field) => ({ Field, Before: before?.[Field] ?? null, After: after[Field] }),
  );
}

export async function writeChangeRecord(
  ctx: AreaContext,
  trx: Trx,
  holder: { Id: number; AreaId: number; Name: string },
  changeType: number,
  detail: FieldChange[] | null,
  // One change may be noted as two records (an edit that also extends: modified, then extended); its event is
  // sent once, by the last, since both would carry the same holder as the list now shows it.
  { announce = true }: { announce?: boolean } = {},
): Promise<void> {
  await trx
    .insertInto('ChangeRecord')
    .values({
      AreaId: holder.AreaId,
      CardUserId: holder.Id,
      HolderName: holder.Name,
      ChangeType: changeType,
      Detail: detail && detail.length ? JSON.stringify(detail) : null,
      ...operator(ctx),
      At: ctx.clock.now(),
    })
    .execute();
  if (!announce) return;
  await emitHolder(
    ctx,
    trx,
    holder.Id,
    holder.AreaId,
    changeType === CHANGE.add ? 'holder.created' : 'holder.updated',
  );
}

/**
 * A holder's change as an event of the outbox (platform/outbox), in the change's transaction: every change a
 * change record notes (added, modified, disabled, enabled, extended) is `holder.created` or `holder.updated`,
 * with the holder as the holder list shows it (read in the transaction, so with this change).
 */
async function emitHolder(
  ctx: AreaContext,
  trx: Trx,
  holderId: number,
  areaId: number,
  type: 'holder.created' | 'holder.updated',
): Promise<void> {
  const row = await holderQuery(trx).where('CardUser.Id', '=', holderId).executeTakeFirstOrThrow();
  const [item] = await enrichHolders({ ...ctx, areaId, db: { ...ctx.db, kysely: trx } }, [toHolderItem(row)]);
  const names = await areaNames(trx, [areaId]);
  await emitEvent(trx, {
    type,
    at: ctx.clock.now(),
    data: { ...item!, AreaId: areaId, AreaName: names.get(areaId) ?? '' },
  });
}

export async function writeRenewalRecord(
  ctx: AreaContext,
  trx: Trx,
  holder: { Id: number; AreaId: number; Name: string },
  oldValidTo: number,
  newValidTo: number,
  remark: string | null,
): Promise<void> {
  await trx
    .insertInto('RenewalRecord')
    .values({
      AreaId: holder.AreaId,
      CardUserId: holder.Id,
      HolderName: holder.Name,
      OldValidTo: oldValidTo,
      NewValidTo: newValidTo,
      Remark: remark,
      ...operator(ctx),
      At: ctx.clock.now(),
    })
    .execute();
}
