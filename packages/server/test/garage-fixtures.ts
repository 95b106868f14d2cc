import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { systemActor, type AreaContext } from '../src/platform/context.ts';
import { login } from './support/client.ts';
import { DEMO_PASSWORD, type Harness } from './support/harness.ts';

/** Demo logins of the garage: Bicycle/Admin (both areas) and Bicycle/User (area 1 only). */
export async function garageTokens(h: Harness) {
  return {
    admin: await login(h.app, 'bikeadmin', DEMO_PASSWORD),
    user: await login(h.app, 'bikeuser', DEMO_PASSWORD),
  };
}

/**
 * A service context as the payment channel's integration will build it: no HTTP request and no user, the
 * channel itself as a system actor, the order's area, the harness clock.
 */
export function channelContext(h: Harness, areaId: number): AreaContext {
  return { db: h.db, clock: h.clock, lang: 'zh', areaId, actor: systemActor('payment-channel') };
}

let serial = 0;

/** A settled charging session and its order in a given payment state (fixtures for transition tests). */
export async function insertChargeOrder(
  h: Harness,
  options: { areaId: number; state: number; amount?: number; settled?: boolean },
): Promise<{ orderId: number; recordId: number }> {
  const k: Kysely<Database> = h.db.kysely;
  const socket = await k
    .selectFrom('ChargeEquipment')
    .select('Id')
    .where('AreaId', '=', options.areaId)
    .orderBy('Id')
    .executeTakeFirstOrThrow();
  const rule = await k
    .selectFrom('ChargeRule')
    .selectAll()
    .where('AreaId', '=', options.areaId)
    .where('ChargeType', '=', 3)
    .where('Disabled', '=', 0)
    .orderBy('Id')
    .executeTakeFirstOrThrow();
  const now = h.clock.now();
  serial += 1;
  const settled = options.settled ?? true;
  const startAt = now - 10 * 86_400_000 - serial * 60_000;
  const record = await k
    .insertInto('ChargeRecord')
    .values({
      AreaId: options.areaId,
      ChargeEquipmentId: socket.Id,
      CardNumber: '0012345678',
      StartAt: startAt,
      EndAt: settled ? startAt + 3_600_000 : null,
      EnergyWh: 500,
      StopReason: settled ? 1 : null,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  const order = await k
    .insertInto('ChargeOrder')
    .values({
      AreaId: options.areaId,
      OrderNo: `TEST${String(serial).padStart(8, '0')}`,
      ChargeRecordId: record.Id,
      ChargeEquipmentId: socket.Id,
      ChargeRuleId: rule.Id,
      ChargeType: rule.ChargeType,
      TemporaryChargeType: rule.TemporaryChargeType,
      UnitPriceCents: rule.UnitPriceCents,
      TimeUnit: rule.TimeUnit,
      FreeMinutes: rule.FreeMinutes,
      CapCents: rule.CapCents,
      AmountCents: settled ? (options.amount ?? 250) : null,
      PaymentState: options.state,
      PaidAt: null,
      RefundReason: null,
      CloseReason: null,
      CreatedAt: startAt,
      SettledAt: settled ? startAt + 3_600_000 : null,
      UpdatedAt: startAt,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  return { orderId: order.Id, recordId: record.Id };
}

/** A temporary parking order in a given payment state. */
export async function insertParkOrder(
  h: Harness,
  options: { areaId: number; state: number; amount?: number; inside?: boolean },
): Promise<number> {
  const k = h.db.kysely;
  const zone = await k
    .selectFrom('ParkArea')
    .select('Id')
    .where('AreaId', '=', options.areaId)
    .orderBy('Id')
    .executeTakeFirstOrThrow();
  const now = h.clock.now();
  serial += 1;
  const entryAt = now - 5 * 86_400_000 - serial * 60_000;
  const row = await k
    .insertInto('ParkOrder')
    .values({
      AreaId: options.areaId,
      OrderNo: `TESTP${String(serial).padStart(8, '0')}`,
      ParkAreaId: zone.Id,
      Plate: '浙A12345',
      CardNumber: null,
      VehicleId: null,
      EntryAt: entryAt,
      ExitAt: options.inside ? null : entryAt + 7_200_000,
      ChargeRuleId: null,
      ChargeType: 0,
      TemporaryChargeType: 1,
      UnitPriceCents: 100,
      TimeUnit: null,
      FreeMinutes: 15,
      CapCents: null,
      AmountCents: options.inside ? null : (options.amount ?? 200),
      PaymentState: options.state,
      PaidAt: null,
      RefundReason: null,
      CloseReason: null,
      UpdatedAt: entryAt,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  return row.Id;
}

export async function paymentStateOf(h: Harness, table: 'ChargeOrder' | 'ParkOrder', id: number) {
  return h.db.kysely
    .selectFrom(table)
    .select(['PaymentState', 'RefundReason', 'CloseReason', 'PaidAt', 'UpdatedAt'])
    .where('Id', '=', id)
    .executeTakeFirstOrThrow();
}

export async function auditRows(h: Harness, entity: string, id: number) {
  return h.db.kysely
    .selectFrom('AuditLog')
    .select(['Action', 'Before', 'After', 'UserName', 'AreaId'])
    .where('Entity', '=', entity)
    .where('EntityId', '=', String(id))
    .orderBy('Id')
    .execute();
}
