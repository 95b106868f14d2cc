import { STOP_REASON, availableActions, type ChargeOrderItem } from '@gatehouse/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext, UserContext } from '../../../platform/context.ts';
import { socketPlaces } from '../charge-record/places.ts';
import { garageLevel, iso, itemById, type ItemView } from '../common/index.ts';
import { orderFieldsOf, rowsOfItems } from '../common/orders.ts';
import { dimensionsOf, orderPricing } from '../common/pricing.ts';
import type { ChargeOrderTable } from '../tables.ts';

type Row = Selectable<ChargeOrderTable>;
type Ctx = UserContext & AreaContext;

const rows = rowsOfItems<Row, ChargeOrderItem>();

/** The order's own columns; what happened at the session comes per page (`withSessions`). */
function chargeOrderItem(row: Row): ChargeOrderItem {
  const item: ChargeOrderItem = {
    Id: row.Id,
    ChargeRecordId: row.ChargeRecordId,
    ChargeEquipmentId: 0,
    PortNumber: 0,
    ChargeHostId: 0,
    HostName: '',
    ParkAreaId: 0,
    ZoneName: '',
    CardNumber: null,
    StartAt: iso(row.CreatedAt)!,
    EndAt: iso(row.SettledAt),
    Open: row.SettledAt === null,
    EnergyWh: 0,
    StopReason: null,
    Forced: false,
    RuleName: null,
    ...orderFieldsOf(row),
    ...dimensionsOf(row),
    Lines: null,
  };
  return rows.keep(item, row);
}

/**
 * Per page: each order's session (where, card, energy, how it stopped), rule name, amount, itemised lines (the
 * settled ones, or the live estimate's while the session runs) and the buttons this caller may press (none
 * while it runs).
 */
function withSessions(ctx: Ctx, items: ChargeOrderItem[]): Promise<ChargeOrderItem[]> {
  const now = ctx.clock.now();
  return withSessionsPriced(ctx.db.kysely, items, (row, session, settled) => ({
    ...orderPricing(row, session, now),
    Actions: settled ? availableActions(row.PaymentState, garageLevel(ctx.user)) : [],
  }));
}

/** The session of an order as its pricing reads it: its times, energy and meter. */
type SessionRow = Selectable<Database['ChargeRecord']>;

/** The amount, lines and buttons of an order, from its row and its session. */
type Pricing = (
  row: Row,
  session: SessionRow,
  settled: boolean,
) => Pick<ChargeOrderItem, 'AmountCents' | 'Estimated' | 'DurationMinutes' | 'Lines' | 'Actions'>;

async function withSessionsPriced(
  k: Kysely<Database>,
  items: ChargeOrderItem[],
  price: Pricing,
): Promise<ChargeOrderItem[]> {
  const [sessions, rules] = await Promise.all([
    k
      .selectFrom('ChargeRecord')
      .selectAll()
      .where(
        'Id',
        'in',
        items.map((i) => i.ChargeRecordId),
      )
      .execute(),
    k
      .selectFrom('ChargeRule')
      .select(['Id', 'Name'])
      .where('Id', 'in', [...new Set(items.map((i) => i.ChargeRuleId ?? 0))])
      .execute(),
  ]);
  const places = await socketPlaces(
    k,
    sessions.map((s) => s.ChargeEquipmentId),
  );
  return items.map((item) => {
    const session = sessions.find((s) => s.Id === item.ChargeRecordId)!;
    return {
      ...item,
      ...places.get(session.ChargeEquipmentId)!,
      ChargeEquipmentId: session.ChargeEquipmentId,
      CardNumber: session.CardNumber,
      EnergyWh: session.EnergyWh,
      StopReason: session.StopReason,
      Forced: session.StopReason === STOP_REASON.forcedPowerOff,
      RuleName: rules.find((r) => r.Id === item.ChargeRuleId)?.Name ?? null,
      ...price(rows.rowOf(item), session, !item.Open),
    };
  });
}

/** Charging orders as their list shows them. */
export const chargeOrderView: ItemView<ChargeOrderItem, Ctx> = {
  table: 'ChargeOrder',
  query: (db: Kysely<Database>) => db.selectFrom('ChargeOrder').selectAll('ChargeOrder'),
  toItem: chargeOrderItem,
  enrich: withSessions,
};

export const chargeOrderById = (ctx: Ctx, id: number) => itemById(chargeOrderView, ctx, id);

/**
 * A settled order as its list shows it, for the `order.settled` event (charge-record/settlement.ts): read in the
 * settlement's transaction, so with its amount and payment state, and without the caller's buttons (an event
 * has no caller).
 */
export async function settledChargeOrder(
  ctx: AreaContext,
  trx: Kysely<Database>,
  orderId: number,
): Promise<Omit<ChargeOrderItem, 'Actions'>> {
  const row = await chargeOrderView
    .query(trx)
    .where('ChargeOrder.Id', '=', orderId)
    .executeTakeFirstOrThrow();
  const [item] = await withSessionsPriced(trx, [chargeOrderItem(row as Row)], (r, session) => ({
    ...orderPricing(r, session, ctx.clock.now()),
    Actions: [],
  }));
  const { Actions: _actions, ...rest } = item!;
  return rest;
}
