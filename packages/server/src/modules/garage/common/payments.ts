import {
  PAYMENT_ACTIONS,
  actionTarget,
  canTransition,
  enumLabel,
  paymentState,
  translate,
  type PaymentAction,
  type PaymentActor,
  type OrderKind,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import type { AreaContext } from '../../../platform/context.ts';

export type { OrderKind };

/**
 * Payment states in which an order has come to rest (shared PAYMENT_TRANSITIONS): closed 1, paid 2, cancelled
 * 6, refund succeeded 7, refund cancelled 8. Never removed: unpaid 0, payment failed 4 and user paying 5 (money
 * still owed), moved to refund 3, refunding 9 and refund exception 10 (a refund under way or stuck). The
 * garage's retention removes only orders at rest.
 */
export const SETTLED_PAYMENT_STATES = [1, 2, 6, 7, 8];

interface OrderState {
  Id: number;
  PaymentState: number;
  AmountCents: number | null;
  /** The session or stay has ended and the order is priced. */
  Settled: boolean;
}

/** The column that says an order's session or stay has ended: a charging order is settled, a stay exited. */
const ENDED_COLUMN: Record<OrderKind, string> = { ChargeOrder: 'SettledAt', ParkOrder: 'ExitAt' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- either order table, by kind
type AnyKysely = Kysely<any>;

async function readOrder(
  trx: Kysely<Database>,
  kind: OrderKind,
  orderId: number,
  areaId: number,
): Promise<OrderState> {
  const row = await (trx as AnyKysely)
    .selectFrom(kind)
    .select(['Id', 'PaymentState', 'AmountCents', `${ENDED_COLUMN[kind]} as EndedAt`])
    .where('Id', '=', orderId)
    .where('AreaId', '=', areaId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return {
    Id: row.Id as number,
    PaymentState: row.PaymentState as number,
    AmountCents: row.AmountCents as number | null,
    Settled: row.EndedAt !== null,
  };
}

export interface TransitionInput {
  to: number;
  actor: PaymentActor;
  action?: PaymentAction;
  reason?: string | null;
}

/**
 * Moves an order's payment state along an allowed transition (shared PAYMENT_TRANSITIONS), in the caller's
 * transaction, with an audit entry. The UPDATE names the state it read, so of two concurrent changes only
 * one can succeed; the other gets 409 and changes nothing.
 */
export async function transition(
  ctx: AreaContext,
  trx: Kysely<Database>,
  kind: OrderKind,
  order: OrderState,
  input: TransitionInput,
): Promise<void> {
  const from = order.PaymentState;
  if (!canTransition(from, input.to, input.actor)) {
    throw new AppError(409, 'garage.error.illegalTransition', {
      from: enumLabel(ctx.lang, paymentState, from),
      to: enumLabel(ctx.lang, paymentState, input.to),
    });
  }
  const now = ctx.clock.now();
  const values: Record<string, unknown> = { PaymentState: input.to, UpdatedAt: now };
  if (input.to === 2) values.PaidAt = now;
  if (input.action === 'Refund') values.RefundReason = input.reason ?? null;
  if (input.action === 'Close') values.CloseReason = input.reason ?? null;
  const result = await (trx as AnyKysely)
    .updateTable(kind)
    .set(values)
    .where('Id', '=', order.Id)
    .where('PaymentState', '=', from)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new AppError(409, 'garage.error.stateChanged');
  await audit(
    ctx,
    {
      action: input.action ? `payment.${input.action}` : `payment.${input.actor}`,
      entity: kind,
      entityId: order.Id,
      before: { PaymentState: from },
      after: { PaymentState: input.to, Reason: input.reason ?? null },
    },
    trx,
  );
}

/**
 * An operator action on an order (Close, Refund, CancelRefund, RetryRefund): where it leads from the order's
 * current state, or 409 when it does not apply; orders still running cannot be acted on, nor refunds of nothing.
 */
export async function applyOrderAction(
  ctx: AreaContext,
  kind: OrderKind,
  orderId: number,
  action: PaymentAction,
  reason: string | null,
): Promise<void> {
  const rule = PAYMENT_ACTIONS[action];
  if (rule.reason === 'required' && !reason) throw fieldError('Reason', 'validation.required');
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const order = await readOrder(trx, kind, orderId, ctx.areaId);
    if (!order.Settled) throw new AppError(409, 'garage.error.orderOpen');
    const to = actionTarget(action, order.PaymentState);
    if (to === null) {
      throw new AppError(409, 'garage.error.actionNotAllowed', {
        action: translate(ctx.lang, `garage.action.${action}`),
        state: enumLabel(ctx.lang, paymentState, order.PaymentState),
      });
    }
    if (action === 'Refund' && !order.AmountCents) throw new AppError(409, 'garage.error.nothingToRefund');
    await transition(ctx, trx, kind, order, {
      to,
      actor: 'operator',
      action,
      reason: rule.reason === 'none' ? null : reason,
    });
  });
}

/**
 * A state change reported by the payment channel (paying, paid, failed, refund accepted, refunded, refund
 * exception, revoked). No channel is connected yet; its integration calls this with the channel as the
 * context's actor (a system actor), and gets the same rules, atomicity and audit as operators.
 */
export async function applyChannelEvent(
  ctx: AreaContext,
  kind: OrderKind,
  orderId: number,
  to: number,
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const order = await readOrder(trx, kind, orderId, ctx.areaId);
    if (!order.Settled) throw new AppError(409, 'garage.error.orderOpen');
    await transition(ctx, trx, kind, order, { to, actor: 'channel' });
  });
}
