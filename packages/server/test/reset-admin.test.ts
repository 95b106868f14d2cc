import { expect, it } from 'vitest';
import { resetAdminPassword } from '../src/modules/system/index.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

describeEachDb('reset the admin password', (h) => {
  it('sets a generated password, ends the old sessions, and the system signs the audit entry', async () => {
    const old = await login(h().app, 'admin', ADMIN_PASSWORD);
    const { generated } = await resetAdminPassword(h().db, h().clock, undefined);
    expect(generated).toMatch(/^[\w-]{16}$/);
    h().platform.sessions.invalidate();
    expect((await call(h().app, 'GET', '/api/AppUser/Info', { token: old })).status).toBe(401);
    expect(
      (
        await call(h().app, 'POST', '/api/Auth/login', {
          body: { username: 'admin', password: ADMIN_PASSWORD },
        })
      ).status,
    ).toBe(400);
    await login(h().app, 'admin', generated!);
    const entry = await h()
      .db.kysely.selectFrom('AuditLog')
      .selectAll()
      .where('Action', '=', 'resetPassword')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ ActorKind: 'system', UserName: 'reset-admin-password', UserId: null });
    // And back to the known one, as the command does with ADMIN_PASSWORD set.
    expect(await resetAdminPassword(h().db, h().clock, ADMIN_PASSWORD)).toEqual({});
    await login(h().app, 'admin', ADMIN_PASSWORD);
  });
});
