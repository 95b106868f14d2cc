import { z } from 'zod';
import { operation } from '../operation.ts';
import { SUPER_ADMIN } from '../permissions.ts';
import { bodyInstant, endAfterStart, id, idList } from '../wire.ts';

/** The OpenAPI tag of the access-control module's operations (its choice lists are under `Options`). */
export const ACCESS_CONTROL_TAG = 'AccessControl';

/** An optional validity of a body: each end an instant, null (or absent) to follow the holder's. */
export const validityFields = {
  ValidFrom: bodyInstant.nullable().optional(),
  ValidTo: bodyInstant.nullable().optional(),
};

/** The end of a validity is not before its start. */
export const validityOrder = endAfterStart('ValidFrom', 'ValidTo');

/**
 * Assigning pool rows (devices, cards) to one of the caller's areas and taking them back: the same two
 * SuperAdmin operations on both pools (docs/access-control.md, "Pools").
 */
export function poolMoves<const N extends string>(
  name: N,
  max: number,
  summaries: { assign: string; unassign: string },
) {
  const common = { tag: ACCESS_CONTROL_TAG, access: SUPER_ADMIN } as const;
  return {
    assign: operation({
      ...common,
      method: 'POST',
      path: `/api/${name}/Assign`,
      summary: summaries.assign,
      body: z.strictObject({ Ids: idList(max), AreaId: id }),
    }),
    unassign: operation({
      ...common,
      method: 'POST',
      path: `/api/${name}/Unassign`,
      summary: summaries.unassign,
      body: z.strictObject({ Ids: idList(max) }),
    }),
  };
}
