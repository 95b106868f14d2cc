import { WgSimulator, type SimDateTime } from '@gatehouse/wg-simulator';
import { displayToCard, translate, type AreaLockdownItem, type HubEventInput } from '@gatehouse/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';
import { makeUser } from './support/users.ts';
import { fleetOfSimulated } from './support/wg-fleet.ts';

/**
 * Lockdown and evacuation of an area (issue 31) against the simulator, which keeps door modes and runs its task
 * list as a controller does: who may start and release it (AccessControl/Admin, an API key holding that code, not
 * the User code, not another area's operator), every door of the area's three controllers (one, two and four
 * doors) held normally closed and read back, a door schedule due meanwhile that does not open its door, a
 * controller reset during it that gets the mode back, the release giving each door its own mode, delay and
 * schedule, the audit entries and the outward events.
 */
const AREA = 1;
const en = (key: string) => translate('en', key);

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The controller's local wall time (Asia/Shanghai, the area's zone) on a Tuesday in 2027. */
const at = (hour: number, minute: number): SimDateTime => ({
  year: 2027,
  month: 5,
  day: 4,
  hour,
  minute,
  second: 0,
});

describeEachDb('area lockdown and evacuation against the simulator', (h) => {
  let sim: WgSimulator;
  let gateway: WgGateway | undefined;
  let admin: string;
  const devices: { Id: number; SerialNumber: string; Name: string; doors: number }[] = [];
  let card: number;
  let door1Channel: number;
  let door2Channel: number;
  const published: HubEventInput[] = [];

  const api = async <T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
    const r = await call<T>(h().app, method, url, { token: admin, area: AREA, ...(body ? { body } : {}) });
    expect(r.status, `${method} ${url}: ${r.msg}`).toBe(200);
    return r.data;
  };
  const current = async () =>
    (await api<{ Lockdown: AreaLockdownItem | null }>('GET', '/api/AreaInfo/Lockdown')).Lockdown;
  const controller = (i: number) => sim.controller(Number(devices[i]!.SerialNumber));
  /** Every door of every controller in this mode on the simulated controllers, as set (0x82) and in effect. */
  const allDoors = (mode: number) =>
    devices.every((d, i) =>
      controller(i)
        .rulesSnapshot()
        .doors.every((door) => door.mode === mode && door.effectiveMode === mode),
    );
  const outbox = async (type: string) =>
    (
      await h()
        .db.kysely.selectFrom('OutboxEvent')
        .select('Payload')
        .where('Type', '=', type)
        .orderBy('Id')
        .execute()
    ).map((r) => JSON.parse(r.Payload) as { data: Record<string, unknown> });

  beforeAll(async () => {
    const k = h().db.kysely;
    admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    // One controller of each model of the area: one, two and four doors.
    for (const lead of ['1', '2', '4']) {
      const d = await k
        .selectFrom('AccessControlDevice')
        .select(['Id', 'SerialNumber', 'Name'])
        .where('AreaId', '=', AREA)
        .where('Protocol', '=', 0)
        .where('Disabled', '=', 0)
        .where('SerialNumber', 'like', `${lead}%`)
        .orderBy('Id')
        .executeTakeFirstOrThrow();
      devices.push({ ...d, doors: lead === '1' ? 1 : lead === '2' ? 2 : 4 });
    }
    const holder = await k
      .selectFrom('CardUser')
      .innerJoin('Card', 'Card.CardUserId', 'CardUser.Id')
      .select(['CardUser.Id', 'Card.CardNumber'])
      .where('CardUser.AreaId', '=', AREA)
      .where('CardUser.Disabled', '=', 0)
      .orderBy('CardUser.Id')
      .executeTakeFirstOrThrow();
    card = displayToCard(holder.CardNumber);
    await k
      .updateTable('CardUser')
      .set({ ValidFrom: Date.UTC(2026, 0, 1), ValidTo: Date.UTC(2029, 0, 1) })
      .where('Id', '=', holder.Id)
      .execute();
    const channelOf = (deviceId: number) =>
      k
        .selectFrom('AccessControlChannel')
        .select('Id')
        .where('DeviceId', '=', deviceId)
        .where('DoorNumber', '=', 1)
        .orderBy('Id')
        .executeTakeFirstOrThrow();
    door1Channel = (await channelOf(devices[0]!.Id)).Id;
    door2Channel = (await channelOf(devices[1]!.Id)).Id;
    await api('POST', '/api/CardUserLinkChannel/Grant', {
      CardUserId: holder.Id,
      ChannelIds: [door1Channel],
    });
    // The one-door controller's door opens by schedule at 16:30 every day (normally open).
    await api('POST', '/api/DoorSchedule', {
      DeviceId: devices[0]!.Id,
      DoorNumber: 1,
      Action: 1,
      Time: '16:30',
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      StartDate: '2026-01-01',
      EndDate: '2027-12-31',
    });
    sim = await WgSimulator.start({
      controllers: devices.map((d) => ({ serial: Number(d.SerialNumber) })),
      timeZone: 'Asia/Shanghai',
    });
    await fleetOfSimulated(h().db, sim, devices);
    gateway = await WgGateway.start({
      db: h().db,
      clock: systemClock,
      // What the gateway tells the browsers, kept for the test, then told to them.
      hub: {
        publish: (areaId, event) => {
          published.push(event);
          h().hub.publish(areaId, event);
        },
      },
      listen: '127.0.0.1:0',
      pollSeconds: 0.2,
      syncSeconds: 0.1,
      driftMinutes: 60,
      resetCheckSeconds: 0.5,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 40, tries: 3 },
    });
    // Started by hand, so declared by hand on the app's seams (app.ts does it for its own gateway).
    h().platform.seams.doorControllers = gateway;
    // An operator's door mode on the two-door controller's door 1: controlled, 7 s.
    await api('POST', '/api/AccessControlChannel/SetDoorMode', { Id: door2Channel, Mode: 3, Delay: 7 });
    await until(
      async () =>
        controller(0).rulesSnapshot().tasks.length === 1 && controller(0).getCard(card) !== undefined,
      60_000,
      'the schedule and the card on the one-door controller',
    );
  }, 120_000);

  afterAll(async () => {
    delete h().platform.seams.doorControllers;
    await gateway?.close();
    await sim?.close();
  });

  it('refuses the User code, a key without the Admin code and another area’s operator; nothing starts', async () => {
    const body = { Id: AREA, Mode: 'lockdown', Reason: 'drill' };
    const user = await login(h().app, 'acuser', DEMO_PASSWORD);
    expect(
      (await call(h().app, 'POST', '/api/AreaInfo/Lockdown', { token: user, area: AREA, body })).status,
    ).toBe(403);
    const key = await api<{ Secret: string }>('POST', '/api/ApiKey', {
      Name: 'panel-readonly',
      AreaIds: [AREA],
      Codes: ['AccessControl/User'],
    });
    const refused = await call(h().app, 'POST', '/api/AreaInfo/Lockdown', {
      token: key.Secret,
      area: AREA,
      lang: 'en',
      body,
    });
    expect(refused.status).toBe(403);
    // An operator of area 2 only: refused on area 1, and area 1 named from area 2 is not found.
    const other = await makeUser(h(), 'lockdown-other-area', ['AccessControl/Admin'], [2]);
    expect(
      (await call(h().app, 'POST', '/api/AreaInfo/Lockdown', { token: other, area: AREA, body })).status,
    ).toBe(403);
    expect(
      (await call(h().app, 'POST', '/api/AreaInfo/Lockdown', { token: other, area: 2, body })).status,
    ).toBe(404);
    expect(
      (
        await call(h().app, 'POST', '/api/AreaInfo/LockdownRelease', {
          token: other,
          area: AREA,
          body: { Id: AREA, Note: 'x' },
        })
      ).status,
    ).toBe(403);
    expect(await current()).toBeNull();
    // Nothing to release: the catalogued 409.
    const none = await call(h().app, 'POST', '/api/AreaInfo/LockdownRelease', {
      token: admin,
      area: AREA,
      lang: 'en',
      body: { Id: AREA, Note: 'nothing' },
    });
    expect(none.status).toBe(409);
    expect(none.msg).toBe(en('accessControl.error.lockdownNone'));
  });

  it('an alarm panel’s key locks the area down: every door of every controller read back normally closed', async () => {
    // The schedule opens the one-door controller's door at 16:30 (the controller's own clock), before any lockdown.
    const c0 = controller(0);
    c0.setClock(at(16, 29));
    c0.tick();
    c0.setClock(at(16, 31));
    c0.tick();
    expect(c0.effectiveMode(1)).toBe(1);

    const key = await api<{ Secret: string }>('POST', '/api/ApiKey', {
      Name: 'alarm panel',
      AreaIds: [AREA],
      Codes: ['AccessControl/Admin'],
    });
    const started = await call<AreaLockdownItem>(h().app, 'POST', '/api/AreaInfo/Lockdown', {
      token: key.Secret,
      area: AREA,
      body: { Id: AREA, Mode: 'lockdown', Reason: 'intruder reported at the east gate' },
    });
    expect(started.status, started.msg).toBe(200);
    expect(started.data).toMatchObject({
      Mode: 'lockdown',
      StartedBy: expect.stringContaining('alarm panel'),
      StartedByKind: 'key',
      ReleasedAt: null,
      Total: 7,
    });
    expect(started.data.Doors.every((d) => d.State === 'pending' && d.Wanted === 2)).toBe(true);

    const again = await call(h().app, 'POST', '/api/AreaInfo/Lockdown', {
      token: admin,
      area: AREA,
      lang: 'en',
      body: { Id: AREA, Mode: 'evacuate', Reason: 'fire' },
    });
    expect(again.status).toBe(409);
    expect(again.msg).toBe(en('accessControl.error.lockdownInForce'));

    await until(
      async () => (await current())?.Confirmed === 7 && allDoors(2),
      60_000,
      'every door held normally closed',
    );
    const held = (await current())!;
    expect(held.Doors.map((d) => [d.State, d.Mode])).toEqual(Array(7).fill(['held', 2]));
    // Each door's read-back went to the browsers and out as an event.
    expect(published.filter((e) => e.Type === 'LockdownDoor' && e.State === 'held')).toHaveLength(7);
    expect(await outbox('door.lockdown_confirmed')).toHaveLength(7);
    // The controllers enforce it: the granted card is refused, "door normally closed".
    expect(c0.swipe(card, 1).reason).toBe(11);
    // No schedule that sets a door mode is left on a controller meanwhile.
    expect(c0.rulesSnapshot().tasks).toHaveLength(0);
  }, 90_000);

  it('a schedule due during the lockdown does not open its door; a door mode by hand is refused', async () => {
    const c0 = controller(0);
    c0.setClock(at(16, 29));
    c0.tick();
    const swipe = c0.swipe(card, 1, 1, { at: at(16, 31) });
    expect(swipe.reason).toBe(11);
    expect(c0.effectiveMode(1)).toBe(2);
    const byHand = await call(h().app, 'POST', '/api/AccessControlChannel/SetDoorMode', {
      token: admin,
      area: AREA,
      lang: 'en',
      body: { Id: door1Channel, Mode: 1 },
    });
    expect(byHand.status).toBe(409);
    expect(byHand.msg).toBe(en('accessControl.error.lockdownHoldsDoors'));
  });

  it('a controller reset to defaults during the lockdown gets the mode back as soon as it answers', async () => {
    const c2 = controller(2);
    sim.restoreDefaults(Number(devices[2]!.SerialNumber));
    expect(c2.rulesSnapshot().doors.every((d) => d.mode === 3)).toBe(true);
    await until(async () => allDoors(2), 30_000, 'the reset controller held again');
  }, 60_000);

  it('a controller whose rules Gatehouse never set (joined the area meanwhile) is held too', async () => {
    const k = h().db.kysely;
    // As if the two-door controller had just joined the area: no rules set by Gatehouse, and a door another tool
    // set controlled.
    await k.deleteFrom('AccessControlRuleSync').where('DeviceId', '=', devices[1]!.Id).execute();
    controller(1).doorMode[0] = { mode: 3, delay: 7 };
    await until(async () => allDoors(2), 30_000, 'the joined controller held');
    const row = await k
      .selectFrom('AccessControlRuleSync')
      .select('Revision')
      .where('DeviceId', '=', devices[1]!.Id)
      .executeTakeFirst();
    expect(Number(row?.Revision)).toBeGreaterThan(0);
  }, 60_000);

  it('the release gives each door its own mode, delay and schedule, read back; audited and sent out', async () => {
    // An hour later in the area's clock: the one-door controller's 16:30 schedule came due while it was held.
    h().clock.advance(60 * 60_000);
    const released = await api<AreaLockdownItem>('POST', '/api/AreaInfo/LockdownRelease', {
      Id: AREA,
      Note: 'police cleared the building',
    });
    expect(released).toMatchObject({
      ReleasedByKind: 'user',
      Note: 'police cleared the building',
    });
    expect(released.Doors.every((d) => d.State === 'restoring')).toBe(true);
    await until(async () => (await current()) === null, 60_000, 'every door given back its own mode');
    const doors = (i: number) =>
      controller(i)
        .rulesSnapshot()
        .doors.map((d) => [d.mode, d.delay]);
    // The one-door controller's door: normally open, as its schedule had set it by now; its schedule is back.
    expect(doors(0)).toEqual([[1, 3]]);
    expect(controller(0).rulesSnapshot().tasks).toHaveLength(1);
    // The two-door controller's door 1 as its operator set it (controlled, 7 s); door 2 as it was (the
    // simulator's controlled, 3 s); the four-door controller as it held its doors before the lockdown.
    expect(doors(1)).toEqual([
      [3, 7],
      [3, 3],
    ]);
    expect(doors(2)).toEqual(Array(4).fill([3, 3]));
    expect(published.filter((e) => e.Type === 'LockdownDoor' && e.State === 'restored')).toHaveLength(7);

    const audit = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['Action', 'ActorKind', 'UserName', 'After'])
      .where('Entity', '=', 'AreaLockdown')
      .orderBy('Id')
      .execute();
    expect(audit.map((a) => [a.Action, a.ActorKind])).toEqual([
      ['lockdown', 'key'],
      ['releaseLockdown', 'user'],
    ]);
    expect(audit[0]!.UserName).toContain('alarm panel');
    expect(audit[1]!.UserName).toBe('admin');
    expect(JSON.parse(audit[0]!.After!)).toMatchObject({
      LockdownMode: 'lockdown',
      Reason: 'intruder reported at the east gate',
      DoorCount: 7,
    });
    expect(JSON.parse(audit[1]!.After!)).toMatchObject({ ReleaseNote: 'police cleared the building' });
    const [startedEvent] = await outbox('area.lockdown_started');
    expect(startedEvent!.data).toMatchObject({ Mode: 'lockdown', StartedByKind: 'key', AreaId: AREA });
    const [releasedEvent] = await outbox('area.lockdown_released');
    expect(releasedEvent!.data).toMatchObject({
      Note: 'police cleared the building',
      ReleasedByKind: 'user',
    });
    expect((await outbox('door.lockdown_confirmed')).filter((e) => e.data.State === 'restored')).toHaveLength(
      7,
    );
  }, 90_000);

  it('evacuation holds every door normally open, unlocked on the controllers, until released', async () => {
    // Two panels at once: one evacuation starts, the other is told one is in force (the unique index decides on
    // PostgreSQL, where both may pass the check).
    const body = { Id: AREA, Mode: 'evacuate', Reason: 'fire alarm, building 2' };
    const both = await Promise.all(
      [0, 1].map(() =>
        call(h().app, 'POST', '/api/AreaInfo/Lockdown', { token: admin, area: AREA, lang: 'en', body }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.msg).toBe(en('accessControl.error.lockdownInForce'));
    await until(async () => (await current())?.Confirmed === 7 && allDoors(1), 60_000, 'every door open');
    expect(
      devices.every((d, i) =>
        Array.from({ length: d.doors }, (_, n) => controller(i).isUnlocked(n + 1)).every(Boolean),
      ),
    ).toBe(true);
    await api('POST', '/api/AreaInfo/LockdownRelease', { Id: AREA, Note: 'all clear' });
    await until(async () => (await current()) === null, 60_000, 'every door given back');
    expect(
      controller(2)
        .rulesSnapshot()
        .doors.every((d) => d.mode === 3),
    ).toBe(true);
  }, 90_000);
});
