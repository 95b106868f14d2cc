import { SUPER_ADMIN } from '@gatehouse/shared';
import type { ExpressionBuilder } from 'kysely';
import { z } from 'zod';
import type { UserContext } from '../../platform/context.ts';
import { defineResource, type ResourceDef } from '../../platform/resource.ts';
import { defineRoute, type AnyRoute } from '../../platform/route.ts';
import { id } from '../../platform/schemas.ts';
import { TAG, idList, ownAreaIds } from './common.ts';

/**
 * The pools of devices and cards (SuperAdmin): one route set for both. Each pool lists the rows still in the
 * pool or in the caller's areas, registers new rows, and assigns rows to one of the caller's areas or returns
 * them. Their register replies differ and stay as they are: the card pool answers `{ Count, Ids }` (a range
 * can register thousands), the device pool the registered devices.
 */
export interface PoolSpec<Body extends z.ZodType> {
  /** The list, detail, delete and export declaration (name = the URL segment). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- either pool's item
  resource: ResourceDef<any, z.ZodType, z.ZodType, UserContext, false>;
  register: {
    summary: string;
    body: Body;
    response: z.ZodType;
    run(ctx: UserContext, body: z.output<Body>): Promise<unknown>;
  };
  assign: {
    summary: string;
    max: number;
    run(ctx: UserContext, ids: number[], areaId: number): Promise<void>;
  };
  unassign: { summary: string; run(ctx: UserContext, ids: number[]): Promise<void> };
}

export function poolRoutes<Body extends z.ZodType>(spec: PoolSpec<Body>): AnyRoute[] {
  const base = `/api/${spec.resource.name}`;
  return [
    ...defineResource(spec.resource),
    defineRoute({
      method: 'POST',
      url: base,
      summary: spec.register.summary,
      tag: TAG,
      access: SUPER_ADMIN,
      body: spec.register.body,
      response: spec.register.response,
      handler: ({ body }, ctx) => spec.register.run(ctx, body as z.output<Body>),
    }),
    defineRoute({
      method: 'POST',
      url: `${base}/Assign`,
      summary: spec.assign.summary,
      tag: TAG,
      access: SUPER_ADMIN,
      body: z.strictObject({ Ids: idList(spec.assign.max), AreaId: id }),
      async handler({ body }, ctx) {
        await spec.assign.run(ctx, body.Ids, body.AreaId);
        return null;
      },
    }),
    defineRoute({
      method: 'POST',
      url: `${base}/Unassign`,
      summary: spec.unassign.summary,
      tag: TAG,
      access: SUPER_ADMIN,
      body: z.strictObject({ Ids: idList(spec.assign.max) }),
      async handler({ body }, ctx) {
        await spec.unassign.run(ctx, body.Ids);
        return null;
      },
    }),
  ];
}

/** What a pool screen shows: rows still in the pool, and rows of the caller's own areas. */
export function inPoolOrOwnAreas(ctx: UserContext, column: string) {
  const areas = ownAreaIds(ctx);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- either pool's table
  return (eb: ExpressionBuilder<any, any>) =>
    areas.length ? eb.or([eb(column, 'is', null), eb(column, 'in', areas)]) : eb(column, 'is', null);
}
