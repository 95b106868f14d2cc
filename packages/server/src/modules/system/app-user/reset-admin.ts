import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/database.ts';
import { audit } from '../../../platform/audit.ts';
import { hashPassword } from '../../../platform/auth/passwords.ts';
import { endUserSessions } from '../../../platform/auth/sessions.ts';
import type { Clock } from '../../../platform/clock.ts';
import { systemActor } from '../../../platform/context.ts';

export interface ResetAdminResult {
  /** Present when the password was generated: the only copy, to print once. */
  generated?: string;
}

/**
 * Sets the built-in `admin` account's password (the given one, checked by the configuration, or a generated one), enables the account,
 * ends its sessions, and writes an audit entry by the system: the way back in when the first start's
 * printed password was missed. Run from the machine that holds the database (`npm run reset-admin-password`).
 */
export async function resetAdminPassword(
  db: Db,
  clock: Clock,
  password: string | undefined,
): Promise<ResetAdminResult> {
  const generated = password === undefined ? randomBytes(12).toString('base64url') : undefined;
  const hash = await hashPassword(password ?? generated!);
  await db.kysely.transaction().execute(async (trx) => {
    const admin = await trx
      .selectFrom('AppUser')
      .select(['Id'])
      .where('UserName', '=', 'admin')
      .where('BuiltIn', '=', 1)
      .executeTakeFirst();
    if (!admin) throw new Error('This database has no built-in admin account (is it a Gatehouse database?)');
    await trx
      .updateTable('AppUser')
      .set({ PasswordHash: hash, Disabled: 0, UpdatedAt: clock.now() })
      .where('Id', '=', admin.Id)
      .execute();
    await endUserSessions(trx, admin.Id);
    await audit(
      { db, clock, lang: 'zh', actor: systemActor('reset-admin-password'), areaId: undefined },
      { action: 'resetPassword', entity: 'AppUser', entityId: admin.Id },
      trx,
    );
  });
  return generated ? { generated } : {};
}
