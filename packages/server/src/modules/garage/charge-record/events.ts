import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { areaNames, emitEvent } from '../../../platform/outbox/outbox.ts';
import { settledChargeOrder } from '../charge-order/service.ts';
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
  const area = { AreaId: ctx.areaId, AreaName: names.get(ctx.areaId) ?? '' };
  if (type === 'charging.session.started') {
    await emitEvent(trx, { type, at, data: { ...item!, ...area } });
    return;
  }
  const holder = await sessionHolder(trx, ctx.areaId, row.CardNumber);
  await emitEvent(trx, { type, at, data: { ...item!, ...area, Holder: holder } });
}

/**
 * Who charged with this card, as the session ends (the user told, docs/integrations.md): a vehicle's card names
 * the vehicle and its owner, a card holder's card the holder. Read now, as the card is held now.
 */
async function sessionHolder(trx: Kysely<Database>, areaId: number, cardNumber: string | null) {
  if (cardNumber === null) return null;
  const vehicle = await trx
    .selectFrom('Vehicle')
    .select(['Id', 'Plate', 'OwnerName', 'Phone', 'CardHolderId', 'CardHolderName'])
    .where('AreaId', '=', areaId)
    .where('CardNumber', '=', cardNumber)
    .orderBy('Disabled')
    .orderBy('Id')
    .executeTakeFirst();
  if (vehicle)
    return {
      CardUserId: vehicle.CardHolderId,
      Name: vehicle.OwnerName ?? vehicle.CardHolderName,
      Phone: vehicle.Phone,
      VehicleId: vehicle.Id,
      Plate: vehicle.Plate,
    };
  const holder = await trx
    .selectFrom('Card')
    .innerJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
    .select(['CardUser.Id', 'CardUser.Name', 'CardUser.Phone'])
    .where('Card.AreaId', '=', areaId)
    .where('Card.CardNumber', '=', cardNumber)
    .executeTakeFirst();
  if (!holder) return null;
  return { CardUserId: holder.Id, Name: holder.Name, Phone: holder.Phone, VehicleId: null, Plate: null };
}

/**
 * A charging order whose amount became final (its session ended and settlement priced it, or a provisional end
 * was corrected and it was priced again) as an `order.settled` event, in the settlement's transaction: the order
 * as the charging-order list shows it, with its amount and payment state (a ¥0 order already closed).
 */
export async function emitOrderSettled(
  ctx: AreaContext,
  trx: Kysely<Database>,
  orderId: number,
  at: number,
): Promise<void> {
  const item = await settledChargeOrder(ctx, trx, orderId);
  const names = await areaNames(trx, [ctx.areaId]);
  await emitEvent(trx, {
    type: 'order.settled',
    at,
    data: { ...item, Kind: 'ChargeOrder', AreaId: ctx.areaId, AreaName: names.get(ctx.areaId) ?? '' },
  });
}
