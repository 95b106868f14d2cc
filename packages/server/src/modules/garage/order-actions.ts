import {
  PAYMENT_ACTIONS,
  PAYMENT_ACTION_NAMES,
  PAYMENT_REASON_MAX,
  availableActions,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
} from '@gatehouse/shared';
import { z } from 'zod';
import { getResource, type ResourceDef } from '../../platform/resource.ts';
import { defineRoute, type AnyRoute } from '../../platform/route.ts';
import { id } from '../../platform/schemas.ts';
import { garageLevel } from './common.ts';
import { applyOrderAction, type OrderKind } from './payments.ts';
import type { UserContext } from '../../platform/context.ts';

/** The buttons an order offers this caller: none while it runs, else the shared table's for their level. */
export function actionsFor(ctx: UserContext, state: number, settled: boolean) {
  return settled ? availableActions(state, garageLevel(ctx.user)) : [];
}

/**
 * `POST /api/<Order>/<Action>` `{ Id, Reason }` for every operator action of the shared table, guarded by the
 * action's level (Refund and the refund follow-ups need the Admin code); answers the updated order.
 */
export function orderActionRoutes(
  kind: OrderKind,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the order resource of either kind
  def: ResourceDef<any, any, any>,
  item: z.ZodType,
): AnyRoute[] {
  return PAYMENT_ACTION_NAMES.map((action) => {
    const rule = PAYMENT_ACTIONS[action];
    const reason = z.string().trim().max(PAYMENT_REASON_MAX);
    return defineRoute({
      method: 'POST',
      url: `/api/${kind}/${action}`,
      summary: `${action} an order (payment-state transition; 409 when the order's state does not allow it)`,
      tag: 'Garage',
      access: rule.level === 'admin' ? BICYCLE_ADMIN : BICYCLE_ANY,
      area: true as const,
      body: z.strictObject({
        Id: id,
        ...(rule.reason === 'none'
          ? {}
          : { Reason: rule.reason === 'required' ? reason.min(1) : reason.optional() }),
      }),
      response: item,
      async handler({ body }, ctx) {
        const { Id, Reason } = body as { Id: number; Reason?: string };
        await applyOrderAction(ctx, kind, Id, action, Reason || null);
        return getResource(def, ctx, Id);
      },
    });
  });
}
