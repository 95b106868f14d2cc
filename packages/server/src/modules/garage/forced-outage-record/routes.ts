import { enumLabel, forcedOutageResult, priceSession } from '@gatehouse/shared';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { filter } from '../../platform/filters.ts';
import { defineResource, getResource, rowMapper, type ResourceDef } from '../../platform/resource.ts';
import { defineRoute, type AuthedContext } from '../../platform/route.ts';
import { id } from '../../platform/schemas.ts';
import { READ, moneyCell } from './common.ts';
import { chargerGateway } from './gateway.ts';
import { transition } from './payments.ts';
import { tariffOf } from './pricing.ts';
import { socketPlaceFields } from './session-details.ts';

const STOP_FORCED = 3;
/** After the cut the vehicle is still plugged in: occupied, not charging, until the device says otherwise. */
const STATE_AFTER_CUT = 2;

const item = z.object({
  Id: z.number(),
  At: z.string(),
  ...socketPlaceFields,
  ChargeRecordId: z.number().nullable(),
  ChargeOrderId: z.number().nullable(),
  OrderNo: z.string().nullable(),
  CardNumber: z.string().nullable(),
  /** The ended order's price. */
  AmountCents: z.number().nullable(),
  Reason: z.string(),
  Result: z.number(),
  UserName: z.string(),
});
type Item = z.infer<typeof item>;

const def: ResourceDef<Item, z.ZodType, z.ZodType> = {
  name: 'ForcedOutageRecord',
  table: 'ForcedOutageRecord',
  tag: 'Garage',
  area: true,
  read: READ,
  write: [],
  item,
  query: (db) =>
    db
      .selectFrom('ForcedOutageRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ForcedOutageRecord.ChargeEquipmentId')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .innerJoin('ParkArea', 'ParkArea.Id', 'ChargeHost.ParkAreaId')
      .leftJoin('ChargeRecord', 'ChargeRecord.Id', 'ForcedOutageRecord.ChargeRecordId')
      .leftJoin('ChargeOrder', 'ChargeOrder.Id', 'ForcedOutageRecord.ChargeOrderId')
      .select([
        'ForcedOutageRecord.Id',
        'ForcedOutageRecord.At',
        'ForcedOutageRecord.ChargeEquipmentId',
        'ChargeEquipment.PortNumber',
        'ChargeEquipment.ChargeHostId',
        'ChargeHost.Name as HostName',
        'ChargeHost.ParkAreaId',
        'ParkArea.Name as ZoneName',
        'ForcedOutageRecord.ChargeRecordId',
        'ForcedOutageRecord.ChargeOrderId',
        'ChargeOrder.OrderNo',
        'ChargeRecord.CardNumber',
        'ChargeOrder.AmountCents',
        'ForcedOutageRecord.Reason',
        'ForcedOutageRecord.Result',
        'ForcedOutageRecord.UserName',
      ]),
  toItem: rowMapper<Item>({ flags: [], instants: ['At'] }),
  filters: {
    ChargeEquipmentId: filter.id('ForcedOutageRecord.ChargeEquipmentId'),
    ChargeHostId: filter.id('ChargeEquipment.ChargeHostId'),
    ParkAreaId: filter.id('ChargeHost.ParkAreaId'),
    Result: filter.oneOf('ForcedOutageRecord.Result', forcedOutageResult),
    UserName: filter.like('ForcedOutageRecord.UserName'),
    Keyword: filter.keyword(['ForcedOutageRecord.Reason', 'ChargeOrder.OrderNo', 'ChargeRecord.CardNumber']),
  },
  sorts: { At: 'ForcedOutageRecord.At' },
  defaultOrder: 'desc',
  timeRange: { column: 'ForcedOutageRecord.At', requiredForExport: true },
  export: {
    titleKey: 'garage.title.forcedOutageRecords',
    columns: [
      { key: 'At', labelKey: 'garage.field.At', kind: 'instant' },
      { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
      { key: 'HostName', labelKey: 'garage.field.HostName', width: 24 },
      { key: 'PortNumber', labelKey: 'garage.field.PortNumber', kind: 'number' },
      { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
      { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
      { key: 'AmountCents', labelKey: 'garage.field.Amount', label: moneyCell },
      { key: 'Reason', labelKey: 'garage.field.Reason', width: 36 },
      {
        key: 'Result',
        labelKey: 'garage.field.Result',
        width: 24,
        label: (v, lang) => enumLabel(lang, forcedOutageResult, v),
      },
      { key: 'UserName', labelKey: 'garage.field.Operator' },
    ],
  },
};

export interface PowerOffInput {
  ChargeEquipmentId: number;
  /** The session the operator saw running; if it has ended since (a second click), 409 and nothing changes. */
  ChargeRecordId?: number | undefined;
  Reason: string;
}

/**
 * Forced power-off of a socket. In one transaction: ends the running session (stop reason 3) with a
 * conditional UPDATE, prices and settles its order with the shared tariff (an order costing nothing is closed),
 * marks the socket occupied-not-charging, records who, when, socket, order, reason and result, and audits it.
 * The session and order end exactly once: a concurrent or repeated call naming the same session gets 409.
 * Without ChargeRecordId the power-off is recorded even when nothing runs (a stuck relay still needs a cut).
 * The device command follows the commit, through the ChargerGateway seam when one is installed.
 */
export async function forcePowerOff(ctx: AuthedContext, input: PowerOffInput): Promise<Item> {
  const now = ctx.clock.now();
  const gateway = chargerGateway();
  const outcome = await ctx.db.kysely.transaction().execute(async (trx) => {
    const socket = await trx
      .selectFrom('ChargeEquipment')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select([
        'ChargeEquipment.Id',
        'ChargeEquipment.State',
        'ChargeEquipment.PortNumber',
        'ChargeHost.Id as HostId',
        'ChargeHost.SerialNumber',
        'ChargeHost.ChargingSystemType',
      ])
      .where('ChargeEquipment.Id', '=', input.ChargeEquipmentId)
      .where('ChargeEquipment.AreaId', '=', ctx.areaId!)
      .executeTakeFirst();
    if (!socket) throw notFound();

    const sessions = trx.selectFrom('ChargeRecord').selectAll().where('ChargeEquipmentId', '=', socket.Id);
    let session = await (
      input.ChargeRecordId === undefined
        ? sessions.where('EndAt', 'is', null)
        : sessions.where('Id', '=', input.ChargeRecordId)
    ).executeTakeFirst();
    if (input.ChargeRecordId !== undefined) {
      if (!session) throw notFound();
      if (session.EndAt !== null) throw new AppError(409, 'garage.error.sessionEnded');
    }

    let orderId: number | null = null;
    if (session) {
      const ended = await trx
        .updateTable('ChargeRecord')
        .set({ EndAt: now, StopReason: STOP_FORCED })
        .where('Id', '=', session.Id)
        .where('EndAt', 'is', null)
        .executeTakeFirst();
      // Someone else ended it between our read and our write: the named session is a conflict; an unnamed
      // one simply is no longer running, and this cut is recorded without it.
      if (Number(ended.numUpdatedRows) !== 1) {
        if (input.ChargeRecordId !== undefined) throw new AppError(409, 'garage.error.sessionEnded');
        session = undefined;
      }
    }
    if (session) {
      session = { ...session, EndAt: now, StopReason: STOP_FORCED };
      orderId = await settleOrder(ctx, trx, session.Id, session.StartAt, now, session.EnergyWh);
      await trx
        .updateTable('ChargeEquipment')
        .set({ State: STATE_AFTER_CUT, StateChangedAt: now, UpdatedAt: now })
        .where('Id', '=', socket.Id)
        .execute();
    }

    const record = await trx
      .insertInto('ForcedOutageRecord')
      .values({
        AreaId: ctx.areaId!,
        ChargeEquipmentId: socket.Id,
        ChargeRecordId: session?.Id ?? null,
        ChargeOrderId: orderId,
        Reason: input.Reason,
        Result: 0,
        UserId: ctx.user.userId,
        UserName: ctx.user.userName,
        At: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    await audit(
      ctx,
      {
        action: 'forcedPowerOff',
        entity: 'ChargeEquipment',
        entityId: socket.Id,
        before: { State: socket.State },
        after: {
          ForcedOutageRecordId: record.Id,
          ChargeRecordId: session?.Id ?? null,
          ChargeOrderId: orderId,
          Reason: input.Reason,
          ...(session ? { State: STATE_AFTER_CUT } : {}),
        },
      },
      trx,
    );
    return { recordId: record.Id, socket, sessionId: session?.Id ?? null };
  });

  if (gateway) {
    const ok = await gateway
      .powerOff({
        hostId: outcome.socket.HostId,
        serialNumber: outcome.socket.SerialNumber,
        chargingSystemType: outcome.socket.ChargingSystemType,
        portNumber: outcome.socket.PortNumber,
        chargeRecordId: outcome.sessionId,
      })
      .catch(() => false);
    await ctx.db.kysely
      .updateTable('ForcedOutageRecord')
      .set({ Result: ok ? 1 : 2 })
      .where('Id', '=', outcome.recordId)
      .execute();
  }
  return getResource(def, ctx, outcome.recordId);
}

/** Prices the session's order at its end with the terms it copied; settles it once; closes it when free. */
async function settleOrder(
  ctx: AuthedContext,
  trx: Parameters<typeof transition>[1],
  recordId: number,
  startAt: number,
  endAt: number,
  energyWh: number,
): Promise<number | null> {
  const order = await trx
    .selectFrom('ChargeOrder')
    .selectAll()
    .where('ChargeRecordId', '=', recordId)
    .executeTakeFirst();
  if (!order) return null;
  const price = priceSession(tariffOf(order), { StartAt: startAt, EndAt: endAt, EnergyWh: energyWh });
  const settled = await trx
    .updateTable('ChargeOrder')
    .set({ AmountCents: price.AmountCents, SettledAt: endAt, UpdatedAt: endAt })
    .where('Id', '=', order.Id)
    .where('SettledAt', 'is', null)
    .executeTakeFirst();
  if (Number(settled.numUpdatedRows) !== 1) throw new AppError(409, 'garage.error.sessionEnded');
  await audit(
    ctx,
    {
      action: 'settle',
      entity: 'ChargeOrder',
      entityId: order.Id,
      before: { AmountCents: order.AmountCents, SettledAt: order.SettledAt },
      after: { AmountCents: price.AmountCents, SettledAt: endAt, StopReason: STOP_FORCED },
    },
    trx,
  );
  if (price.AmountCents === 0) {
    await transition(
      ctx,
      trx,
      'ChargeOrder',
      { Id: order.Id, PaymentState: order.PaymentState, AmountCents: 0, Settled: true },
      { to: 1, actor: 'system' },
    );
  }
  return order.Id;
}

export const forcedOutageRoutes = [
  defineRoute({
    method: 'POST',
    url: '/api/ChargeEquipment/ForcedPowerOff',
    summary:
      'Forced power-off of a socket with a reason: ends its running session and settles the order once (409 if that session already ended)',
    tag: 'Garage',
    access: READ,
    area: true,
    body: z.strictObject({
      ChargeEquipmentId: id,
      ChargeRecordId: id.optional(),
      Reason: z.string().trim().min(1).max(200),
    }),
    response: item,
    handler: ({ body }, ctx) => forcePowerOff(ctx, body),
  }),
  ...defineResource(def),
];
