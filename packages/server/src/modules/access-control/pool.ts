import type { ExpressionBuilder } from 'kysely';
import type { UserContext } from '../../platform/context.ts';
import { ownAreaIds } from './common.ts';

/**
 * The pools of devices and cards (SuperAdmin, docs/access-control.md "Pools"): each lists the rows still in
 * the pool or in the caller's areas, registers new rows, and assigns rows to one of the caller's areas or
 * returns them (the operations: DeviceRegistrationApi, CardRegistrationApi).
 */

/** What a pool screen shows: rows still in the pool, and rows of the caller's own areas. */
export function inPoolOrOwnAreas(ctx: UserContext, column: string) {
  const areas = ownAreaIds(ctx);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- either pool's table
  return (eb: ExpressionBuilder<any, any>) =>
    areas.length ? eb.or([eb(column, 'is', null), eb(column, 'in', areas)]) : eb(column, 'is', null);
}
