import { AppError } from '../../../platform/errors.ts';
import { verifyPassword } from '../../../platform/auth/passwords.ts';
import type { Platform } from '../../../platform/platform.ts';
import type { Principal } from '../../../platform/principal.ts';

export interface LoginInput {
  username: string;
  password: string;
}

/**
 * Checks the throttle first (a locked name gets 429 even with the right password), then the password,
 * then the account state, so "disabled" is only told to someone who knows the password.
 */
export async function login(
  platform: Platform,
  input: LoginInput,
  meta: { ip?: string; userAgent?: string },
): Promise<{ token: string }> {
  const { throttle, db } = platform;
  const minutes = throttle.lockedMinutes(input.username);
  if (minutes > 0) throw new AppError(429, 'error.loginThrottled', { minutes });

  const user = await db.kysely
    .selectFrom('AppUser')
    .select(['Id', 'PasswordHash', 'Disabled'])
    .where('UserName', '=', input.username)
    .executeTakeFirst();
  const valid = await verifyPassword(user?.PasswordHash, input.password);
  if (!user || !valid) {
    throttle.recordFailure(input.username);
    throw new AppError(400, 'error.loginFailed');
  }
  throttle.recordSuccess(input.username);
  if (user.Disabled) throw new AppError(403, 'error.accountDisabled');
  return { token: await platform.sessions.create(user.Id, meta) };
}

export async function logout(platform: Platform, user: Principal): Promise<void> {
  await platform.sessions.revoke(user.tokenHash);
}

export interface ResourceItem {
  Id: number;
  Code: string;
  Name: string;
  ParentId: number | null;
  Type: 'menu' | 'permission';
  Sort: number;
}

/** The resources the caller holds (every resource for admins), parents first. */
export async function permittedResources(platform: Platform, user: Principal): Promise<ResourceItem[]> {
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
