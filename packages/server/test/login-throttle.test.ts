import { expect, it } from 'vitest';
import { LoginThrottle } from '../src/platform/auth/throttle.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

const wrong = 'wrong-pass';

describeEachDb('login throttle under attack', (h) => {
  const tryLogin = (username: string, password: string, ip: string) =>
    call(h().app, 'POST', '/api/Auth/login', { body: { username, password }, ip });

  it('evaluates at most the limit of passwords in a parallel burst; a right one inside it gets 429', async () => {
    const burst = Array.from({ length: 40 }, (_, i) =>
      tryLogin('groupadmin', i === 20 ? DEMO_PASSWORD : wrong, '10.1.0.1'),
    );
    const statuses = (await Promise.all(burst)).map((r) => r.status);
    // Five attempts were counted before any password check finished; every other one was refused unseen.
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    expect(statuses[20]).toBe(429);
  });

  it("a stranger's five bad guesses lock the name from that address only, not its owner elsewhere", async () => {
    for (let i = 0; i < 5; i++) expect((await tryLogin('admin', wrong, '10.2.0.66')).status).toBe(400);
    expect((await tryLogin('admin', ADMIN_PASSWORD, '10.2.0.66')).status).toBe(429);
    expect((await tryLogin('admin', ADMIN_PASSWORD, '10.2.0.1')).status).toBe(200);
  });

  it('locks an address that sprays passwords over many names, and only that address', async () => {
    for (let i = 0; i < 50; i++)
      expect((await tryLogin(`sprayed-${i}`, wrong, '10.3.0.66')).status).toBe(400);
    expect((await tryLogin('deptuser', DEMO_PASSWORD, '10.3.0.66')).status).toBe(429);
    expect((await tryLogin('deptuser', DEMO_PASSWORD, '10.3.0.1')).status).toBe(200);
  });

  it('shows a locked user to the user administrator, who unlocks it (audited)', async () => {
    for (let i = 0; i < 5; i++) await tryLogin('deptadmin', wrong, '10.5.0.66');
    expect((await tryLogin('deptadmin', DEMO_PASSWORD, '10.5.0.66')).status).toBe(429);
    const admin = await login(h().app, 'useradmin', DEMO_PASSWORD);
    const locks = await call<
      Array<{ Id: number; UserName: string; Locks: Array<{ Address: string | null }> }>
    >(h().app, 'GET', '/api/AppUser/Locks', { token: admin, area: 1 });
    expect(locks.status).toBe(200);
    const locked = locks.data.find((u) => u.UserName === 'deptadmin');
    expect(locked?.Locks).toEqual([expect.objectContaining({ Address: '10.5.0.66' })]);
    const unlocked = await call<{ Unlocked: boolean }>(h().app, 'POST', '/api/AppUser/Unlock', {
      token: admin,
      area: 1,
      query: { Id: locked!.Id },
    });
    expect(unlocked.data).toEqual({ Unlocked: true });
    expect((await tryLogin('deptadmin', DEMO_PASSWORD, '10.5.0.66')).status).toBe(200);
    const entry = await h()
      .db.kysely.selectFrom('AuditLog')
      .selectAll()
      .where('Action', '=', 'unlock')
      .where('EntityId', '=', String(locked!.Id))
      .executeTakeFirstOrThrow();
    expect(entry.UserName).toBe('useradmin');
    // Someone without AppUser/Admin cannot.
    const other = await login(h().app, 'deptuser', DEMO_PASSWORD);
    expect(
      (
        await call(h().app, 'POST', '/api/AppUser/Unlock', {
          token: other,
          area: 1,
          query: { Id: locked!.Id },
        })
      ).status,
    ).toBe(403);
  });

  it('bounds a campaign on one name spread over many addresses, for a limited time', async () => {
    for (let i = 0; i < 100; i++) await tryLogin('useradmin', wrong, `10.4.${i >> 2}.${i}`);
    expect((await tryLogin('useradmin', DEMO_PASSWORD, '10.4.200.1')).status).toBe(429);
    h().clock.advance(15 * 60_000 + 1);
    expect((await tryLogin('useradmin', DEMO_PASSWORD, '10.4.200.1')).status).toBe(200);
  });
});

describeEachDb('login throttle, counted in the database', (h) => {
  it('doubles a repeated lock up to a cap, and an unlock clears the name everywhere', async () => {
    let now = Date.UTC(2026, 10, 2);
    const throttle = new LoginThrottle(h().db, { now: () => now } as never, () => ({
      maxFailures: 2,
      lockMinutes: 10,
    }));
    const fail = async () => {
      const attempt = await throttle.begin('Admin', '1.2.3.4');
      expect('failed' in attempt).toBe(true);
    };
    const lockedFor = async () => (await throttle.locked('admin', '1.2.3.4'))?.minutes ?? 0;
    const lengths: number[] = [];
    for (let round = 0; round < 8; round++) {
      await fail();
      await fail();
      lengths.push(await lockedFor());
      now += (await lockedFor()) * 60_000 + 1;
      expect(await lockedFor()).toBe(0);
    }
    expect(lengths).toEqual([10, 20, 40, 80, 160, 320, 320, 320]);
    await fail();
    await fail();
    expect(await throttle.nameLock('ADMIN ')).toBeDefined();
    expect(await throttle.unlock('admin')).toBe(true);
    expect(await lockedFor()).toBe(0);
    // A success resets the growth: the next lock is the plain one again.
    await fail();
    const attempt = await throttle.begin('admin', '1.2.3.4');
    if ('succeeded' in attempt) await attempt.succeeded();
    await fail();
    await fail();
    expect(await lockedFor()).toBe(10);
  });

  it('evaluates at most the limit of a parallel burst spread over two instances', async () => {
    const now = Date.UTC(2026, 10, 3);
    const policy = () => ({ maxFailures: 5, lockMinutes: 15 });
    // Two throttles over one database: two instances of a cluster.
    const a = new LoginThrottle(h().db, { now: () => now } as never, policy);
    const b = new LoginThrottle(h().db, { now: () => now } as never, policy);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).begin('burst-user', '9.9.9.9')),
    );
    const evaluated = results.filter((r) => 'failed' in r).length;
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(await b.locked('burst-user', '9.9.9.9')).toBeDefined();
    // Locked on one instance is locked on the other, and an unlock on one lifts it on both.
    expect(await a.unlock('burst-user')).toBe(true);
    expect(await b.locked('burst-user', '9.9.9.9')).toBeUndefined();
  });
});
