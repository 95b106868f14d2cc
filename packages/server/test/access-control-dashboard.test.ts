import { WgSimulator } from '@gatehouse/wg-simulator';
import { addLocalDays, displayToCard, startOfLocalDay, type HubEventInput } from '@gatehouse/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WgGateway } from '../src/gateways/wg/index.ts';
import {
  failSync,
  noteDoorStatus,
  recordRingRestarted,
  recordSwipe,
  saveDeviceState,
  storeControllerRecords,
  watchDoors,
  type DoorControllers,
} from '../src/modules/access-control/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { systemActor, type ServiceContext } from '../src/platform/context.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

const AREA = 1;
const ZONE = 'Asia/Shanghai';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Summary {
  TimeZone: string;
  Controllers: { Total: number; Online: number; Offline: number; Unknown: number; Syncing: number };
  Today: { Granted: number; Denied: number };
  Authorizations: { Pending: number; Failing: number };
  Alarms: {
    Open: number;
    Items: { Id: number; At: string; DeviceId: number; DoorNumber: number; EventReason: number | null }[];
  };
}

interface StatusRow {
  DeviceId: number;
  Protocol: number;
  Pending: number;
  Online: boolean | null;
  LastSeenAt: string | null;
  SyncState: string | null;
  SyncPhase: string | null;
  SyncDone: number;
  SyncTotal: number;
  SyncFinishedAt: string | null;
  SyncError: string | null;
  Failing: number;
  SyncAttempts: number;
  NextSyncAt: string | null;
}

/** A door-controller seam that does nothing: its presence says "a gateway runs". */
const idleControllers: DoorControllers = {
  openDoor: async () => {},
  setDoorMode: async () => {},
  setTime: async () => ({ driftSeconds: 0 }),
  syncNow: () => {},
  readCard: async () => ({ card: null, profiles: [], door: { mode: 3, delay: 3 }, driftSeconds: 0 }),
};

function ctxOf(h: Harness): ServiceContext {
  return { db: h.db, clock: h.clock, lang: 'en', actor: systemActor('test'), areaId: AREA };
}

async function wgDevices(h: Harness, areaId = AREA) {
  return h.db.kysely
    .selectFrom('AccessControlDevice')
    .select(['Id', 'SerialNumber', 'Name', 'Type'])
    .where('AreaId', '=', areaId)
    .where('Protocol', '=', 0)
    .where('Disabled', '=', 0)
    .orderBy('Id')
    .execute();
}

describeEachDb('access control: dashboard overview and the sync panel', (h) => {
  let admin: string;
  let acuser: string;
  let bikeuser: string;
  let ringIndex = 5_000_000;

  const summary = async (area = AREA) => {
    const reply = await call<Summary>(h().app, 'GET', '/api/AccessControlDashboard', {
      token: admin,
      area,
    });
    expect(reply.status, reply.msg).toBe(200);
    return reply.data;
  };
  const statusRows = async () => {
    const reply = await call<StatusRow[]>(h().app, 'GET', '/api/CardUserLinkChannel/DeviceStatusCounts', {
      token: acuser,
      area: AREA,
    });
    expect(reply.status, reply.msg).toBe(200);
    return reply.data;
  };
  /** A record as the controller's ring reports it (type 1 swipe, 2 door event, 3 alarm). */
  const ring = (deviceId: number, type: number, reason: number, at: number, door = 1, result = false) =>
    storeControllerRecords(ctxOf(h()), deviceId, [
      {
        DoorNumber: door,
        Direction: 1,
        CardValue: 0,
        At: at,
        Result: result,
        RecordIndex: ++ringIndex,
        EventType: type,
        EventReason: reason,
      },
    ]);

  beforeAll(async () => {
    admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    acuser = await login(h().app, 'acuser', DEMO_PASSWORD);
    bikeuser = await login(h().app, 'bikeuser', DEMO_PASSWORD);
  });

  it('is for the access-control codes, in the current area only', async () => {
    const ok = await call<Summary>(h().app, 'GET', '/api/AccessControlDashboard', {
      token: acuser,
      area: AREA,
    });
    expect(ok.status, ok.msg).toBe(200);
    expect(ok.data.TimeZone).toBe(ZONE);
    const garage = await call(h().app, 'GET', '/api/AccessControlDashboard', { token: bikeuser, area: AREA });
    expect(garage.status).toBe(403);
    const foreign = await call(h().app, 'GET', '/api/AccessControlDashboard', { token: acuser, area: 2 });
    expect(foreign.status).toBe(403);
    const noArea = await call(h().app, 'GET', '/api/AccessControlDashboard', { token: acuser });
    expect(noArea.status).toBe(400);
  });

  it("counts today's card swipes by result in the area's local day, without door events and alarms", async () => {
    const k = h().db.kysely;
    const now = h().clock.now();
    const today = startOfLocalDay(now, ZONE);
    // The obvious count: every swipe record of the local day.
    const expected = async (result: number) =>
      Number(
        (
          await k
            .selectFrom('DoorOpeningRecord')
            .select(sql<number>`count(*)`.as('n'))
            .where('AreaId', '=', AREA)
            .where('Result', '=', result)
            .where('At', '>=', today)
            .where('At', '<', addLocalDays(today, 1, ZONE))
            .where((eb) => eb.or([eb('EventType', 'is', null), eb('EventType', '=', 1)]))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await summary();
    const area2Before = (await summary(2)).Today;
    expect(before.Today).toEqual({ Granted: await expected(1), Denied: await expected(0) });
    expect(before.Today.Granted + before.Today.Denied).toBeGreaterThan(0);

    const [device] = await wgDevices(h());
    const holder = await k
      .selectFrom('Card')
      .select('CardNumber')
      .where('AreaId', '=', AREA)
      .where('CardUserId', 'is not', null)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const swipe = (At: number, Result: boolean) =>
      recordSwipe(k, {
        DeviceId: device!.Id,
        DoorNumber: 1,
        Direction: 1,
        CardValue: displayToCard(holder.CardNumber),
        At,
        Result,
        Reason: Result ? 1 : 4,
      });
    await swipe(today + 1, true); // just after local midnight: today
    await swipe(today - 1, true); // just before: yesterday (the UTC date is the same day)
    await swipe(today + 2, false);
    await ring(device!.Id, 2, 20, today + 3, 1, true); // push button: a door event, not a swipe
    await ring(device!.Id, 3, 38, today + 5, 2); // forced open: an alarm, not a swipe
    await ring(device!.Id, 1, 1, today + 4, 1, true); // a swipe read from the ring counts
    const after = await summary();
    expect(after.Today).toEqual({ Granted: before.Today.Granted + 2, Denied: before.Today.Denied + 1 });
    // Another area's overview does not count them.
    expect((await summary(2)).Today).toEqual(area2Before);
  });

  it('counts a door in alarm until it reports closed, for 24 hours, once per door', async () => {
    const now = h().clock.now();
    const [a, b] = await wgDevices(h());
    const before = await summary();

    await ring(a!.Id, 3, 38, now - 10 * MINUTE, 1); // forced open
    await ring(a!.Id, 3, 37, now - 5 * MINUTE, 1); // then held open: the same door, one alarm
    await ring(b!.Id, 3, 38, now - 25 * HOUR, 2); // older than a day: no longer counted
    let s = await summary();
    expect(s.Alarms.Open).toBe(before.Alarms.Open + 1);
    expect(s.Alarms.Items[0]).toMatchObject({ DeviceId: a!.Id, DoorNumber: 1, EventReason: 37 });
    expect(s.Alarms.Items[0]!.At).toBe(new Date(now - 5 * MINUTE).toISOString());

    await ring(b!.Id, 3, 38, now - MINUTE, 2);
    s = await summary();
    expect(s.Alarms.Open).toBe(before.Alarms.Open + 2);
    expect(s.Alarms.Items[0]).toMatchObject({ DeviceId: b!.Id, DoorNumber: 2, EventReason: 38 });

    // Door 1 of the first controller closes (sensor event 24): its alarm is over; the other door stays.
    await ring(a!.Id, 2, 24, now, 1, true);
    s = await summary();
    expect(s.Alarms.Open).toBe(before.Alarms.Open + 1);
    expect(s.Alarms.Items.some((i) => i.DeviceId === a!.Id && i.DoorNumber === 1)).toBe(false);
    // A door-closed event of another door clears nothing.
    await ring(b!.Id, 2, 24, now, 1, true);
    expect((await summary()).Alarms.Open).toBe(before.Alarms.Open + 1);
    // Area 2 sees none of area 1's alarms.
    const area2 = await summary(2);
    expect(area2.Alarms.Items.every((i) => i.DeviceId !== a!.Id && i.DeviceId !== b!.Id)).toBe(true);
  });

  it('does not count a door the system knows closed: closed after the alarm by time, or closed by its status', async () => {
    const ctx = ctxOf(h());
    const now = h().clock.now();
    const devices = await wgDevices(h());
    const c = devices[2]!;
    const d = devices[3]!;
    const inAlarm = async (device: { Id: number }, door: number) => {
      const s = await summary();
      return s.Alarms.Items.some((i) => i.DeviceId === device.Id && i.DoorNumber === door);
    };
    // The door watch has looked at both controllers once (its watermark): what follows is new to it.
    await watchDoors(ctx, [c.Id, d.Id]);
    const before = await summary();

    // Forced at 12:17:29 and closed at 12:17:49, but the ring started over in between (or the records were
    // stored without ring indexes): the closed event follows the alarm in time, and that is what counts.
    await ring(c.Id, 3, 38, now - 20_000, 1);
    await recordRingRestarted(ctx, c.Id, 0);
    expect(await inAlarm(c, 1)).toBe(true);
    await storeControllerRecords(ctx, c.Id, [
      {
        DoorNumber: 1,
        Direction: 1,
        CardValue: 0,
        At: now,
        Result: true,
        RecordIndex: 1,
        EventType: 2,
        EventReason: 24,
      },
    ]);
    const indexes = await h()
      .db.kysely.selectFrom('DoorOpeningRecord')
      .select(['RecordIndex', 'EventReason'])
      .where('DeviceId', '=', c.Id)
      .where('At', '>=', now - 20_000)
      .where('EventType', 'in', [2, 3])
      .orderBy('At')
      .execute();
    expect(indexes.map((r) => [r.EventReason, r.RecordIndex])).toEqual([
      [38, null],
      [24, 1],
    ]);
    expect(await inAlarm(c, 1)).toBe(false);
    // Both without an index (a second restart): still in time order.
    await ring(c.Id, 3, 38, now - 10_000, 2);
    await ring(c.Id, 2, 24, now - 5_000, 2, true);
    await recordRingRestarted(ctx, c.Id, 0);
    expect(await inAlarm(c, 2)).toBe(false);

    // Forced, and no closed event ever comes (special events off, or a restart in between): the controller's
    // status says the door is closed once the door watch has taken the alarm in.
    await ring(d.Id, 3, 38, now - 30_000, 1);
    await noteDoorStatus(ctx, d.Id, [{ door: 1, open: false, unlocked: false }]);
    // The status predates what the door watch knows of the alarm: the door is in alarm.
    expect(await inAlarm(d, 1)).toBe(true);
    await watchDoors(ctx, [d.Id]);
    expect(await inAlarm(d, 1)).toBe(true);
    await noteDoorStatus(ctx, d.Id, [{ door: 1, open: false, unlocked: false }]);
    expect(await inAlarm(d, 1)).toBe(false);

    const after = await summary();
    expect(after.Alarms.Open).toBe(before.Alarms.Open);
    expect(after.Alarms.Items).toEqual(before.Alarms.Items);
  });

  it('shows a forced door on the door monitor as soon as its record is stored, as the dashboard counts it', async () => {
    const ctx = ctxOf(h());
    const now = h().clock.now();
    const e = (await wgDevices(h()))[4]!;
    const tile = async () => {
      const reply = await call<{
        Doors: { DeviceId: number; DoorNumber: number; State: number; Since: string | null }[];
      }>(h().app, 'GET', '/api/DoorMonitor', { token: admin, area: AREA });
      expect(reply.status, reply.msg).toBe(200);
      return reply.data.Doors.find((d) => d.DeviceId === e.Id && d.DoorNumber === 1)!;
    };
    await watchDoors(ctx, [e.Id]);
    await noteDoorStatus(ctx, e.Id, [{ door: 1, open: false, unlocked: false }]);
    expect((await tile()).State).toBe(1); // closed

    // Forced: the door watch has not looked yet (it does at the gateway's next poll), the monitor shows it now.
    await ring(e.Id, 3, 38, now - 2_000, 1);
    expect(await tile()).toMatchObject({ State: 5, Since: new Date(now - 2_000).toISOString() });
    expect((await summary()).Alarms.Items.some((i) => i.DeviceId === e.Id && i.DoorNumber === 1)).toBe(true);
    // Closed again: both say so before the watch looks, and after.
    await ring(e.Id, 2, 24, now, 1, true);
    expect((await tile()).State).toBe(1);
    expect((await summary()).Alarms.Items.some((i) => i.DeviceId === e.Id && i.DoorNumber === 1)).toBe(false);
    await watchDoors(ctx, [e.Id]);
    expect((await tile()).State).toBe(1);
  });

  it('counts authorisations waiting for sync and those whose last attempt failed', async () => {
    const k = h().db.kysely;
    const pendingRows = () =>
      k
        .selectFrom('CardUserLinkChannel')
        .select(['Id', 'CardUserId', 'IssueStatus', 'UpdatedAt', 'DeviceId', 'SyncError'])
        .where('AreaId', '=', AREA)
        .where('IssueStatus', 'in', [1, 2, -1])
        .orderBy('Id')
        .execute();
    const rows = await pendingRows();
    expect(rows.length).toBeGreaterThan(2);
    let s = await summary();
    expect(s.Authorizations).toEqual({
      Pending: rows.length,
      Failing: rows.filter((r) => r.SyncError !== null).length,
    });
    const failingBefore = s.Authorizations.Failing;
    const device = rows[0]!.DeviceId;
    const ofDevice = rows.filter((r) => r.DeviceId === device && r.SyncError === null);
    await failSync(
      ctxOf(h()),
      ofDevice.map((r) => ({ ...r, UpdatedAt: Number(r.UpdatedAt) })),
      'offline',
      { baseMs: 2000, maxMs: 300_000 },
    );
    s = await summary();
    expect(s.Authorizations).toEqual({ Pending: rows.length, Failing: failingBefore + ofDevice.length });

    // The sync panel shows the same failure per device: how many, why, when the next try is due.
    const panel = (await statusRows()).find((d) => d.DeviceId === device)!;
    expect(panel.Failing).toBe(rows.filter((r) => r.DeviceId === device).length);
    expect(panel.SyncAttempts).toBeGreaterThanOrEqual(1);
    expect(Date.parse(panel.NextSyncAt!)).toBeGreaterThan(h().clock.now());
  });

  it('says a controller is online only while a gateway runs, and shows its sync in progress', async () => {
    const ctx = ctxOf(h());
    const devices = await wgDevices(h());
    const [first, second] = devices;
    const now = h().clock.now();
    await saveDeviceState(ctx, first!.Id, {
      Online: 1,
      LastSeenAt: now,
      SyncState: 'running',
      SyncPhase: 'write',
      SyncDone: 5,
      SyncTotal: 12,
      SyncStartedAt: now - 1000,
    });
    await saveDeviceState(ctx, second!.Id, {
      Online: 0,
      LastSeenAt: now - HOUR,
      SyncState: 'failed',
      SyncFinishedAt: now - 30_000,
      SyncError: 'timeout',
    });

    // No gateway: what was stored earlier is not known now.
    let s = await summary();
    expect(s.Controllers).toMatchObject({ Total: devices.length, Online: 0, Offline: 0, Syncing: 0 });
    expect(s.Controllers.Unknown).toBe(devices.length);
    let rows = await statusRows();
    expect(rows.find((d) => d.DeviceId === first!.Id)).toMatchObject({ Online: null, SyncState: null });
    const list = await call<{ Items: { Id: number; Online: boolean | null }[] }>(
      h().app,
      'GET',
      '/api/AccessControlDevice',
      { token: acuser, area: AREA, query: { PageIndex: 1, PageSize: 100 } },
    );
    expect(list.data.Items.find((d) => d.Id === first!.Id)?.Online).toBeNull();

    h().platform.seams.doorControllers = idleControllers;
    try {
      s = await summary();
      expect(s.Controllers).toMatchObject({ Total: devices.length, Online: 1, Offline: 1, Syncing: 1 });
      expect(s.Controllers.Unknown).toBe(devices.length - 2);
      rows = await statusRows();
      expect(rows.find((d) => d.DeviceId === first!.Id)).toMatchObject({
        Online: true,
        LastSeenAt: new Date(now).toISOString(),
        SyncState: 'running',
        SyncPhase: 'write',
        SyncDone: 5,
        SyncTotal: 12,
      });
      expect(rows.find((d) => d.DeviceId === second!.Id)).toMatchObject({
        Online: false,
        SyncState: 'failed',
        SyncError: 'timeout',
        SyncFinishedAt: new Date(now - 30_000).toISOString(),
      });
      // A device the gateway does not drive has no state.
      const other = rows.find((d) => d.Protocol !== 0)!;
      expect(other).toMatchObject({ Online: null, SyncState: null, SyncDone: 0, Failing: 0 });
    } finally {
      delete h().platform.seams.doorControllers;
    }
  });
});

describeEachDb('access control: the sync panel against a simulated controller', (h) => {
  let sim: WgSimulator;
  let gateway: WgGateway | undefined;
  let admin: string;
  let device: { Id: number; SerialNumber: string };
  const events: HubEventInput[] = [];

  const row = async () => {
    const reply = await call<StatusRow[]>(h().app, 'GET', '/api/CardUserLinkChannel/DeviceStatusCounts', {
      token: admin,
      area: AREA,
    });
    return reply.data.find((d) => d.DeviceId === device.Id)!;
  };
  const until = async (check: () => Promise<boolean>, what: string, ms = 30_000) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await row())}`);
  };

  beforeAll(async () => {
    const k = h().db.kysely;
    admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    const [first] = await wgDevices(h());
    device = first!;
    sim = await WgSimulator.start({ controllers: [Number(device.SerialNumber)], timeZone: ZONE });
    await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
    const { host, port } = sim.address(Number(device.SerialNumber));
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

  it('reports an unreachable controller with its reason and retry, then progress and success after "sync now"', async () => {
    expect((await row()).Pending).toBeGreaterThan(0);
    sim.setOffline(true);
    gateway = await WgGateway.start({
      db: h().db,
      clock: systemClock,
      hub: { publish: (_area, event) => events.push(event) },
      listen: null,
      pollSeconds: 0.2,
      syncSeconds: 0.1,
      driftMinutes: 60,
      // A long back-off: the retry must come from "sync now", not from the timer.
      backoff: { baseMs: 60_000, maxMs: 60_000 },
      // Short enough for the offline pass to fail fast, long enough that a pause of the test process (PostgreSQL,
      // a busy machine) does not fail the pass after "sync now" and push it behind the long back-off.
      driver: { timeoutMs: 200, tries: 2 },
    });
    // Started by hand, so declared by hand on the app's seams (app.ts does it for its own gateway).
    h().platform.seams.doorControllers = gateway;
    await until(async () => (await row()).SyncState === 'failed', 'the failed pass');
    const failed = await row();
    expect(['offline', 'timeout']).toContain(failed.SyncError);
    expect(failed.Online).toBe(false);
    expect(failed.Failing).toBe(failed.Pending);
    expect(failed.SyncAttempts).toBeGreaterThanOrEqual(1);
    expect(Date.parse(failed.NextSyncAt!)).toBeGreaterThan(Date.now() + 30_000);
    expect(failed.SyncFinishedAt).not.toBeNull();

    sim.setOffline(false);
    events.length = 0;
    const started = await call(h().app, 'POST', '/api/AccessControlDevice/SyncNow', {
      token: admin,
      area: AREA,
      body: { Id: device.Id },
    });
    expect(started.status, started.msg).toBe(200);
    // The row as it was when the pass ended (a later pass, rules due for instance, may already be running).
    let done: Awaited<ReturnType<typeof row>> | undefined;
    await until(async () => {
      const r = await row();
      if (r.Pending === 0 && r.SyncState === 'done') done = r;
      return done !== undefined;
    }, 'sync now to issue everything');
    expect(done).toMatchObject({
      SyncState: 'done',
      SyncError: null,
      Failing: 0,
      NextSyncAt: null,
      Online: true,
    });
    // The hub carried the progress the panel follows: phases with counts, then the outcome.
    const progress = events.flatMap((e) =>
      e.Type === 'SyncProgress' && e.DeviceId === device.Id ? [e] : [],
    );
    expect(progress.some((e) => e.Phase === 'write' && Number(e.Total) > 0)).toBe(true);
    const issued = progress.find((e) => e.Phase === 'done' && e.Ok === true && Number(e.Issued) > 0);
    expect(issued).toMatchObject({ Error: null });
    expect(sim.controller(Number(device.SerialNumber)).cardCount).toBeGreaterThan(0);
  }, 60_000);
});
