import type { EnumValueOf } from '../enums/define.ts';
import type { paymentState } from '../enums/garage.ts';

export type PaymentStateValue = EnumValueOf<typeof paymentState>;

/**
 * Who moves an order's payment state: an operator on a screen, the payment channel (its notifications; the
 * channel itself arrives with a later issue) or the system (settling an order that costs nothing).
 */
export type PaymentActor = 'operator' | 'channel' | 'system';

/** The operator actions on an order; each is a button and an endpoint `POST /api/<Order>/<Action>`. */
export type PaymentAction = 'Close' | 'Refund' | 'CancelRefund' | 'RetryRefund';

export interface PaymentTransition {
  from: PaymentStateValue;
  to: PaymentStateValue;
  actor: PaymentActor;
  /** The operator action that makes it (operator transitions only). */
  action?: PaymentAction;
}

/**
 * Every allowed payment-state change; anything else is refused (409) and changes nothing.
 * 0 unpaid, 1 closed, 2 paid, 3 moved to refund, 4 payment failed, 5 user paying, 6 cancelled,
 * 7 refund succeeded, 8 refund cancelled, 9 refunding, 10 refund exception. docs/garage.md draws it.
 */
export const PAYMENT_TRANSITIONS: readonly PaymentTransition[] = [
  { from: 0, to: 5, actor: 'channel' }, // the user starts paying
  { from: 0, to: 6, actor: 'channel' }, // the user or channel revokes the order
  { from: 0, to: 1, actor: 'operator', action: 'Close' }, // the operator waives it
  { from: 0, to: 1, actor: 'system' }, // settled at 0: nothing to collect
  { from: 5, to: 2, actor: 'channel' }, // paid
  { from: 5, to: 4, actor: 'channel' }, // payment failed
  { from: 5, to: 0, actor: 'channel' }, // the user left the payment page: still owed
  { from: 4, to: 5, actor: 'channel' }, // the user tries again
  { from: 4, to: 1, actor: 'operator', action: 'Close' }, // the operator gives up collecting
  { from: 2, to: 3, actor: 'operator', action: 'Refund' }, // a refund is requested, with a reason
  { from: 8, to: 3, actor: 'operator', action: 'Refund' }, // requested again after a cancelled one
  { from: 3, to: 8, actor: 'operator', action: 'CancelRefund' }, // withdrawn before the channel took it
  { from: 3, to: 9, actor: 'channel' }, // the channel accepted the refund
  { from: 9, to: 7, actor: 'channel' }, // refunded
  { from: 9, to: 10, actor: 'channel' }, // the channel could not pay it back (closed account …)
  { from: 10, to: 9, actor: 'operator', action: 'RetryRefund' }, // submitted again
  { from: 10, to: 8, actor: 'operator', action: 'CancelRefund' }, // abandoned: the money stays collected
];

/** Permission level and reason rule of each operator action (docs/garage.md, permission table). */
export const PAYMENT_ACTIONS: Readonly<
  Record<PaymentAction, { level: 'user' | 'admin'; reason: 'required' | 'optional' | 'none' }>
> = {
  Close: { level: 'user', reason: 'optional' },
  Refund: { level: 'admin', reason: 'required' },
  CancelRefund: { level: 'admin', reason: 'optional' },
  RetryRefund: { level: 'admin', reason: 'none' },
};

export const PAYMENT_ACTION_NAMES = Object.keys(PAYMENT_ACTIONS) as PaymentAction[];

/** Longest reason an operator may give. */
export const PAYMENT_REASON_MAX = 200;

export function canTransition(from: number, to: number, actor: PaymentActor): boolean {
  return PAYMENT_TRANSITIONS.some((t) => t.from === from && t.to === to && t.actor === actor);
}

/** Where an operator action takes an order in this state, or null when the action does not apply. */
export function actionTarget(action: PaymentAction, from: number): PaymentStateValue | null {
  return PAYMENT_TRANSITIONS.find((t) => t.action === action && t.from === from)?.to ?? null;
}

/**
 * The operator actions an order in this state offers, limited to what the operator's level may do: the
 * screens show exactly these buttons.
 */
export function availableActions(state: number, level: 'user' | 'admin'): PaymentAction[] {
  return PAYMENT_ACTION_NAMES.filter(
    (action) =>
      actionTarget(action, state) !== null && (level === 'admin' || PAYMENT_ACTIONS[action].level === 'user'),
  );
}

/**
 * States in which the money is with the operator: paid, and every refund state short of refund succeeded.
 * Revenue figures sum orders in these states.
 */
export const COLLECTED_STATES: readonly PaymentStateValue[] = [2, 3, 8, 9, 10];

export function isCollected(state: number): boolean {
  return (COLLECTED_STATES as readonly number[]).includes(state);
}

/** States no transition leaves. */
export const FINAL_STATES: readonly PaymentStateValue[] = [1, 6, 7];
