import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

/**
 * The operation log holds what an operator did besides changing rows: sign-ins (and failed ones, and the
 * lockout they cause), sign-outs, password changes (and a wrong current password), exports and downloads.
 */
describeEachDb('operation log: sessions, passwords, exports', (h) => {
  async function entries(action: string) {
    return h()
      .db.kysely.selectFrom('AuditLog')
      .select(['ActorKind', 'UserId', 'UserName', 'Ip', 'Entity', 'EntityId', 'Before', 'After'])
      .where('Action', '=', action)
      .orderBy('Id')
      .execute();
  }

  it('records sign-in, failures, lockout, password changes, export, download and sign-out', async () => {
    const { app, db } = h();
    const user = await db.kysely
      .selectFrom('AppUser')
      .select('Id')
      .where('UserName', '=', 'operatorconfig')
      .executeTakeFirstOrThrow();
    const ip = '10.9.8.7';

    const wrong = await call(app, 'POST', '/api/Auth/login', {
      body: { username: 'operatorconfig', password: 'wrong-Secret#9' },
      ip,
    });
    expect(wrong.status).toBe(400);
    const failed = await entries('loginFailed');
    // Nobody signed in: logged under the typed name, with the address, as a system-kind actor.
    expect(failed.at(-1)).toMatchObject({
      ActorKind: 'system',
      UserId: null,
      UserName: 'operatorconfig',
      Ip: ip,
      Entity: 'AppUser',
      EntityId: String(user.Id),
    });

    const token = await login(app, 'operatorconfig', DEMO_PASSWORD);
    expect((await entries('login')).at(-1)).toMatchObject({
      ActorKind: 'user',
      UserId: user.Id,
      UserName: 'operatorconfig',
      EntityId: String(user.Id),
    });

    const wrongOld = await call(app, 'PATCH', `/api/AppUser/ModifyPassword/${user.Id}`, {
      token,
      body: { OldPassword: 'not-it', NewPassword: 'NewSecret#1' },
    });
    expect(wrongOld.status).toBe(400);
    // In the operator's words: the sentence alone, no API field name.
    expect(wrongOld.msg).toBe('原密码错误');
    expect((await entries('modifyPasswordFailed')).at(-1)).toMatchObject({ UserId: user.Id });
    const changed = await call(app, 'PATCH', `/api/AppUser/ModifyPassword/${user.Id}`, {
      token,
      body: { OldPassword: DEMO_PASSWORD, NewPassword: 'NewSecret#1' },
    });
    expect(changed.status).toBe(200);
    expect((await entries('modifyPassword')).at(-1)).toMatchObject({ UserId: user.Id });

    const job = await call<{ Id: number }>(app, 'POST', '/api/ExportJob', {
      token,
      area: 1,
      body: { Resource: 'OperatorStaff', Query: {} },
    });
    expect(job.status, job.msg).toBe(200);
    expect((await entries('export')).at(-1)).toMatchObject({
      UserId: user.Id,
      Entity: 'ExportJob',
      EntityId: String(job.data.Id),
    });
    await h().platform.exports.idle();
    const file = await app.inject({
      method: 'GET',
      url: `/api/ExportJob/${job.data.Id}/Download`,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    expect(file.statusCode).toBe(200);
    expect((await entries('download')).at(-1)).toMatchObject({
      UserId: user.Id,
      Entity: 'ExportJob',
      EntityId: String(job.data.Id),
    });

    expect((await call(app, 'POST', '/api/Auth/logout', { token })).status).toBe(200);
    expect((await entries('logout')).at(-1)).toMatchObject({ UserId: user.Id, EntityId: String(user.Id) });

    // No password, old or new, right or wrong, is anywhere in the log.
    const all = await db.kysely.selectFrom('AuditLog').select(['Before', 'After', 'UserName']).execute();
    const text = JSON.stringify(all);
    for (const secret of ['wrong-Secret#9', 'not-it', 'NewSecret#1', DEMO_PASSWORD])
      expect(text).not.toContain(secret);
  });

  it('records one lockout when failures cross the limit, under a name that does not exist', async () => {
    const { app } = h();
    const ip = '10.1.2.3';
    const before = (await entries('lockout')).length;
    for (let i = 0; i < 5; i++) {
      const reply = await call(app, 'POST', '/api/Auth/login', {
        body: { username: 'nobody-here', password: `guess-${i}-xx` },
        ip,
      });
      expect(reply.status).toBe(400);
    }
    const locked = await call(app, 'POST', '/api/Auth/login', {
      body: { username: 'nobody-here', password: 'guess-last' },
      ip,
    });
    expect(locked.status).toBe(429);
    const lockouts = await entries('lockout');
    expect(lockouts.length).toBe(before + 1);
    expect(lockouts.at(-1)).toMatchObject({
      ActorKind: 'system',
      UserName: 'nobody-here',
      Ip: ip,
      EntityId: null,
    });
    expect(JSON.parse(lockouts.at(-1)!.After!)).toMatchObject({ Scope: 'accountFromAddress' });
  });
});
