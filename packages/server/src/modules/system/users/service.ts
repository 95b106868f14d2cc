import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { hashPassword, verifyPassword } from '../../../platform/auth/passwords.ts';
import type { AuthedContext } from '../../../platform/route.ts';
import type { Page } from '../../../platform/schemas.ts';

export interface UserInfo {
  Id: number;
  UserName: string;
  Name: string;
  Avatar: string | null;
  ImageBaseUrl: string;
  roles: string[];
  AreaInfos: { Id: number; Name: string; Custom: string | null }[];
}

/** The signed-in user as the web app needs it; roles is never empty (the client refuses an empty list). */
export async function userInfo(ctx: AuthedContext): Promise<UserInfo> {
  const k = ctx.db.kysely;
  const user = await k
    .selectFrom('AppUser')
    .select(['Id', 'UserName', 'Name', 'Avatar'])
    .where('Id', '=', ctx.user.userId)
    .executeTakeFirstOrThrow();
  const areaIds = [...ctx.user.areaIds];
  const areas = areaIds.length
    ? await k.selectFrom('AreaInfo').select(['Id', 'Name', 'Custom']).where('Id', 'in', areaIds).orderBy('Id').execute()
    : [];
  // A user with no role codes still gets a role: the client treats an empty list as a failed login.
  const roles = ctx.user.codes.size ? [...ctx.user.codes].sort() : ['user'];
  return { ...user, ImageBaseUrl: ctx.platform.settings.get('ImageBaseUrl'), roles, AreaInfos: areas };
}

export async function updateOwnInfo(
  ctx: AuthedContext,
  id: number,
  changes: { Name?: string | undefined; Avatar?: string | null | undefined; Phone?: string | null | undefined; Email?: string | null | undefined },
): Promise<void> {
  if (id !== ctx.user.userId) throw new AppError(403, 'error.ownAccountOnly');
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  await ctx.db.kysely
    .updateTable('AppUser')
    .set({ ...set, UpdatedAt: ctx.clock.now() })
    .where('Id', '=', id)
    .execute();
  ctx.platform.sessions.invalidate();
}

/**
 * Own password: the old one is required. Admins may set anyone's without it; every other session of
 * the changed account ends (the caller's own stays, so the operator is not thrown out).
 */
export async function modifyPassword(
  ctx: AuthedContext,
  id: number,
  input: { OldPassword?: string | undefined; NewPassword: string },
): Promise<void> {
  const own = id === ctx.user.userId;
  if (!own && !ctx.user.isAdmin) throw new AppError(403, 'error.ownAccountOnly');
  const k = ctx.db.kysely;
  const user = await k.selectFrom('AppUser').select(['Id', 'PasswordHash']).where('Id', '=', id).executeTakeFirst();
  if (!user) throw notFound();
  if (own && !(await verifyPassword(user.PasswordHash, input.OldPassword ?? ''))) {
    throw fieldError('OldPassword', 'error.oldPasswordWrong');
  }
  const PasswordHash = await hashPassword(input.NewPassword);
  await k.transaction().execute(async (trx) => {
    await trx.updateTable('AppUser').set({ PasswordHash, UpdatedAt: ctx.clock.now() }).where('Id', '=', id).execute();
    await trx
      .deleteFrom('Session')
      .where('UserId', '=', id)
      .where('TokenHash', '!=', ctx.user.tokenHash)
      .execute();
  });
  ctx.platform.sessions.invalidate();
}

export interface UserListItem {
  Id: number;
  UserName: string;
  Name: string;
  Avatar: string | null;
  Phone: string | null;
  Email: string | null;
  DepartmentId: number | null;
  Disabled: boolean;
  CreatedAt: string;
}

export interface UserListQuery {
  PageIndex: number;
  PageSize: number;
  Keyword?: string | undefined;
  Disabled?: boolean | undefined;
}

/** The users who operate the current area. */
export async function listAreaUsers(ctx: AuthedContext, q: UserListQuery): Promise<Page<UserListItem>> {
  let base = ctx.db.kysely
    .selectFrom('AppUser')
    .innerJoin('UserArea', 'UserArea.UserId', 'AppUser.Id')
    .where('UserArea.AreaId', '=', ctx.areaId!);
  if (q.Keyword) {
    const like = `%${q.Keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) =>
      eb.or([eb('AppUser.UserName', 'like', like), eb('AppUser.Name', 'like', like)]),
    );
  }
  if (q.Disabled !== undefined) base = base.where('AppUser.Disabled', '=', q.Disabled ? 1 : 0);

  const [rows, total] = await Promise.all([
    base
      .select([
        'AppUser.Id',
        'AppUser.UserName',
        'AppUser.Name',
        'AppUser.Avatar',
        'AppUser.Phone',
        'AppUser.Email',
        'AppUser.DepartmentId',
        'AppUser.Disabled',
        'AppUser.CreatedAt',
      ])
      .orderBy('AppUser.Id')
      .limit(q.PageSize)
      .offset((q.PageIndex - 1) * q.PageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    Items: rows.map((r) => ({ ...r, Disabled: r.Disabled === 1, CreatedAt: new Date(r.CreatedAt).toISOString() })),
    Total: Number(total.n),
  };
}

/** Enables or disables a user of the current area; disabling ends every session of that user. */
export async function setUserStatus(ctx: AuthedContext, id: number, disabled: boolean): Promise<void> {
  const k = ctx.db.kysely;
  const user = await k
    .selectFrom('AppUser')
    .innerJoin('UserArea', 'UserArea.UserId', 'AppUser.Id')
    .select(['AppUser.Id', 'AppUser.BuiltIn'])
    .where('AppUser.Id', '=', id)
    .where('UserArea.AreaId', '=', ctx.areaId!)
    .executeTakeFirst();
  if (!user) throw notFound();
  if (user.BuiltIn && disabled) throw new AppError(409, 'error.builtInAdmin');
  await k.transaction().execute(async (trx) => {
    await trx.updateTable('AppUser').set({ Disabled: disabled ? 1 : 0, UpdatedAt: ctx.clock.now() }).where('Id', '=', id).execute();
    if (disabled) await trx.deleteFrom('Session').where('UserId', '=', id).execute();
  });
  ctx.platform.sessions.invalidate();
}
