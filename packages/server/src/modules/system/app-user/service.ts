import {
  SUPER_ADMIN,
  type AppUserItem as UserItem,
  type CreateUserInput,
  type LockedUser,
  type UpdateUserInput,
  type UserInfo,
} from '@gatehouse/shared';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import { replaceLinks } from '../../../platform/links.ts';
import { shapedRows } from '../../../platform/list-statements.ts';
import { departmentInArea } from '../../organization/index.ts';
import { hashPassword, verifyPassword } from '../../../platform/auth/passwords.ts';
import { endUserSessions } from '../../../platform/auth/sessions.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { ADMIN_CODE, hasAnyCode } from '../../../platform/principal.ts';
import type { AreaContext, UserContext } from '../../../platform/context.ts';

/** User administration runs in an area (the guard admitted it) for a caller whose grants bound what they may give. */
type AreaUserContext = UserContext & AreaContext;

type Trx = Kysely<Database>;

/** The signed-in user as the web app needs it; roles is never empty (the client refuses an empty list). */
/** The caller's own profile; `imageBaseUrl` is the current setting (routes read it). */
export async function userInfo(ctx: UserContext, imageBaseUrl: string): Promise<UserInfo> {
  const k = ctx.db.kysely;
  const user = await k
    .selectFrom('AppUser')
    .select(['Id', 'UserName', 'Name', 'Avatar'])
    .where('Id', '=', ctx.user.userId)
    .executeTakeFirstOrThrow();
  const areaIds = [...ctx.user.areaIds];
  const areas = areaIds.length
    ? await k
        .selectFrom('AreaInfo')
        .select(['Id', 'Name', 'Custom'])
        .where('Id', 'in', areaIds)
        .orderBy('Id')
        .execute()
    : [];
  // A user with no role codes still gets a role: the client treats an empty list as a failed login.
  const roles = ctx.user.codes.size ? [...ctx.user.codes].sort() : ['user'];
  return { ...user, ImageBaseUrl: imageBaseUrl, roles, AreaInfos: areas };
}

export async function updateOwnInfo(
  ctx: UserContext,
  id: number,
  changes: {
    Name?: string | undefined;
    Avatar?: string | null | undefined;
    Phone?: string | null | undefined;
    Email?: string | null | undefined;
  },
): Promise<void> {
  if (id !== ctx.user.userId) throw new AppError(403, 'error.ownAccountOnly');
  // Typed as the changes, so the audit entry's fields are known (the operation log labels each).
  const set = Object.fromEntries(
    Object.entries(changes).filter(([, v]) => v !== undefined),
  ) as typeof changes;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('AppUser')
      .select(['Name', 'Avatar', 'Phone', 'Email'])
      .where('Id', '=', id)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('AppUser')
      .set({ ...set, UpdatedAt: ctx.clock.now() })
      .where('Id', '=', id)
      .execute();
    await audit(
      ctx,
      { action: 'updateOwnInfo', entity: 'AppUser', entityId: id, before, after: { ...before, ...set } },
      trx,
    );
  });
}

/**
 * Own password: the old one is required. Admins may set anyone's without it; every other session of
 * the changed account ends (the caller's own stays, so the operator is not thrown out).
 */
export async function modifyPassword(
  ctx: UserContext,
  id: number,
  input: { OldPassword?: string | undefined; NewPassword: string },
): Promise<void> {
  const own = id === ctx.user.userId;
  if (!own && !ctx.user.isAdmin) throw new AppError(403, 'error.ownAccountOnly');
  const k = ctx.db.kysely;
  const user = await k
    .selectFrom('AppUser')
    .select(['Id', 'PasswordHash'])
    .where('Id', '=', id)
    .executeTakeFirst();
  if (!user) throw notFound();
  if (own && !(await verifyPassword(user.PasswordHash, input.OldPassword ?? ''))) {
    // A wrong current password is worth a line in the log: someone at an open session may be guessing.
    await audit(ctx, { action: 'modifyPasswordFailed', entity: 'AppUser', entityId: id });
    throw fieldError('OldPassword', 'error.oldPasswordWrong');
  }
  await setPassword(ctx, id, input.NewPassword, own ? 'modifyPassword' : 'resetPassword');
}

async function setPassword(ctx: UserContext, id: number, password: string, action: string): Promise<void> {
  const PasswordHash = await hashPassword(password);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('AppUser')
      .set({ PasswordHash, UpdatedAt: ctx.clock.now() })
      .where('Id', '=', id)
      .execute();
    await endUserSessions(trx, id, ctx.user.tokenHash);
    await audit(ctx, { action, entity: 'AppUser', entityId: id }, trx);
  });
}

/* ---- administration of system users (AppUser/Admin, within the current area) ---- */

interface TargetUser {
  Id: number;
  BuiltIn: number;
  IsAdmin: boolean;
}

/**
 * The user being administered: linked to the current area (404 otherwise, as for any row of another area).
 * Only an admin may administer a holder of the admin role: nobody manages someone above them.
 */
async function findTarget(ctx: AreaUserContext, trx: Trx, id: number): Promise<TargetUser> {
  const user = await trx
    .selectFrom('AppUser')
    .innerJoin('UserArea', 'UserArea.UserId', 'AppUser.Id')
    .select(['AppUser.Id', 'AppUser.BuiltIn'])
    .where('AppUser.Id', '=', id)
    .where('UserArea.AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!user) throw notFound();
  const admin = await trx
    .selectFrom('UserRole')
    .innerJoin('Role', 'Role.Id', 'UserRole.RoleId')
    .select('Role.Id')
    .where('UserRole.UserId', '=', id)
    .where('Role.Code', '=', ADMIN_CODE)
    .executeTakeFirst();
  if (admin && !ctx.user.isAdmin) throw new AppError(403, 'error.adminProtected');
  return { ...user, IsAdmin: Boolean(admin) };
}

/**
 * Roles the caller may grant: any existing role, except the admin role (admins only) and roles carrying
 * the SuperAdmin code (holders of SuperAdmin only).
 */
async function checkRoles(ctx: AreaUserContext, trx: Trx, roleIds: number[]): Promise<number[]> {
  const unique = [...new Set(roleIds)].sort((a, b) => a - b);
  if (unique.length === 0) return [];
  const roles = await trx.selectFrom('Role').select(['Id', 'Code']).where('Id', 'in', unique).execute();
  if (roles.length !== unique.length) throw fieldError('RoleIds', 'error.notFound');
  if (!ctx.user.isAdmin) {
    if (roles.some((r) => r.Code === ADMIN_CODE)) throw new AppError(403, 'error.grantBeyondOwn');
    const superRoles = await trx
      .selectFrom('RoleResource')
      .innerJoin('Resource', 'Resource.Id', 'RoleResource.ResourceId')
      .select('RoleResource.RoleId')
      .where('RoleResource.RoleId', 'in', unique)
      .where('Resource.Code', '=', 'SuperAdmin')
      .execute();
    if (superRoles.length && !hasAnyCode(ctx.user, SUPER_ADMIN))
      throw new AppError(403, 'error.grantBeyondOwn');
  }
  return unique;
}

/** Areas the caller may hand out are their own; the current area is always among them. */
function checkAreas(ctx: AreaUserContext, areaIds: number[]): number[] {
  const wanted = new Set([...areaIds, ctx.areaId]);
  for (const areaId of wanted)
    if (!ctx.user.areaIds.has(areaId)) throw new AppError(403, 'error.areaForbidden');
  return [...wanted].sort((a, b) => a - b);
}

async function checkDepartment(
  ctx: AreaUserContext,
  trx: Trx,
  departmentId: number | null | undefined,
): Promise<void> {
  if (departmentId === null || departmentId === undefined) return;
  if (!(await departmentInArea(trx, ctx.areaId, departmentId)))
    throw fieldError('DepartmentId', 'error.departmentMissing');
}

async function snapshot(trx: Trx, id: number) {
  const user = await trx
    .selectFrom('AppUser')
    .select(['Id', 'UserName', 'Name', 'Avatar', 'Phone', 'Email', 'DepartmentId', 'Disabled'])
    .where('Id', '=', id)
    .executeTakeFirstOrThrow();
  const roles = await trx
    .selectFrom('UserRole')
    .select('RoleId')
    .where('UserId', '=', id)
    .orderBy('RoleId')
    .execute();
  const areas = await trx
    .selectFrom('UserArea')
    .select('AreaId')
    .where('UserId', '=', id)
    .orderBy('AreaId')
    .execute();
  return { ...user, RoleIds: roles.map((r) => r.RoleId), AreaIds: areas.map((a) => a.AreaId) };
}

async function replaceRoles(trx: Trx, userId: number, roleIds: number[]) {
  await replaceLinks(trx, { table: 'UserRole', owner: 'UserId', ownerId: userId, linked: 'RoleId' }, roleIds);
}

/** Replaces the user's links among the caller's areas; links to areas the caller does not operate stay. */
async function replaceAreas(ctx: AreaUserContext, trx: Trx, userId: number, areaIds: number[]) {
  const mine = [...ctx.user.areaIds];
  if (mine.length)
    await trx.deleteFrom('UserArea').where('UserId', '=', userId).where('AreaId', 'in', mine).execute();
  await trx
    .insertInto('UserArea')
    .values(areaIds.map((AreaId) => ({ UserId: userId, AreaId })))
    .execute();
}

/**
 * Links a user to one more area (the user table's links are app-user's to write): a creator who is not admin
 * gets the area they just made, in the area's create transaction (area-info), or they could not manage it.
 */
export async function grantArea(trx: Trx, userId: number, areaId: number): Promise<void> {
  await trx.insertInto('UserArea').values({ UserId: userId, AreaId: areaId }).execute();
}

export async function createUser(ctx: AreaUserContext, input: CreateUserInput): Promise<number> {
  const PasswordHash = await hashPassword(input.Password);
  const areaIds = checkAreas(ctx, input.AreaIds);
  const now = ctx.clock.now();
  const id = await ctx.db.kysely.transaction().execute(async (trx) => {
    const taken = await trx
      .selectFrom('AppUser')
      .select('Id')
      .where('UserName', '=', input.UserName)
      .executeTakeFirst();
    // A conflict with existing data (docs/api.md: duplicate name → 409); the field is named so forms can mark it.
    if (taken)
      throw new AppError(409, 'error.userNameTaken', undefined, {
        Errors: [{ Field: 'UserName', Key: 'error.userNameTaken' }],
      });
    const roleIds = await checkRoles(ctx, trx, input.RoleIds);
    await checkDepartment(ctx, trx, input.DepartmentId);
    const user = await trx
      .insertInto('AppUser')
      .values({
        UserName: input.UserName,
        Name: input.Name,
        PasswordHash,
        Avatar: input.Avatar ?? null,
        Phone: input.Phone ?? null,
        Email: input.Email ?? null,
        DepartmentId: input.DepartmentId ?? null,
        CreatedAt: now,
        UpdatedAt: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    await replaceRoles(trx, user.Id, roleIds);
    await trx
      .insertInto('UserArea')
      .values(areaIds.map((AreaId) => ({ UserId: user.Id, AreaId })))
      .execute();
    await audit(
      ctx,
      { action: 'create', entity: 'AppUser', entityId: user.Id, after: await snapshot(trx, user.Id) },
      trx,
    );
    return user.Id;
  });
  return id;
}

export async function updateUser(ctx: AreaUserContext, input: UpdateUserInput): Promise<void> {
  const areaIds = checkAreas(ctx, input.AreaIds);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const target = await findTarget(ctx, trx, input.Id);
    const roleIds = await checkRoles(ctx, trx, input.RoleIds);
    // Nobody removes the admin role from the built-in administrator, which would lock the system.
    if (target.BuiltIn && target.IsAdmin) {
      const adminRole = await trx
        .selectFrom('Role')
        .select('Id')
        .where('Code', '=', ADMIN_CODE)
        .executeTakeFirstOrThrow();
      if (!roleIds.includes(adminRole.Id)) throw new AppError(409, 'error.builtInAdmin');
    }
    await checkDepartment(ctx, trx, input.DepartmentId);
    const before = await snapshot(trx, input.Id);
    await trx
      .updateTable('AppUser')
      .set({
        Name: input.Name,
        ...(input.Avatar !== undefined ? { Avatar: input.Avatar } : {}),
        ...(input.Phone !== undefined ? { Phone: input.Phone } : {}),
        ...(input.Email !== undefined ? { Email: input.Email } : {}),
        ...(input.DepartmentId !== undefined ? { DepartmentId: input.DepartmentId } : {}),
        UpdatedAt: ctx.clock.now(),
      })
      .where('Id', '=', input.Id)
      .execute();
    await replaceRoles(trx, input.Id, roleIds);
    await replaceAreas(ctx, trx, input.Id, areaIds);
    await audit(
      ctx,
      {
        action: 'update',
        entity: 'AppUser',
        entityId: input.Id,
        before,
        after: await snapshot(trx, input.Id),
      },
      trx,
    );
  });
}

/** Changes a user's own columns with its audit entry: the user as it was, and as the change leaves it. */
async function changeUser(
  ctx: UserContext,
  trx: Trx,
  id: number,
  action: string,
  set: { Disabled?: number; DepartmentId?: number | null },
): Promise<void> {
  const before = await snapshot(trx, id);
  await trx
    .updateTable('AppUser')
    .set({ ...set, UpdatedAt: ctx.clock.now() })
    .where('Id', '=', id)
    .execute();
  await audit(ctx, { action, entity: 'AppUser', entityId: id, before, after: { ...before, ...set } }, trx);
}

/** Nobody disables or deletes their own account or the built-in administrator. */
function assertChangeable(ctx: AreaUserContext, target: TargetUser) {
  if (target.Id === ctx.user.userId) throw new AppError(409, 'error.cannotChangeSelf');
  if (target.BuiltIn) throw new AppError(409, 'error.builtInAdmin');
}

/** Enables or disables a user of the current area; disabling ends every session of that user. */
export async function setUserStatus(ctx: AreaUserContext, id: number, disabled: boolean): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const target = await findTarget(ctx, trx, id);
    if (disabled) assertChangeable(ctx, target);
    await changeUser(ctx, trx, id, 'status', { Disabled: disabled ? 1 : 0 });
    if (disabled) await endUserSessions(trx, id);
  });
}

export async function deleteUsers(ctx: AreaUserContext, ids: number[]): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const id of new Set(ids)) {
      assertChangeable(ctx, await findTarget(ctx, trx, id));
      const before = await snapshot(trx, id);
      const deleted = await trx.deleteFrom('AppUser').where('Id', '=', id).executeTakeFirst();
      // A parallel delete won (PostgreSQL): nothing removed, so 404 and no audit entry.
      if (Number(deleted.numDeletedRows) === 0) throw notFound();
      await audit(ctx, { action: 'delete', entity: 'AppUser', entityId: id, before }, trx);
    }
  });
}

export async function bindDepartment(
  ctx: AreaUserContext,
  id: number,
  departmentId: number | null,
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    await findTarget(ctx, trx, id);
    await checkDepartment(ctx, trx, departmentId);
    await changeUser(ctx, trx, id, 'bindDepartment', { DepartmentId: departmentId });
  });
}

/** An administrator sets a new password; the user's sessions end (they must sign in with it). */
export async function resetPassword(ctx: AreaUserContext, id: number, password: string): Promise<void> {
  await ctx.db.kysely.transaction().execute((trx) => findTarget(ctx, trx, id));
  await setPassword(ctx, id, password, 'resetPassword');
}

/**
 * Owner of the statements that enrich a page of users (platform/list-statements.ts): their SQL depends only on
 * how many users the page holds, which is their key; the ids are bound per call.
 */
const pageOfUsers = {};

/**
 * Roles and the caller's areas of a page of users, in two queries. The items are the page's own, fresh from
 * the list's `toItem`, so they are completed in place.
 */
export async function enrichUsers(ctx: AreaUserContext, items: UserItem[]): Promise<UserItem[]> {
  const ids = items.map((i) => i.Id);
  const k = ctx.db.kysely;
  // Roles and areas in one statement (a union): one round through the driver instead of two.
  const links = await shapedRows<{
    Kind: number;
    UserId: number;
    Id: number;
    Code: string | null;
    Name: string;
  }>(ctx.db, pageOfUsers, `links:${ids.length}`, ids, (slots) => ({
    query: k
      .selectFrom('UserRole')
      .innerJoin('Role', 'Role.Id', 'UserRole.RoleId')
      .select([
        sql<number>`0`.as('Kind'),
        'UserRole.UserId',
        'Role.Id',
        sql<string | null>`${sql.ref('Role.Code')}`.as('Code'),
        'Role.Name',
      ])
      .where('UserRole.UserId', 'in', slots as number[])
      .unionAll(
        k
          .selectFrom('UserArea')
          .innerJoin('AreaInfo', 'AreaInfo.Id', 'UserArea.AreaId')
          .select([
            sql<number>`1`.as('Kind'),
            'UserArea.UserId',
            'AreaInfo.Id',
            sql<string | null>`null`.as('Code'),
            'AreaInfo.Name',
          ])
          .where('UserArea.UserId', 'in', slots as number[]),
      )
      .orderBy('Kind')
      .orderBy('Id'),
    cacheable: true,
  }));
  const byId = new Map<number, UserItem>();
  for (const item of items) {
    item.Roles = [];
    item.Areas = [];
    byId.set(item.Id, item);
  }
  for (const { Kind, UserId, Id, Code, Name } of links) {
    const user = byId.get(Number(UserId));
    if (!user) continue;
    if (Number(Kind) === 0) user.Roles.push({ Id, Code: Code!, Name });
    else if (ctx.user.areaIds.has(Id)) user.Areas.push({ Id, Name });
  }
  return items;
}

/** A lock the login throttle holds on a user name (see platform/auth/throttle.ts). */
export interface NameLock {
  name: string;
  /** The client address the name is locked from; null: locked from every address. */
  address: string | null;
  until: number;
}

/** The current area's users that are locked out now, with until when and from where. */
export async function lockedUsers(ctx: AreaContext, locks: NameLock[]): Promise<LockedUser[]> {
  if (locks.length === 0) return [];
  const names = [...new Set(locks.map((l) => l.name))];
  const users = await ctx.db.kysely
    .selectFrom('AppUser')
    .innerJoin('UserArea', 'UserArea.UserId', 'AppUser.Id')
    .select(['AppUser.Id', 'AppUser.UserName'])
    .where('UserArea.AreaId', '=', ctx.areaId)
    // The throttle keys names trimmed and lower-cased, as the login form is.
    .where((eb) => eb(eb.fn('lower', ['AppUser.UserName']), 'in', names))
    .orderBy('AppUser.Id')
    .execute();
  return users.map((u) => ({
    Id: u.Id,
    UserName: u.UserName,
    Locks: locks
      .filter((l) => l.name === u.UserName.trim().toLowerCase())
      .sort((a, b) => b.until - a.until)
      .map((l) => ({ Address: l.address, LockedUntil: new Date(l.until).toISOString() })),
  }));
}

/** Lifts every login lock on a user of the current area, and records who did it. */
export async function unlockUser(
  ctx: AreaUserContext,
  id: number,
  unlock: (userName: string) => Promise<boolean>,
): Promise<{ Unlocked: boolean }> {
  const user = await ctx.db.kysely.transaction().execute(async (trx) => {
    await findTarget(ctx, trx, id);
    return trx.selectFrom('AppUser').select('UserName').where('Id', '=', id).executeTakeFirstOrThrow();
  });
  // Outside the transaction: the throttle writes through its own connection (on SQLite, the only one).
  const unlocked = await unlock(user.UserName);
  await audit(ctx, { action: 'unlock', entity: 'AppUser', entityId: id, before: { Locked: unlocked } });
  return { Unlocked: unlocked };
}
