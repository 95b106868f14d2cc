import {
  PAYMENT_ACTION_NAMES,
  availableActions,
  paymentState,
  priceUnitKey,
  type OrderActionBody,
  type OrderActionOperation,
  type OrderKind,
  type PaymentAction,
  type Tariff,
} from '@gatehouse/shared';
import type { z } from 'zod';
import type { AreaContext, UserContext } from '../../../platform/context.ts';
import { exportColumns, type ColumnSpecs } from '../../../platform/export-columns.ts';
import type { ExportColumn } from '../../../platform/exports/registry.ts';
import { route, type AnyRoute } from '../../../platform/route.ts';
import type { OrderPaymentColumns, TariffColumns } from '../tables.ts';
import { garageLevel, iso } from './index.ts';
import { applyOrderAction } from './payments.ts';
import { orderAmount } from './pricing.ts';

/**
 * What charging orders and parking orders share (docs/garage.md, "Payment states"): the terms and payment
 * fields of their items, the amount (settled, or the live estimate) with the actions the caller may take, the
 * payment columns of their exports, and the operator actions. Each order feature adds what is its own: the
 * session or the stay.
 */

/** The columns both order tables have, as the order fields read them. */
export type OrderColumns = TariffColumns & OrderPaymentColumns;

/** The order fields of an item from its row; the amount and the actions come per page (`pricedOrder`). */
export function orderFieldsOf(row: OrderColumns) {
  return {
    OrderNo: row.OrderNo,
    ChargeRuleId: row.ChargeRuleId,
    ChargeType: row.ChargeType,
    TemporaryChargeType: row.TemporaryChargeType,
    UnitPriceCents: row.UnitPriceCents,
    PriceUnitKey: priceUnitKey(row as Tariff),
    FreeMinutes: row.FreeMinutes,
    CapCents: row.CapCents,
    DurationMinutes: 0,
    AmountCents: 0,
    Estimated: false,
    PaymentState: row.PaymentState,
    PaidAt: iso(row.PaidAt),
    RefundReason: row.RefundReason,
    CloseReason: row.CloseReason,
    Actions: [] as PaymentAction[],
    UpdatedAt: iso(row.UpdatedAt)!,
  };
}

/**
 * An order's amount against the clock (the settled price, or while its session or stay runs the live
 * estimate of the same tariff function) and the buttons it offers this caller: none while it runs, else the
 * shared table's for their level.
 */
export function pricedOrder(
  ctx: UserContext,
  row: TariffColumns & { AmountCents: number | null; PaymentState: number },
  usage: { StartAt: number; EndAt: number | null; EnergyWh?: number | null },
  settled: boolean,
) {
  return {
    ...orderAmount(row, usage, ctx.clock.now()),
    Actions: settled ? availableActions(row.PaymentState, garageLevel(ctx.user)) : [],
  };
}

/**
 * Order items are made of part of their row; the per-page pricing needs the rest (the copied terms, the raw
 * amount). The row is kept beside the item it made, for as long as the item lives.
 */
export function rowsOfItems<Row, Item extends object>() {
  const rows = new WeakMap<Item, Row>();
  return {
    keep(item: Item, row: Row): Item {
      rows.set(item, row);
      return item;
    },
    rowOf: (item: Item): Row => rows.get(item)!,
  };
}

/** The payment columns that end both order exports. */
export function paymentExportColumns<I extends Record<string, unknown>>(): ExportColumn<I>[] {
  return exportColumns<I>('garage.field', {
    PaymentState: { enum: paymentState, width: 16 },
    PaidAt: 'instant',
    RefundReason: 30,
    CloseReason: 30,
  } as ColumnSpecs<I>);
}

/** An operator action on an order of either kind, answered with the updated order as its list shows it. */
export async function actOnOrder<I, C extends UserContext & AreaContext>(
  ctx: C,
  kind: OrderKind,
  action: PaymentAction,
  body: OrderActionBody,
  read: (ctx: C, id: number) => Promise<I>,
): Promise<I> {
  await applyOrderAction(ctx, kind, body.Id, action, body.Reason || null);
  return read(ctx, body.Id);
}

/** The routes of every operator action of one order kind (the contract's `orderActionOperations`). */
export function orderActionRoutes<T extends z.ZodType>(
  kind: OrderKind,
  ops: Record<PaymentAction, OrderActionOperation<T>>,
  read: (ctx: UserContext & AreaContext, id: number) => Promise<z.output<T>>,
): AnyRoute[] {
  return PAYMENT_ACTION_NAMES.map((action) =>
    route(ops[action], ({ body }, ctx) => actOnOrder(ctx, kind, action, body, read) as never),
  );
}
