import { expect, it } from 'vitest';
import { hashToken } from '../src/platform/auth/tokens.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

describeEachDb('sessions', (h) => {
  it('logs in with a trimmed username and returns the token in data and envelope', async () => {
    const reply = await call<{ token: string }>(h().app, 'POST', '/api/Auth/login', {
      body: { username: '  admin ', password: ADMIN_PASSWORD },
    });
    expect(reply.status).toBe(200);
    expect(reply.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(reply.token).toBe(reply.data.token);
    const info = await call<{ roles: string[] }>(h().app, 'GET', '/api/AppUser/Info', {
      token: reply.data.token,
    });
    expect(info.data.roles).toContain('admin');
  });

  it('stores only a hash of the token', async () => {
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const rows = await h().db.kysely.selectFrom('Session').select('TokenHash').execute();
    expect(rows.map((r) => r.TokenHash)).toContain(hashToken(token));
    expect(rows.map((r) => r.TokenHash)).not.toContain(token);
  });

  it('answers a wrong password and an unknown user with the same message', async () => {
    const wrong = await call(h().app, 'POST', '/api/Auth/login', {
      body: { username: 'deptuser', password: 'nope-nope' },
    });
    const unknown = await call(h().app, 'POST', '/api/Auth/login', {
      body: { username: 'ghost', password: 'nope-nope' },
    });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.msg).toBe(unknown.msg);
    expect(wrong.msg).toBe('用户名或密码错误');
    expect(wrong.token).toBeUndefined();
  });

  it('refuses a missing, malformed or unknown token with 401', async () => {
    for (const authorization of [undefined, 'garbage', 'Bearer not-a-real-token']) {
      const response = await h().app.inject({
        method: 'GET',
        url: '/api/AppUser/Info',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 401, data: null });
    }
  });

  it('revokes the token on logout, and only that token', async () => {
    const first = await login(h().app, 'deptuser', DEMO_PASSWORD);
    const second = await login(h().app, 'deptuser', DEMO_PASSWORD);
    expect((await call(h().app, 'POST', '/api/Auth/logout', { token: first })).status).toBe(200);
    expect((await call(h().app, 'GET', '/api/AppUser/Info', { token: first })).status).toBe(401);
    expect((await call(h().app, 'GET', '/api/AppUser/Info', { token: second })).status).toBe(200);
  });

  it('expires a session after SESSION_TTL of inactivity, and activity keeps it alive', async () => {
    const ttlMs = h().config.sessionTtlSeconds * 1000;
    const active = await login(h().app, 'deptadmin', DEMO_PASSWORD);
    const idle = await login(h().app, 'deptadmin', DEMO_PASSWORD);
    for (let i = 0; i < 3; i++) {
      h().clock.advance(ttlMs / 2);
      expect((await call(h().app, 'GET', '/api/AppUser/Info', { token: active })).status).toBe(200);
    }
    expect((await call(h().app, 'GET', '/api/AppUser/Info', { token: idle })).status).toBe(401);
    h().clock.advance(ttlMs + 1000);
    expect((await call(h().app, 'GET', '/api/AppUser/Info', { token: active })).status).toBe(401);
  });

  it('throttles repeated failures for one username with 429, telling nothing about existence', async () => {
    const { app, clock } = h();
    for (const username of ['groupadmin', 'nobody-here']) {
      for (let i = 0; i < 5; i++) {
        expect(
          (await call(app, 'POST', '/api/Auth/login', { body: { username, password: 'wrong-pass' } })).status,
        ).toBe(400);
      }
    }
    const real = await call(app, 'POST', '/api/Auth/login', {
      body: { username: 'groupadmin', password: DEMO_PASSWORD },
    });
    const ghost = await call(app, 'POST', '/api/Auth/login', {
      body: { username: 'nobody-here', password: DEMO_PASSWORD },
      lang: 'en',
    });
    expect(real.status).toBe(429);
    expect(real.msg).toBe('登录失败次数过多，请 15 分钟后再试');
    expect(ghost.status).toBe(429);
    expect(ghost.msg).toBe('Too many failed logins, please try again in 15 minutes');
    // Another username is not affected, and the lock lifts after its window.
    expect(
      (
        await call(app, 'POST', '/api/Auth/login', {
          body: { username: 'deptuser', password: DEMO_PASSWORD },
        })
      ).status,
    ).toBe(200);
    clock.advance(15 * 60_000 + 1);
    expect(
      (
        await call(app, 'POST', '/api/Auth/login', {
          body: { username: ' GroupAdmin', password: DEMO_PASSWORD },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(app, 'POST', '/api/Auth/login', {
          body: { username: 'groupadmin', password: DEMO_PASSWORD },
        })
      ).status,
    ).toBe(200);
  });

  it('refuses a disabled user at login and ends their sessions', async () => {
    const { app } = h();
    const admin = await login(app, 'admin', ADMIN_PASSWORD);
    const victim = await login(app, 'roleadmin', DEMO_PASSWORD);
    const user = await h()
      .db.kysely.selectFrom('AppUser')
      .select('Id')
      .where('UserName', '=', 'roleadmin')
      .executeTakeFirstOrThrow();
    const set = await call(app, 'POST', '/api/AppUser/SetStatus', {
      token: admin,
      area: 1,
      query: { Id: user.Id, Disabled: true },
    });
    expect(set.status).toBe(200);
    expect((await call(app, 'GET', '/api/AppUser/Info', { token: victim })).status).toBe(401);
    const again = await call(app, 'POST', '/api/Auth/login', {
      body: { username: 'roleadmin', password: DEMO_PASSWORD },
    });
    expect(again.status).toBe(403);
    expect(again.msg).toBe('账号已被禁用，请联系管理员');
    await call(app, 'POST', '/api/AppUser/SetStatus', {
      token: admin,
      area: 1,
      query: { Id: user.Id, Disabled: false },
    });
    expect(
      (
        await call(app, 'POST', '/api/Auth/login', {
          body: { username: 'roleadmin', password: DEMO_PASSWORD },
        })
      ).status,
    ).toBe(200);
  });

  it('validates the login body with per-field messages in the request language', async () => {
    const reply = await call<{ Errors: { Field: string; Message: string }[] }>(
      h().app,
      'POST',
      '/api/Auth/login',
      {
        body: { username: '   ' },
        lang: 'en-US,en;q=0.9',
      },
    );
    expect(reply.status).toBe(400);
    expect(reply.data.Errors.map((e) => e.Field).sort()).toEqual(['password', 'username']);
    for (const e of reply.data.Errors) expect(e.Message).toMatch(/[a-z]/i);
  });
});
