import { z } from 'zod';
import type { PortStateGroup } from '../../garage/ports.ts';
import {
  PAYMENT_ACTIONS,
  PAYMENT_ACTION_NAMES,
  PAYMENT_REASON_MAX,
  type PaymentAction,
} from '../../payment/index.ts';
import { operation, type OperationSpec } from '../operation.ts';
import { BICYCLE_ADMIN, BICYCLE_ANY } from '../permissions.ts';
import { filterSchema, id } from '../wire.ts';

/** The OpenAPI tag of every garage operation. */
export const GARAGE_TAG = 'Garage';

/** Where a session or order happened, as every session list shows it. */
export const socketPlaceFields = {
  ChargeEquipmentId: z.number(),
  PortNumber: z.number(),
  ChargeHostId: z.number(),
  HostName: z.string(),
  ParkAreaId: z.number(),
  ZoneName: z.string(),
};

/** A charging session as the session lists show it (records, and the orders that priced them). */
export const sessionFields = {
  ...socketPlaceFields,
  CardNumber: z.string().nullable(),
  StartAt: z.string(),
  EndAt: z.string().nullable(),
  /** Still charging. */
  Open: z.boolean(),
  EnergyWh: z.number(),
  StopReason: z.number().nullable(),
};

/** The filters on where a session happened (records, orders, power-off records). */
export const placeFilters = {
  ChargeEquipmentId: filterSchema.id(),
  ChargeHostId: filterSchema.id(),
  ParkAreaId: filterSchema.id(),
};

/** A socket state's group (portStateGroup): the legend and filter of the socket screens. */
export const PORT_STATE_GROUPS = [
  'idle',
  'occupied',
  'fault',
  'disabled',
  'offline',
] as const satisfies readonly PortStateGroup[];

/** Sockets per state group (the grid's legend; hosts, zones and the dashboard count the same way). */
export const portGroupCounts = z.object({
  idle: z.number(),
  occupied: z.number(),
  fault: z.number(),
  disabled: z.number(),
  /** Sockets of a charge point that is offline or never connected (state 255, unknown). */
  offline: z.number().optional(),
});

/**
 * What Gatehouse knows of a host's live device link (docs/chargers.md, "Liveness"): only charging-API hosts
 * (chargingSystemType 2, OCPP charge points) have one, and only they take commands (remote start, reset,
 * OCPP password).
 */
export const hostLinkFields = {
  LiveLink: z.boolean(),
  /** A charging-API host that is not connected: its last sign of life when it went away (null: never connected). */
  OfflineSince: z.string().nullable(),
  /** What the charge point said about itself at its last boot. */
  Device: z
    .object({
      Vendor: z.string(),
      Model: z.string(),
      Firmware: z.string().nullable(),
      BootedAt: z.string().nullable(),
    })
    .nullable(),
};

/** Terms and payment fields both order lists carry. */
export const orderFields = {
  OrderNo: z.string(),
  ChargeRuleId: z.number().nullable(),
  RuleName: z.string().nullable(),
  ChargeType: z.number(),
  TemporaryChargeType: z.number(),
  UnitPriceCents: z.number(),
  PriceUnitKey: z.string().nullable(),
  FreeMinutes: z.number(),
  CapCents: z.number().nullable(),
  DurationMinutes: z.number(),
  /** The settled price, or the live estimate while the session or stay runs. */
  AmountCents: z.number(),
  Estimated: z.boolean(),
  PaymentState: z.number(),
  PaidAt: z.string().nullable(),
  RefundReason: z.string().nullable(),
  CloseReason: z.string().nullable(),
  /** The operator actions this caller may take on this order now (buttons to show). */
  Actions: z.array(z.enum(PAYMENT_ACTION_NAMES as [PaymentAction, ...PaymentAction[]])),
  UpdatedAt: z.string(),
};

/** The two order kinds: their resources share the payment actions and the order fields. */
export type OrderKind = 'ChargeOrder' | 'ParkOrder';

/** The body of an operator action: the order, and a reason where the action takes one (shared PAYMENT_ACTIONS). */
export interface OrderActionBody {
  Id: number;
  Reason?: string | undefined;
}

function actionBody(action: PaymentAction): z.ZodType<OrderActionBody> {
  const rule = PAYMENT_ACTIONS[action];
  const reason = z.string().trim().max(PAYMENT_REASON_MAX);
  if (rule.reason === 'none') return z.strictObject({ Id: id });
  return z.strictObject({ Id: id, Reason: rule.reason === 'required' ? reason.min(1) : reason.optional() });
}

/** `POST /api/<Order>/<Action>` of one order kind. */
export type OrderActionOperation<I extends z.ZodType> = OperationSpec & {
  method: 'POST';
  area: true;
  access: readonly string[];
  body: z.ZodType<OrderActionBody>;
  reply: I;
};

/**
 * `POST /api/<Order>/<Action>` `{ Id, Reason }` for every operator action of the shared table, for one order
 * kind: guarded by the action's level (Refund and the refund follow-ups need the Admin code); the reply is
 * the updated order.
 */
export function orderActionOperations<I extends z.ZodType>(
  kind: OrderKind,
  item: I,
): Record<PaymentAction, OrderActionOperation<I>> {
  const ops = PAYMENT_ACTION_NAMES.map((action) => [
    action,
    operation({
      method: 'POST',
      path: `/api/${kind}/${action}`,
      summary: `${action} an order (payment-state transition; 409 when the order's state does not allow it)`,
      tag: GARAGE_TAG,
      access: PAYMENT_ACTIONS[action].level === 'admin' ? BICYCLE_ADMIN : BICYCLE_ANY,
      area: true,
      body: actionBody(action),
      reply: item,
    }),
  ]);
  return Object.fromEntries(ops) as Record<PaymentAction, OrderActionOperation<I>>;
}
