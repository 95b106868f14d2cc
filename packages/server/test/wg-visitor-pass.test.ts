import { WgSimulator, type SimDate, type SimDateTime } from '@gatehouse/wg-simulator';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';
import { wallClock } from './support/wall-clock.ts';

/**
 * Visitor passes on a controller (issue 31, docs/access-control.md "Visitor passes") against the simulator, which
 * enforces card dates and time profiles as a controller does, with 20 % of datagrams lost each way: a pass
 * appears on the controller with its dates and the time profile of its hours, opens its door inside them and
 * not outside, and its swipes reach the visitor log with the host; a revoke takes its card off at once; its end
 * (the area's clock moved past it) takes it off within a minute, by the app's own expiry sweep; a reset of the
 * controller during its life gives it back, after its end does not.
 *
 * The app's clock (the harness's manual clock) runs with real time from real now, so the gateway's back-offs and
 * the sweep's schedule run as in production, and is moved forward by hand to reach a pass's end.
 */
const AREA = 1;
const ZONE = 'Asia/Shanghai';
const MINUTE = 60_000;

interface Pass {
  Id: number;
  CardNumber: string;
  CardValue: number;
  ValidFrom: string;
  ValidTo: string;
  State: number;
  HoursOnController: boolean;
  HostName: string;
}

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/** An instant as the area's wall clock (the simulated controller's own clock runs in the same zone). */
const wall = (ms: number): SimDateTime => wallClock(ms, ZONE);

const dateOf = (ms: number): SimDate => {
  const { year, month, day } = wall(ms);
  return { year, month, day };
};

describeEachDb('visitor passes on a controller (simulator, 20% loss)', (h) => {
  let sim: WgSimulator;
  let gateway: WgGateway | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let token: string;
  let serial: number;
  let deviceId: number;
  let door1: { Id: number };
  let host: { Id: number; Name: string };

  const api = async <T = unknown>(method: 'GET' | 'POST', url: string, body?: unknown, query?: object) => {
    const r = await call<T>(h().app, method, url, {
      token,
      area: AREA,
      ...(body ? { body } : {}),
      ...(query ? { query: query as Record<string, string | number> } : {}),
    });
    expect(r.status, `${method} ${url}: ${r.msg}`).toBe(200);
    return r.data;
  };
  /** The next whole minute of the app's clock, plus `minutes`. */
  const minute = (minutes: number) => Math.ceil(h().clock.now() / MINUTE) * MINUTE + minutes * MINUTE;
  const issue = (from: number, to: number, name: string) =>
    api<Pass>('POST', '/api/VisitorPass', {
      VisitorName: name,
      Company: 'Simulated Visits',
      HostCardUserId: host.Id,
      ChannelIds: [door1.Id],
      ValidFrom: from,
      ValidTo: to,
    });
  const onController = (pass: Pass) => sim.controller(serial).getCard(pass.CardValue);
  /** Nothing waits for the controller: no authorisation of it is pending. */
  const settled = async () => {
    const row = await h()
      .db.kysely.selectFrom('CardUserLinkChannel')
      .select(sql<number>`count(*)`.as('n'))
      .where('DeviceId', '=', deviceId)
      .where('IssueStatus', 'in', [1, 2, -1])
      .executeTakeFirst();
    return Number(row?.n ?? 0) === 0;
  };

  /** What stands where, when a wait times out. */
  const explain = (pass: Pass) => async (error: unknown) => {
    const k = h().db.kysely;
    console.log(
      'DEBUG',
      JSON.stringify(
        await k
          .selectFrom('CardUserLinkChannel as L')
          .innerJoin('VisitorPass as P', 'P.CardUserId', 'L.CardUserId')
          .select(['L.IssueStatus', 'L.SyncError', 'L.SyncAttempts', 'L.NextSyncAt', 'L.TimeProfileId'])
          .where('P.Id', '=', pass.Id)
          .execute(),
      ),
      JSON.stringify(
        await k.selectFrom('AccessControlRuleSync').selectAll().where('DeviceId', '=', deviceId).execute(),
      ),
      JSON.stringify(
        await k.selectFrom('AccessControlDeviceState').selectAll().where('DeviceId', '=', deviceId).execute(),
      ),
      h().clock.now(),
      Date.now(),
    );
    throw error;
  };

  beforeAll(async () => {
    const k = h().db.kysely;
    // The app's clock from real now on, moving with real time (moved further by hand below).
    h().clock.advance(Date.now() - h().clock.now());
    let last = Date.now();
    ticker = setInterval(() => {
      const t = Date.now();
      h().clock.advance(t - last);
      last = t;
    }, 50);
    token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber'])
      .where('AreaId', '=', AREA)
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .where('SerialNumber', 'like', '2%')
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    deviceId = device.Id;
    serial = Number(device.SerialNumber);
    door1 = await k
      .selectFrom('AccessControlChannel')
      .select(['Id'])
      .where('DeviceId', '=', device.Id)
      .where('DoorNumber', '=', 1)
      .where('Direction', '=', 1)
      .executeTakeFirstOrThrow();
    host = await k
      .selectFrom('CardUser')
      .select(['Id', 'Name'])
      .where('AreaId', '=', AREA)
      .where('Disabled', '=', 0)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    // The controller holds the passes alone: every sync pass reads its whole card list back, and under 20 % loss
    // the demo's other cards would only make each pass longer.
    await k.deleteFrom('CardUserLinkChannel').where('DeviceId', '=', deviceId).execute();
    sim = await WgSimulator.start({ controllers: [{ serial }], timeZone: ZONE });
    await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
    const { host: ip, port } = sim.address(serial);
    await k
      .updateTable('AccessControlDevice')
      .set({ Ip: ip, Port: port })
      .where('Id', '=', device.Id)
      .execute();
    sim.dropRate = 0.2;
    gateway = await WgGateway.start({
      db: h().db,
      clock: h().clock,
      hub: h().hub,
      listen: '127.0.0.1:0',
      pollSeconds: 0.2,
      syncSeconds: 0.1,
      driftMinutes: 60,
      resetCheckSeconds: 0.5,
      offlineAlarmSeconds: 30,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 40, tries: 3 },
    });
    h().platform.seams.doorControllers = gateway;
  }, 60_000);

  afterAll(async () => {
    clearInterval(ticker);
    delete h().platform.seams.doorControllers;
    await gateway?.close();
    await sim?.close();
  });

  let long: Pass;

  it('a pass appears on the controller with its dates and hours, opens its door inside them only, and is logged with its host', async () => {
    const from = minute(1);
    long = await issue(from, from + 90 * MINUTE, 'Grace Hopper');
    expect(long.HoursOnController).toBe(true);
    await until(() => onController(long) !== undefined, 90_000, 'the pass on the controller');
    await until(settled, 90_000, 'the pass confirmed');
    const card = onController(long)!;
    expect(card.from).toEqual(dateOf(from));
    expect(card.to).toEqual(dateOf(from + 90 * MINUTE - 1000));
    // Door 1 by a time profile (2..254), no other door.
    expect(card.doors[0]).toBeGreaterThanOrEqual(2);
    expect(card.doors.slice(1)).toEqual([0, 0, 0]);
    const c = sim.controller(serial);
    expect(c.rulesSnapshot().profiles.some((p) => p.id === card.doors[0])).toBe(true);
    sim.dropRate = 0;
    const inside = c.swipe(long.CardValue, 1, 1, { at: wall(from + 30 * MINUTE) });
    expect(inside.granted).toBe(true);
    // Before its start and after its end the controller itself refuses it (its profile, or its dates).
    expect([15, 6]).toContain(c.swipe(long.CardValue, 1, 1, { at: wall(from - 5 * MINUTE) }).reason);
    expect([15, 6]).toContain(c.swipe(long.CardValue, 1, 1, { at: wall(from + 95 * MINUTE) }).reason);
    // Back to the real time for what follows (the controller's clock as the gateway would set it).
    c.setClock(wall(Date.now()));
    sim.dropRate = 0.2;
    // Every swipe of the pass, with its host, in the visitor log (read from the swipe records).
    const range = { StartTime: from - 60 * MINUTE, EndTime: from + 120 * MINUTE, VisitorPassId: long.Id };
    let entries: { Result: boolean; HostName: string }[] = [];
    await until(
      async () => {
        entries = (await api<{ Items: typeof entries }>('GET', '/api/VisitorLog', undefined, range)).Items;
        return entries.length >= 3;
      },
      30_000,
      'the swipes in the visitor log',
    );
    expect(entries.filter((e) => e.Result)).toHaveLength(1);
    expect(entries.every((e) => e.HostName === host.Name)).toBe(true);
  }, 180_000);

  it('a revoke takes the card off the controller at once', async () => {
    const from = minute(1);
    const pass = await issue(from, from + 60 * MINUTE, 'Alan Turing');
    await until(() => onController(pass) !== undefined, 90_000, 'the pass on the controller').catch(
      explain(pass),
    );
    const revoked = await api<Pass>('POST', '/api/VisitorPass/Revoke', { Id: pass.Id });
    expect(revoked.State).toBe(3);
    const took = await until(() => onController(pass) === undefined, 60_000, 'the card taken off');
    expect(took).toBeLessThan(30_000);
    await until(settled, 60_000, 'its removal confirmed');
    // The other pass is untouched.
    expect(onController(long)).toBeDefined();
  }, 180_000);

  it('a reset during its life gives it back; after its end, which takes it off within a minute, it does not', async () => {
    const from = minute(1);
    const short = await issue(from, from + 3 * MINUTE, 'Katherine Johnson');
    await until(
      () => onController(short) !== undefined && onController(long) !== undefined,
      90_000,
      'both passes',
    );
    const restoredAt = async () =>
      Number(
        (
          await h()
            .db.kysely.selectFrom('AccessControlRuleSync')
            .select('RestoredAt')
            .where('DeviceId', '=', deviceId)
            .executeTakeFirst()
        )?.RestoredAt ?? 0,
      );
    // Reset during both passes' lives: both come back, with their dates.
    const before = await restoredAt();
    sim.restoreDefaults(serial);
    expect(onController(short)).toBeUndefined();
    await until(async () => (await restoredAt()) > before, 60_000, 'the reset noticed');
    await until(
      () => onController(short) !== undefined && onController(long) !== undefined,
      90_000,
      'both passes given back',
    );
    expect(onController(short)!.to).toEqual(dateOf(from + 3 * MINUTE - 1000));

    // The short one's end: the area's clock moves past it; the expiry sweep (the app's singleton) ends it and the
    // sync takes its card off within a minute.
    h().clock.advance(Date.parse(short.ValidTo) + 1000 - h().clock.now());
    const took = await until(() => onController(short) === undefined, 60_000, 'the ended pass taken off');
    expect(took).toBeLessThan(60_000);
    // Ended by the sweep (the sync may take the card off first: a plan never holds a pass past its end).
    await until(
      async () => (await api<Pass>('GET', `/api/VisitorPass/${short.Id}`)).State === 2,
      60_000,
      'the pass ended by the sweep',
    );
    await until(settled, 60_000, 'its removal confirmed');

    // Reset after its end: only the valid pass comes back.
    const second = await restoredAt();
    sim.restoreDefaults(serial);
    await until(async () => (await restoredAt()) > second, 60_000, 'the second reset noticed');
    await until(() => onController(long) !== undefined, 90_000, 'the valid pass given back');
    await until(settled, 90_000, 'the controller in line');
    expect(onController(short)).toBeUndefined();
    sim.dropRate = 0;
  }, 300_000);
});
