import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { chargeRecordItem, chargeRecordQuery, withPlacesAndOrders } from './service.ts';

/**
 * A charging session started or ended as an event of the outbox (platform/outbox), in the transaction that
 * stores it: the session as the charging-record list shows it (socket, host, zone, card, times, energy, stop
 * reason, order number and amount), read in that transaction so with this change.
 */
export async function emitSession(
  ctx: AreaContext,
  trx: Kysely<Database>,
  recordId: number,
  type: 'charging.session.started' | 'charging.session.ended',
  at: number,
): Promise<void> {
  const row = await chargeRecordQuery(trx).where('ChargeRecord.Id', '=', recordId).executeTakeFirstOrThrow();
  const [item] = await withPlacesAndOrders({ ...ctx, db: { ...ctx.db, kysely: trx } }, [
    chargeRecordItem(row),
  ]);
  const names = await areaNames(trx, [ctx.areaId]);
  await emitEvent(trx, {
    type,
    at,
    data: { ...item!, AreaId: ctx.areaId, AreaName: names.get(ctx.areaId) ?? '' },
  });
}
