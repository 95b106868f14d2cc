import { WgSimulator } from '@gatehouse/wg-simulator';
import { displayToCard } from '@gatehouse/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/**
 * Access rules on a controller (issue 22) against the simulator, which enforces them as the controller does, with
 * 20 % of datagrams lost each way: time profiles (a linked one, and one compiled around a holiday), the task
 * list, interlock, anti-passback, keypads and passcodes converge; a swipe outside the card's profile is refused by
 * the controller and recorded with its reason; a second entry under anti-passback is refused; and after the
 * controller is reset to defaults everything (listener included) is given back.
 */
const AREA = 1;

async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const at = (y: number, mo: number, d: number, h: number, mi = 0) => ({
  year: y,
  month: mo,
  day: d,
  hour: h,
  minute: mi,
  second: 0,
});

describeEachDb('WG access rules against the simulator (20% loss)', (h) => {
  let sim: WgSimulator;
  let gateway: WgGateway | undefined;
  let token: string;
  let device: { Id: number; SerialNumber: string; Name: string };
  let serial: number;
  let door1: { Id: number; Name: string; Direction: number; DoorNumber: number };
  const holders: { Id: number; CardNumber: string }[] = [];
  const profiles: Record<string, number> = {};

  const api = async <T = unknown>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
    const r = await call<T>(h().app, method, url, { token, area: AREA, ...(body ? { body } : {}) });
    expect(r.status, `${method} ${url}: ${r.msg}`).toBe(200);
    return r.data;
  };

  const ruleState = () =>
    h()
      .db.kysely.selectFrom('AccessControlRuleSync')
      .selectAll()
      .where('DeviceId', '=', device.Id)
      .executeTakeFirst();

  const pendingCards = async () => {
    const row = await h()
      .db.kysely.selectFrom('CardUserLinkChannel')
      .select(sql<number>`count(*)`.as('n'))
      .where('DeviceId', '=', device.Id)
      .where('IssueStatus', 'in', [1, 2, -1])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  /** Everything Gatehouse asked for is on the simulated controller. */
  const converged = async () => {
    const state = await ruleState();
    if (!state || Number(state.Revision) !== Number(state.AppliedRevision) || state.State !== 'done')
      return false;
    if ((await pendingCards()) !== 0) return false;
    const c = sim.controller(serial);
    const rules = c.rulesSnapshot();
    const card = c.getCard(displayToCard(holders[0]!.CardNumber));
    return (
      rules.profiles.length === 3 &&
      rules.tasks.length === 1 &&
      rules.interlock === 1 &&
      rules.antiPassback === 1 &&
      rules.keypads[0] === true &&
      rules.passcodes[0]!.includes(123456) &&
      card !== undefined &&
      card.doors[0]! >= 2 &&
      c.listener.port === gateway!.listenerAddress()!.port
    );
  };

  /** How many profiles the simulated controller holds. */
  const c0 = () => sim.controller(serial).rulesSnapshot().profiles.length;

  /** What stands where, when a wait times out. */
  const explain = async (error: unknown) => {
    const c = sim.controller(serial);
    const { profiles: held, ...rules } = c.rulesSnapshot();
    console.log(
      'DEBUG',
      JSON.stringify(await ruleState()),
      await pendingCards(),
      JSON.stringify(c.listener),
      gateway?.listenerAddress()?.port,
      held.length,
      JSON.stringify({ ...rules, doorTasks: undefined }),
      JSON.stringify(c.getCard(displayToCard(holders[0]!.CardNumber))),
    );
    throw error;
  };

  beforeAll(async () => {
    const k = h().db.kysely;
    token = await login(h().app, 'admin', ADMIN_PASSWORD);
    device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber', 'Name'])
      .where('AreaId', '=', AREA)
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .where('SerialNumber', 'like', '2%')
      .orderBy('Id', 'desc')
      .executeTakeFirstOrThrow();
    serial = Number(device.SerialNumber);
    door1 = await k
      .selectFrom('AccessControlChannel')
      .select(['Id', 'Name', 'Direction', 'DoorNumber'])
      .where('DeviceId', '=', device.Id)
      .where('DoorNumber', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    holders.push(
      ...(await k
        .selectFrom('CardUser')
        .innerJoin('Card', 'Card.CardUserId', 'CardUser.Id')
        .select(['CardUser.Id', 'Card.CardNumber'])
        .where('CardUser.AreaId', '=', AREA)
        .where('CardUser.Disabled', '=', 0)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('CardUserLinkChannel')
                .select('Id')
                .whereRef('CardUserLinkChannel.CardUserId', '=', 'CardUser.Id')
                .where('CardUserLinkChannel.DeviceId', '=', device.Id),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('Card as C2')
                .select('C2.Id')
                .whereRef('C2.CardUserId', '=', 'CardUser.Id')
                .whereRef('C2.Id', '!=', 'Card.Id'),
            ),
          ),
        )
        .orderBy('CardUser.Id')
        .limit(3)
        .execute()),
    );
    expect(holders.length).toBe(3);
    // Holders valid through the dates the swipes below are made at.
    await k
      .updateTable('CardUser')
      .set({ ValidTo: Date.UTC(2029, 0, 1) })
      .where(
        'Id',
        'in',
        holders.map((x) => x.Id),
      )
      .execute();
    sim = await WgSimulator.start({ controllers: [{ serial }], timeZone: 'Asia/Shanghai' });
    await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
    const { host, port } = sim.address(serial);
    await k
      .updateTable('AccessControlDevice')
      .set({ Ip: host, Port: port })
      .where('Id', '=', device.Id)
      .execute();
  });

  afterAll(async () => {
    delete h().platform.seams.doorControllers;
    await gateway?.close();
    await sim?.close();
  });

  it('profiles (linked, holiday compiled), tasks, interlock, anti-passback, keypads and passcodes converge; the controller enforces them', async () => {
    // A holiday on a Monday; "Office" Mon-Fri 08:00-18:00 not on holidays, linked to "Weekend" Sat-Sun 10:00-16:00.
    await api('POST', '/api/Holiday', { Name: 'Labour Day', StartDate: '2027-05-03', EndDate: '2027-05-03' });
    const weekend = await api<{ Id: number }>('POST', '/api/TimeProfile', {
      Name: 'Weekend',
      StartDate: '2027-01-01',
      EndDate: '2027-12-31',
      Weekdays: [6, 7],
      Segments: [{ Start: '10:00', End: '16:00' }],
    });
    profiles.weekend = weekend.Id;
    const office = await api<{ Id: number }>('POST', '/api/TimeProfile', {
      Name: 'Office',
      StartDate: '2027-01-01',
      EndDate: '2027-12-31',
      Weekdays: [1, 2, 3, 4, 5],
      Segments: [{ Start: '08:00', End: '18:00' }],
      LinkedProfileId: weekend.Id,
      NotOnHolidays: true,
    });
    profiles.office = office.Id;
    // Two holders under "Office", one at any time.
    for (const [i, holder] of holders.entries())
      await api('POST', '/api/CardUserLinkChannel/Grant', {
        CardUserId: holder.Id,
        ChannelIds: [door1.Id],
        ...(i < 2 ? { TimeProfileId: office.Id } : {}),
      });
    await api('POST', '/api/DoorSchedule', {
      DeviceId: device.Id,
      DoorNumber: 2,
      Action: 4,
      Time: '22:00',
      Weekdays: [1, 2, 3, 4, 5],
      StartDate: '2027-01-01',
      EndDate: '2027-12-31',
    });
    await api('PUT', '/api/AccessControlDevice', {
      Id: device.Id,
      Name: device.Name,
      Interlock: 1,
      AntiPassback: 1,
    });
    await api('PUT', '/api/AccessControlChannel', {
      Id: door1.Id,
      Name: door1.Name,
      DoorNumber: 1,
      Direction: door1.Direction,
      Keypad: true,
      Passcodes: [123456, 654321],
    });
    // The passcodes are never returned, nor written to the operation log.
    const channel = await api<{ PasscodeCount: number; Passcodes?: unknown }>(
      'GET',
      `/api/AccessControlChannel/${door1.Id}`,
    );
    expect(channel.PasscodeCount).toBe(2);
    expect(channel.Passcodes).toBeUndefined();
    const logged = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(sql<string>`coalesce("Before", '') || coalesce("After", '')`.as('t'))
      .execute();
    expect(logged.some((r) => String(r.t).includes('123456'))).toBe(false);

    sim.dropRate = 0.2;
    gateway = await WgGateway.start({
      db: h().db,
      clock: systemClock,
      hub: h().hub,
      listen: '127.0.0.1:0',
      pollSeconds: 0.2,
      syncSeconds: 0.1,
      driftMinutes: 60,
      resetCheckSeconds: 0.5,
      offlineAlarmSeconds: 3,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 40, tries: 3 },
    });
    // Started by hand, so declared by hand on the app's seams (app.ts does it for its own gateway).
    h().platform.seams.doorControllers = gateway;
    await until(converged, 90_000, 'rules and cards on the controller').catch(explain);
    const c = sim.controller(serial);
    // "Office" is two controller profiles around the holiday, the second linked to "Weekend".
    const held = c.rulesSnapshot().profiles;
    expect(held.map((p) => [p.from, p.to])).toContainEqual([
      { year: 2027, month: 1, day: 1 },
      { year: 2027, month: 5, day: 2 },
    ]);
    const audit = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['Action', 'ActorKind'])
      .where('Action', '=', 'syncRules')
      .where('EntityId', '=', String(device.Id))
      .executeTakeFirst();
    expect(audit).toMatchObject({ ActorKind: 'device' });

    // The controller enforces them.
    sim.dropRate = 0;
    const [x, w, y] = holders.map((hd) => displayToCard(hd.CardNumber)) as [number, number, number];
    expect(c.swipe(x, 1, 1, { at: at(2027, 5, 3, 10) }).reason).toBe(15); // the holiday
    expect(c.swipe(x, 1, 1, { at: at(2027, 5, 9, 20) }).reason).toBe(15); // Sunday evening
    expect(c.swipe(x, 1, 1, { at: at(2027, 5, 4, 10) }).granted).toBe(true); // a Tuesday
    expect(c.swipe(w, 1, 1, { at: at(2027, 5, 8, 11) }).granted).toBe(true); // Saturday, by the link
    expect(c.swipe(y, 1, 1, { at: at(2027, 5, 10, 9) }).granted).toBe(true);
    expect(c.swipe(y, 1, 1, { at: at(2027, 5, 10, 9, 1) }).reason).toBe(8); // anti-passback
    // The refusals are collected and recorded with the controller's reason.
    const recorded = (reason: number) =>
      h()
        .db.kysely.selectFrom('DoorOpeningRecord')
        .select(sql<number>`count(*)`.as('n'))
        .where('DeviceId', '=', device.Id)
        .where('Result', '=', 0)
        .where('EventReason', '=', reason)
        .executeTakeFirst()
        .then((r) => Number(r?.n ?? 0));
    await until(
      async () => (await recorded(15)) >= 2 && (await recorded(8)) >= 1,
      20_000,
      'refusals recorded',
    );
  }, 180_000);

  it('after the controller is reset to defaults, everything is given back (listener, cards, rules)', async () => {
    const before = await ruleState();
    sim.dropRate = 0.2;
    sim.restoreDefaults(serial);
    await until(
      async () => Number((await ruleState())?.RestoredAt ?? 0) > Number(before?.RestoredAt ?? 0),
      30_000,
      'the reset noticed',
    );
    await until(converged, 90_000, 'rules, cards and listener given back').catch(explain);
    const restored = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['Action'])
      .where('Action', '=', 'restore')
      .where('EntityId', '=', String(device.Id))
      .executeTakeFirst();
    expect(restored).toBeDefined();
    sim.dropRate = 0;
  }, 180_000);

  it('a forced door shows on the door monitor with its alarm, live; an operator acknowledges it with a note, audited', async () => {
    const events: { Type: string }[] = [];
    const leave = h().hub.join(AREA, {
      send: (data: string) => events.push(JSON.parse(data) as { Type: string }),
      close: () => {},
    });
    const c = sim.controller(serial);
    c.forceDoor(2);
    interface Monitor {
      Doors: { DeviceId: number; DoorNumber: number; State: number }[];
      OpenAlarms: { Id: number; Kind: number; DeviceId: number; DoorNumber: number }[];
    }
    let monitor: Monitor | undefined;
    await until(
      async () => {
        monitor = await api<Monitor>('GET', '/api/DoorMonitor');
        const door = monitor.Doors.find((d) => d.DeviceId === device.Id && d.DoorNumber === 2);
        return door?.State === 5 && monitor.OpenAlarms.some((a) => a.Kind === 1 && a.DeviceId === device.Id);
      },
      20_000,
      'the forced door and its alarm',
    );
    const alarm = monitor!.OpenAlarms.find((a) => a.Kind === 1 && a.DeviceId === device.Id)!;
    expect(alarm.DoorNumber).toBe(2);
    const summary = await api<{ OpenAlarms: { Count: number } }>('GET', '/api/AccessControlDashboard');
    expect(summary.OpenAlarms.Count).toBeGreaterThan(0);
    await api('POST', '/api/DoorAlarm/Acknowledge', {
      Ids: [alarm.Id],
      Note: 'Checked on site: door wedged',
    });
    const again = await call(h().app, 'POST', '/api/DoorAlarm/Acknowledge', {
      token,
      area: AREA,
      body: { Ids: [alarm.Id], Note: 'twice' },
    });
    expect(again.status).toBe(409);
    const row = await h()
      .db.kysely.selectFrom('DoorAlarm')
      .selectAll()
      .where('Id', '=', alarm.Id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ State: 1, Note: 'Checked on site: door wedged' });
    const audited = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['Action', 'ActorKind'])
      .where('Entity', '=', 'DoorAlarm')
      .where('EntityId', '=', String(alarm.Id))
      .execute();
    expect(audited.map((a) => `${a.Action}/${a.ActorKind}`).sort()).toEqual([
      'acknowledge/user',
      'raise/device',
    ]);
    leave();
    expect(events.some((e) => e.Type === 'AlarmRaised')).toBe(true);
    expect(events.some((e) => e.Type === 'DoorState')).toBe(true);
    expect(events.some((e) => e.Type === 'AlarmChanged')).toBe(true);
    // The door closes: its state follows.
    c.setDoorSensor(2, false);
  }, 60_000);

  it('refused swipes piling up at a door, and a controller gone silent, raise alarms; its return clears the offline one', async () => {
    sim.dropRate = 0;
    const c = sim.controller(serial);
    const openOf = async (kind: number) =>
      (
        await api<{ OpenAlarms: { Id: number; Kind: number; DeviceId: number; ClearedAt: string | null }[] }>(
          'GET',
          '/api/DoorMonitor',
        )
      ).OpenAlarms.find((a) => a.Kind === kind && a.DeviceId === device.Id);
    for (let i = 0; i < 3; i++) c.swipe(123, 2, 1);
    await until(async () => (await openOf(3)) !== undefined, 20_000, 'the refused-swipes alarm');
    sim.setOffline(true, serial);
    await until(async () => (await openOf(4)) !== undefined, 30_000, 'the offline alarm');
    sim.setOffline(false, serial);
    await until(async () => (await openOf(4))?.ClearedAt != null, 30_000, 'the offline alarm cleared');
  }, 90_000);

  it('"sync now" writes again what the protocol cannot read back (a task list emptied behind its back)', async () => {
    const c = sim.controller(serial);
    c.rules.tasks = [];
    c.rules.keypads = [false, false, false, false];
    await api('POST', '/api/AccessControlDevice/SyncNow', { Id: device.Id });
    await until(
      async () => c.rulesSnapshot().tasks.length === 1 && c.rulesSnapshot().keypads[0] === true,
      30_000,
      'the task list and keypads written again',
    );
  }, 60_000);

  it('a plan over the 253 profile slots is refused with why, before anything is sent', async () => {
    // Every other day of 2027-2028 a holiday: a daily profile "not on holidays" splits into ~365 parts.
    const k = h().db.kysely;
    const days: string[] = [];
    for (let d = Date.UTC(2027, 0, 2); d <= Date.UTC(2028, 11, 31); d += 2 * 86_400_000)
      days.push(new Date(d).toISOString().slice(0, 10));
    const now = Date.now();
    await k
      .insertInto('Holiday')
      .values(
        days.map((d, i) => ({
          AreaId: AREA,
          Name: `H${i}`,
          StartDate: d,
          EndDate: d,
          Remark: null,
          CreatedAt: now,
          UpdatedAt: now,
        })),
      )
      .execute();
    const split = await api<{ Id: number }>('POST', '/api/TimeProfile', {
      Name: 'Split',
      StartDate: '2027-01-01',
      EndDate: '2028-12-31',
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Segments: [{ Start: '09:00', End: '17:00' }],
      NotOnHolidays: true,
    });
    const before = c0();
    const refused = await call(h().app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: AREA,
      lang: 'en',
      body: { CardUserId: holders[2]!.Id, ChannelIds: [door1.Id], TimeProfileId: split.Id },
    });
    expect(refused.status).toBe(409);
    expect(refused.msg).toMatch(/would need \d+ profile slots, at most 253 fit/);
    expect(refused.msg).toContain('Split');
    // Nothing changed: the grant kept its profile, the controller its profiles.
    const link = await k
      .selectFrom('CardUserLinkChannel')
      .select('TimeProfileId')
      .where('CardUserId', '=', holders[2]!.Id)
      .where('ChannelId', '=', door1.Id)
      .executeTakeFirst();
    expect(link?.TimeProfileId ?? null).toBeNull();
    expect(c0()).toBe(before);
  }, 60_000);
});
