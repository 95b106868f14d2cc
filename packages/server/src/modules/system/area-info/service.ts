import { assertAreaAccess } from '../../../platform/area-guard.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import { replaceLinksAudited } from '../../../platform/links.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import type { UserContext } from '../../../platform/context.ts';
import type { AuthedContext } from '../../../platform/route.ts';
import { grantArea } from '../app-user/service.ts';
import {
  HUB_PATH,
  type AreaInfoApi,
  type AreaInfoDetail as AreaDetail,
  type AreaInfoItem as AreaListItem,
  type AreaUser,
  type Page,
} from '@gatehouse/shared';
import type { z } from 'zod';

/**
 * Area management may touch disabled areas (to enable them again), so it checks links directly;
 * everyday area-scoped calls go through the shared guard, which admits enabled areas only.
 */
async function assertManages(ctx: UserContext, areaId: number): Promise<void> {
  const area = await ctx.db.kysely
    .selectFrom('AreaInfo')
    .select('Id')
    .where('Id', '=', areaId)
    .executeTakeFirst();
  if (ctx.user.isAdmin) {
    if (!area) throw notFound();
    return;
  }
  const link = await ctx.db.kysely
    .selectFrom('UserArea')
    .select('AreaId')
    .where('UserId', '=', ctx.user.userId)
    .where('AreaId', '=', areaId)
    .executeTakeFirst();
  if (!link) throw new AppError(403, 'error.areaForbidden');
}

export async function areaDetail(ctx: UserContext, id: number): Promise<AreaDetail> {
  assertAreaAccess(ctx.user, id);
  const area = await ctx.db.kysely
    .selectFrom('AreaInfo')
    .select(['Id', 'Name', 'Custom'])
    .where('Id', '=', id)
    .executeTakeFirst();
  if (!area) throw notFound();
  return area;
}

type AreaListQuery = z.output<typeof AreaInfoApi.list.query>;

/** Areas the caller manages: all for admins, otherwise those linked to them (enabled or not). */
export async function listAreas(ctx: UserContext, q: AreaListQuery): Promise<Page<AreaListItem>> {
  const k = ctx.db.kysely;
  let base = k.selectFrom('AreaInfo');
  if (!ctx.user.isAdmin) {
    const userId = ctx.user.userId;
    base = base.where('AreaInfo.Id', 'in', (eb) =>
      eb.selectFrom('UserArea').select('AreaId').where('UserId', '=', userId),
    );
  }
  if (q.Name) base = base.where('AreaInfo.Name', 'like', `%${q.Name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.Disabled !== undefined) base = base.where('AreaInfo.Disabled', '=', q.Disabled ? 1 : 0);
  const [rows, total] = await Promise.all([
    base
      .select((eb) => [
        'AreaInfo.Id',
        'AreaInfo.Name',
        'AreaInfo.Custom',
        'AreaInfo.Disabled',
        'AreaInfo.CreatedAt',
        'AreaInfo.UpdatedAt',
        eb
          .selectFrom('UserArea')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('UserArea.AreaId', '=', 'AreaInfo.Id')
          .as('UserCount'),
      ])
      .orderBy('AreaInfo.Id')
      .limit(q.PageSize)
      .offset((q.PageIndex - 1) * q.PageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    Items: rows.map((r) => ({
      Id: r.Id,
      Name: r.Name,
      Custom: r.Custom,
      Disabled: r.Disabled === 1,
      UserCount: Number(r.UserCount ?? 0),
      CreatedAt: new Date(r.CreatedAt).toISOString(),
      UpdatedAt: new Date(r.UpdatedAt).toISOString(),
    })),
    Total: Number(total.n),
  };
}

async function assertNameFree(ctx: UserContext, name: string, exceptId?: number) {
  let q = ctx.db.kysely.selectFrom('AreaInfo').select('Id').where('Name', '=', name);
  if (exceptId !== undefined) q = q.where('Id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw new AppError(409, 'error.areaNameTaken');
}

/** Creates an area; a creator who is not admin is linked to it, or they could not manage what they made. */
export async function createArea(
  ctx: UserContext,
  input: { Name: string; Custom?: string | null | undefined },
): Promise<AreaDetail> {
  await assertNameFree(ctx, input.Name);
  const now = ctx.clock.now();
  const created = await ctx.db.kysely.transaction().execute(async (trx) => {
    const area = await trx
      .insertInto('AreaInfo')
      .values({ Name: input.Name, Custom: input.Custom ?? null, CreatedAt: now, UpdatedAt: now })
      .returning(['Id', 'Name', 'Custom'])
      .executeTakeFirstOrThrow();
    if (!ctx.user.isAdmin) await grantArea(trx, ctx.user.userId, area.Id);
    await audit(ctx, { action: 'create', entity: 'AreaInfo', entityId: area.Id, after: area }, trx);
    return area;
  });
  return created;
}

function areaRow(trx: Kysely<Database>, id: number) {
  return trx.selectFrom('AreaInfo').selectAll().where('Id', '=', id).executeTakeFirstOrThrow();
}

/** Applies a change to one area in a transaction with its audit entry (before and after). */
async function changeArea(
  ctx: UserContext,
  id: number,
  action: string,
  set: Record<string, unknown>,
): Promise<void> {
  await assertManages(ctx, id);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await areaRow(trx, id);
    const values = { ...set, UpdatedAt: ctx.clock.now() };
    await trx.updateTable('AreaInfo').set(values).where('Id', '=', id).execute();
    await audit(
      ctx,
      { action, entity: 'AreaInfo', entityId: id, before, after: { ...before, ...values } },
      trx,
    );
  });
}

export async function updateArea(
  ctx: UserContext,
  input: { Id: number; Name: string; Custom?: string | null | undefined },
): Promise<AreaDetail> {
  await assertManages(ctx, input.Id);
  await assertNameFree(ctx, input.Name, input.Id);
  await changeArea(ctx, input.Id, 'update', {
    Name: input.Name,
    ...(input.Custom !== undefined ? { Custom: input.Custom } : {}),
  });
  return ctx.db.kysely
    .selectFrom('AreaInfo')
    .select(['Id', 'Name', 'Custom'])
    .where('Id', '=', input.Id)
    .executeTakeFirstOrThrow();
}

export async function setAreaDisabled(ctx: UserContext, id: number, disabled: boolean): Promise<void> {
  await changeArea(ctx, id, 'status', { Disabled: disabled ? 1 : 0 });
}

/**
 * Deletes an area and its user links; refused (409, naming what remains) while any module keeps rows in it
 * (modules register those counters with `registerDependent('AreaInfo', …)`).
 */
export async function deleteArea(ctx: UserContext, id: number): Promise<void> {
  await assertManages(ctx, id);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await areaRow(trx, id);
    await assertNoDependents('AreaInfo', trx, id, ctx.lang);
    await trx.deleteFrom('AreaInfo').where('Id', '=', id).execute();
    await audit(ctx, { action: 'delete', entity: 'AreaInfo', entityId: id, before }, trx);
  });
}

/** The users linked to an area the caller manages. */
export async function areaUsers(ctx: UserContext, id: number): Promise<AreaUser[]> {
  await assertManages(ctx, id);
  return ctx.db.kysely
    .selectFrom('AppUser')
    .innerJoin('UserArea', 'UserArea.UserId', 'AppUser.Id')
    .select(['AppUser.Id', 'AppUser.UserName', 'AppUser.Name'])
    .where('UserArea.AreaId', '=', id)
    .orderBy('AppUser.UserName')
    .execute();
}

/** Replaces the set of users linked to an area; only existing users may be linked. */
export async function setAreaUsers(ctx: UserContext, id: number, userIds: number[]): Promise<void> {
  await assertManages(ctx, id);
  const unique = [...new Set(userIds)].sort((a, b) => a - b);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    if (unique.length) {
      const found = await trx.selectFrom('AppUser').select('Id').where('Id', 'in', unique).execute();
      if (found.length !== unique.length) throw new AppError(404, 'error.notFound');
    }
    const users = { table: 'UserArea', owner: 'AreaId', ownerId: id, linked: 'UserId' } as const;
    await replaceLinksAudited(ctx, trx, 'setAuth', 'AreaInfo', users, unique);
  });
}

export async function setAreaCustom(ctx: UserContext, id: number, custom: string | null): Promise<void> {
  await changeArea(ctx, id, 'setCustom', { Custom: custom });
}

/**
 * The address of an area's live-event hub with a one-time ticket for the caller's session. Relative on
 * purpose: built from the request's Host header it could point the client (and its ticket) anywhere; the
 * browser resolves it against the page's own origin (ws: or wss: after the page's scheme).
 */
export async function hubUrl(ctx: AuthedContext, id: number): Promise<string> {
  assertAreaAccess(ctx.user, id);
  const ticket = await ctx.platform.hubTickets.issue({ tokenHash: ctx.user.tokenHash, areaId: id });
  return `${HUB_PATH}?AreaId=${id}&ticket=${ticket}`;
}
