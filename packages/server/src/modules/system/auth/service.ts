import type { LoginInput, PermittedResource } from '@gatehouse/shared';
import { audit } from '../../../platform/audit.ts';
import type { Actor, ServiceContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { verifyPassword } from '../../../platform/auth/passwords.ts';
import type { Platform } from '../../../platform/platform.ts';
import type { Principal } from '../../../platform/principal.ts';

/**
 * Reserves an attempt with the throttle first (a locked name gets 429 even with the right password), then the password,
 * then the account state, so "disabled" is only told to someone who knows the password.
 */
export async function login(
  platform: Platform,
  input: LoginInput,
  meta: { ip?: string; userAgent?: string },
): Promise<{ token: string }> {
  const { throttle, db } = platform;
  const ip = meta.ip ?? '';
  // Sign-in entries have no area; the language is irrelevant to a log row.
  const logAs = (actor: Actor): ServiceContext => ({
    db,
    clock: platform.clock,
    lang: 'zh',
    actor,
    areaId: undefined,
  });
  // Nobody has signed in yet: a failed attempt is logged under the name that was typed (never the password),
  // as a system-kind actor with the client's address, since that name may not be (or belong to) the person.
  const attempted = logAs({ kind: 'system', name: input.username.slice(0, 64), ip });
  // Counted before the password is verified, so parallel attempts cannot outrun the limit.
  const attempt = await throttle.begin(input.username, meta.ip ?? '');
  if (!('succeeded' in attempt))
    throw new AppError(429, 'error.loginThrottled', { minutes: attempt.minutes });

  const user = await db.kysely
    .selectFrom('AppUser')
    .select(['Id', 'PasswordHash', 'Disabled'])
    .where('UserName', '=', input.username)
    .executeTakeFirst();
  const valid = await verifyPassword(user?.PasswordHash, input.password);
  if (!user || !valid) {
    const lock = await attempt.failed();
    await audit(attempted, { action: 'loginFailed', entity: 'AppUser', entityId: user?.Id ?? null });
    if (lock)
      await audit(attempted, {
        action: 'lockout',
        entity: 'AppUser',
        entityId: user?.Id ?? null,
        after: { Scope: lock.scope, LockedUntil: new Date(lock.until).toISOString() },
      });
    throw new AppError(400, 'error.loginFailed');
  }
  await attempt.succeeded();
  if (user.Disabled) {
    await audit(attempted, { action: 'loginDisabled', entity: 'AppUser', entityId: user.Id });
    throw new AppError(403, 'error.accountDisabled');
  }
  const token = await platform.sessions.create(user.Id, meta);
  const name = input.username;
  await audit(logAs({ kind: 'user', userId: user.Id, name, displayName: name, ip }), {
    action: 'login',
    entity: 'AppUser',
    entityId: user.Id,
  });
  return { token };
}

/** Ends the calling session; logged first, while the actor is still signed in. */
export async function logout(ctx: ServiceContext & { platform: Platform; user: Principal }): Promise<void> {
  await audit(ctx, { action: 'logout', entity: 'AppUser', entityId: ctx.user.userId });
  await ctx.platform.sessions.revoke(ctx.user.tokenHash);
}

/** The resources the caller holds (every resource for admins), parents first. */
export async function permittedResources(platform: Platform, user: Principal): Promise<PermittedResource[]> {
  let query = platform.db.kysely
    .selectFrom('Resource')
    .select(['Id', 'Code', 'Name', 'ParentId', 'Type', 'Sort'])
    .orderBy('Sort')
    .orderBy('Id');
  if (!user.isAdmin) {
    const codes = [...user.codes];
    if (codes.length === 0) return [];
    query = query.where('Code', 'in', codes);
  }
  return query.execute();
}
