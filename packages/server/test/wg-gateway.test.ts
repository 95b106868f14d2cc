import { WgSimulator } from '@gatehouse/wg-simulator';
import { cardToDisplay, displayToCard } from '@gatehouse/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { WgGateway, cardRecordOf, type WgGatewayOptions } from '../src/gateways/wg/index.ts';
import { syncPlan } from '../src/modules/access-control/index.ts';
import { systemClock } from '../src/platform/clock.ts';
import { systemActor } from '../src/platform/context.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

const AREA = 1;

/** Polls `check` until it holds (or fails the test after `ms`). */
async function until(check: () => Promise<boolean>, ms = 30_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('WG configuration', () => {
  it('listens on 0.0.0.0:60099 by default, polls every 10 s, and reads each variable with a named error', () => {
    expect(loadConfig({}).wg).toEqual({
      enabled: true,
      listen: '0.0.0.0:60099',
      advertise: null,
      pollSeconds: 10,
      timeoutMs: 300,
      tries: 3,
    });
    expect(loadConfig({}).simulator).toBe(true);
    const custom = loadConfig({
      WG: 'off',
      WG_LISTEN: 'off',
      WG_ADVERTISE: '203.0.113.7:61000',
      WG_POLL: '1m',
      SIMULATOR: 'off',
    });
    expect(custom.wg).toMatchObject({
      enabled: false,
      listen: null,
      advertise: '203.0.113.7:61000',
      pollSeconds: 60,
    });
    expect(custom.simulator).toBe(false);
    for (const [name, value] of [
      ['WG', 'maybe'],
      ['WG_LISTEN', 'localhost'],
      ['WG_ADVERTISE', '1.2.3.4:70000'],
      ['WG_POLL', 'often'],
      ['WG_TIMEOUT', '5'],
      ['WG_TRIES', '0'],
      ['SIMULATOR', 'sometimes'],
    ])
      expect(() => loadConfig({ [name!]: value }), name).toThrowError(ConfigError);
  });
});

describeEachDb('WG gateway against the simulator', (h) => {
  let sim: WgSimulator;
  let gateway: WgGateway | undefined;
  let token: string;
  let device: { Id: number; SerialNumber: string; Name: string };
  let ringDevice: { Id: number; SerialNumber: string };

  const start = async (extra: Partial<WgGatewayOptions> = {}) => {
    gateway = await WgGateway.start({
      db: h().db,
      clock: systemClock,
      hub: h().hub,
      listen: '127.0.0.1:0',
      pollSeconds: 0.2,
      syncSeconds: 0.1,
      driftMinutes: 60,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 40, tries: 3 },
      ...extra,
    });
    // Started by hand, so declared by hand on the app's seams (app.ts does it for its own gateway).
    h().platform.seams.doorControllers = gateway;
    return gateway;
  };
  const stop = async () => {
    delete h().platform.seams.doorControllers;
    await gateway?.close();
    gateway = undefined;
  };

  const pending = async (deviceId: number) => {
    const row = await h()
      .db.kysely.selectFrom('CardUserLinkChannel')
      .select(sql<number>`count(*)`.as('n'))
      .where('DeviceId', '=', deviceId)
      .where('IssueStatus', 'in', [1, 2, -1])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  /** The controller's card store equals what the authorisations ask, card by card. */
  const storeMatches = async () => {
    const ctx = {
      db: h().db,
      clock: systemClock,
      lang: 'en' as const,
      actor: systemActor('test'),
      areaId: AREA,
    };
    const plan = await syncPlan(ctx, device.Id);
    const zone = 'Asia/Shanghai';
    const held = sim.controller(Number(device.SerialNumber)).cards();
    if (held.length !== plan.cards.size) return false;
    for (const c of held) {
      const want = plan.cards.get(c.card);
      if (!want) return false;
      const rec = cardRecordOf(want, zone);
      if (JSON.stringify([rec.from, rec.to, rec.doors]) !== JSON.stringify([c.from, c.to, c.doors]))
        return false;
    }
    return true;
  };
  const converged = async () => (await pending(device.Id)) === 0 && (await storeMatches());

  beforeAll(async () => {
    const k = h().db.kysely;
    token = await login(h().app, 'admin', ADMIN_PASSWORD);
    // An enabled two-door controller with authorisations waiting, and holders left to grant (the first
    // controllers of the demo carry every holder).
    const candidates = await k
      .selectFrom('AccessControlDevice as D')
      .select(['D.Id', 'D.SerialNumber', 'D.Name'])
      .select((eb) => [
        eb
          .selectFrom('CardUserLinkChannel')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('DeviceId', '=', 'D.Id')
          .as('Links'),
        eb
          .selectFrom('CardUserLinkChannel')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('DeviceId', '=', 'D.Id')
          .where('IssueStatus', 'in', [1, 2, -1])
          .as('Pending'),
      ])
      .where('D.AreaId', '=', AREA)
      .where('D.Protocol', '=', 0)
      .where('D.Disabled', '=', 0)
      .orderBy('D.Id')
      .execute();
    device = candidates.find(
      (d) => d.SerialNumber.startsWith('2') && Number(d.Pending) > 0 && Number(d.Links) < 40,
    )!;
    expect(device).toBeDefined();
    ringDevice = candidates.find((d) => d.Id !== device.Id)!;
    sim = await WgSimulator.start({
      controllers: [
        { serial: Number(device.SerialNumber) },
        { serial: Number(ringDevice.SerialNumber), recordCapacity: 20 },
      ],
      timeZone: 'Asia/Shanghai',
    });
    // Only the two simulated controllers have an address: nothing else is contacted.
    await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
    for (const d of [device, ringDevice]) {
      const { host, port } = sim.address(Number(d.SerialNumber));
      await k
        .updateTable('AccessControlDevice')
        .set({ Ip: host, Port: port })
        .where('Id', '=', d.Id)
        .execute();
    }
  });

  afterAll(async () => {
    await stop();
    await sim?.close();
  });

  it('issues every pending authorisation of a controller: statuses reach 3 / -2 and the card store matches', async () => {
    expect(await pending(device.Id)).toBeGreaterThan(0);
    await start();
    await until(converged, 30_000, 'initial sync');
    const audit = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['ActorKind', 'ActorId', 'UserName'])
      .where('Action', '=', 'sync')
      .where('ActorId', '=', device.Id)
      .executeTakeFirst();
    expect(audit).toMatchObject({ ActorKind: 'device', UserName: device.Name });
    const stateRow = () =>
      h()
        .db.kysely.selectFrom('AccessControlDeviceState')
        .selectAll()
        .where('DeviceId', '=', device.Id)
        .executeTakeFirst();
    await until(async () => !!(await stateRow())?.ListenerAddress, 10_000, 'the controller configured');
    const state = await h()
      .db.kysely.selectFrom('AccessControlDeviceState')
      .selectAll()
      .where('DeviceId', '=', device.Id)
      .executeTakeFirstOrThrow();
    expect(state.Online).toBe(1);
    expect(state.Firmware).toBe('8.92');
    expect(state.ListenerAddress).toBe(`127.0.0.1:${gateway!.listenerAddress()!.port}`);
  });

  it('grant, change of validity and revoke converge, also with 20% of packets lost', async () => {
    const k = h().db.kysely;
    const channel = await k
      .selectFrom('AccessControlChannel')
      .select(['Id', 'DoorNumber'])
      .where('DeviceId', '=', device.Id)
      .where('DoorNumber', '=', 2)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const holders = await k
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
              .where('CardUserLinkChannel.ChannelId', '=', channel.Id),
          ),
        ),
      )
      .orderBy('CardUser.Id')
      .limit(6)
      .execute();
    expect(holders.length).toBe(6);
    for (const lossy of [false, true]) {
      sim.dropRate = lossy ? 0.2 : 0;
      const group = lossy ? holders.slice(3) : holders.slice(0, 3);
      for (const holder of group) {
        const granted = await call(h().app, 'POST', '/api/CardUserLinkChannel/Grant', {
          token,
          area: AREA,
          body: { CardUserId: holder.Id, ChannelIds: [channel.Id] },
        });
        expect(granted.status, granted.msg).toBe(200);
      }
      await until(converged, 60_000, `grant (lossy ${lossy})`);
      const card = sim.controller(Number(device.SerialNumber)).getCard(displayToCard(group[0]!.CardNumber));
      expect(card?.doors[1]).toBe(1);

      const link = await k
        .selectFrom('CardUserLinkChannel')
        .select(['Id', 'IssueStatus'])
        .where('CardUserId', '=', group[0]!.Id)
        .where('ChannelId', '=', channel.Id)
        .executeTakeFirstOrThrow();
      expect(link.IssueStatus).toBe(3);
      const validTo = Date.UTC(2027, 2, 15, 4);
      const changed = await call(h().app, 'PUT', '/api/CardUserLinkChannel', {
        token,
        area: AREA,
        body: { Id: link.Id, ValidFrom: Date.UTC(2026, 0, 1), ValidTo: validTo },
      });
      expect(changed.status, changed.msg).toBe(200);
      await until(converged, 60_000, `validity (lossy ${lossy})`);
      // The card carries the authorisation's range narrowed by the holder's, as a local date of the area.
      const holderTo = await k
        .selectFrom('CardUser')
        .select('ValidTo')
        .where('Id', '=', group[0]!.Id)
        .executeTakeFirstOrThrow();
      const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' })
        .format(Math.min(validTo, Number(holderTo.ValidTo)))
        .split('-')
        .map(Number);
      expect(
        sim.controller(Number(device.SerialNumber)).getCard(displayToCard(group[0]!.CardNumber))?.to,
      ).toEqual({
        year: y,
        month: m,
        day: d,
      });

      const revoked = await call(h().app, 'POST', '/api/CardUserLinkChannel/Revoke', {
        token,
        area: AREA,
        body: { Ids: [link.Id] },
      });
      expect(revoked.status, revoked.msg).toBe(200);
      await until(converged, 60_000, `revoke (lossy ${lossy})`);
      const after = await k
        .selectFrom('CardUserLinkChannel')
        .select('IssueStatus')
        .where('Id', '=', link.Id)
        .executeTakeFirstOrThrow();
      expect(after.IssueStatus).toBe(-2);
      expect(
        sim.controller(Number(device.SerialNumber)).getCard(displayToCard(group[0]!.CardNumber)),
      ).toBeUndefined();
    }
    sim.dropRate = 0;
  }, 240_000);

  it('rebuilds a controller whose card list was cleared', async () => {
    const c = sim.controller(Number(device.SerialNumber));
    expect(c.cardCount).toBeGreaterThan(0);
    c.deleteAllCards();
    await until(async () => c.cardCount > 0 && (await converged()), 30_000, 'rebuild');
  });

  it('opens a door, sets its mode and the clock from the API, audited, and refuses clearly when the controller is away', async () => {
    const k = h().db.kysely;
    const serial = Number(device.SerialNumber);
    const channel = await k
      .selectFrom('AccessControlChannel')
      .select(['Id', 'DoorNumber'])
      .where('DeviceId', '=', device.Id)
      .where('DoorNumber', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const opened = await call(h().app, 'POST', '/api/AccessControlChannel/OpenDoor', {
      token,
      area: AREA,
      body: { Id: channel.Id },
    });
    expect(opened.status, opened.msg).toBe(200);
    await until(
      async () =>
        !!(await k
          .selectFrom('DoorOpeningRecord')
          .select('Id')
          .where('DeviceId', '=', device.Id)
          .where('EventReason', '=', 44)
          .executeTakeFirst()),
      10_000,
      'the remote-open record',
    );
    const entry = await k
      .selectFrom('AuditLog')
      .select(['UserName', 'ActorKind', 'EntityId'])
      .where('Action', '=', 'openDoor')
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ UserName: 'admin', ActorKind: 'user', EntityId: String(channel.Id) });

    const mode = await call(h().app, 'POST', '/api/AccessControlChannel/SetDoorMode', {
      token,
      area: AREA,
      body: { Id: channel.Id, Mode: 2, Delay: 5 },
    });
    expect(mode.status, mode.msg).toBe(200);
    expect(sim.controller(serial).doorMode[0]).toEqual({ mode: 2, delay: 5 });
    await call(h().app, 'POST', '/api/AccessControlChannel/SetDoorMode', {
      token,
      area: AREA,
      body: { Id: channel.Id, Mode: 3, Delay: 3 },
    });

    sim.setDrift(serial, 120);
    const time = await call<{ DriftSeconds: number }>(h().app, 'POST', '/api/AccessControlDevice/SetTime', {
      token,
      area: AREA,
      body: { Id: device.Id },
    });
    expect(time.status, time.msg).toBe(200);
    expect(Math.abs(time.data.DriftSeconds - 120)).toBeLessThanOrEqual(2);
    expect(Math.abs(sim.controller(serial).clockOffsetMs)).toBeLessThanOrEqual(2000);

    const sync = await call(h().app, 'POST', '/api/AccessControlDevice/SyncNow', {
      token,
      area: AREA,
      body: { Id: device.Id },
    });
    expect(sync).toMatchObject({ status: 200, data: { Started: true } });

    sim.setOffline(true, serial);
    const refused = await call(h().app, 'POST', '/api/AccessControlChannel/OpenDoor', {
      token,
      area: AREA,
      lang: 'en',
      body: { Id: channel.Id },
    });
    sim.setOffline(false, serial);
    expect(refused.status).toBe(409);
    expect(refused.msg).toContain(device.Name);

    const list = await call<{ Items: { Id: number; Online: boolean | null; Firmware: string | null }[] }>(
      h().app,
      'GET',
      '/api/AccessControlDevice',
      { token, area: AREA, query: { PageIndex: 1, PageSize: 100 } },
    );
    expect(list.data.Items.find((d) => d.Id === device.Id)).toMatchObject({ Firmware: '8.92' });
    await until(
      async () =>
        (
          await k
            .selectFrom('AccessControlDeviceState')
            .select('Online')
            .where('DeviceId', '=', device.Id)
            .executeTakeFirst()
        )?.Online === 1,
      10_000,
      'back online',
    );

    // A third-party controller (protocol Other): the gateway does not speak to it, so both commands are refused
    // with its name, and nothing is sent (the screen does not offer them on such a row).
    const now = Date.now();
    const foreign = await k
      .insertInto('AccessControlDevice')
      .values({
        AreaId: AREA,
        SerialNumber: 'GATE-0042',
        Name: 'Third-party gate',
        Protocol: 1,
        Type: 0,
        Ip: '127.0.0.1',
        Port: 60000,
        AssignedAt: now,
        CreatedAt: now,
        UpdatedAt: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    for (const command of ['SetTime', 'SyncNow']) {
      const answer = await call(h().app, 'POST', `/api/AccessControlDevice/${command}`, {
        token,
        area: AREA,
        lang: 'en',
        body: { Id: foreign.Id },
      });
      expect(answer.status, command).toBe(409);
      expect(answer.msg).toContain('Third-party gate');
      expect(answer.msg).toContain('is not a WG controller');
    }
    await k.deleteFrom('AccessControlDevice').where('Id', '=', foreign.Id).execute();
  }, 60_000);

  const stored = async (deviceId: number) => {
    const row = await h()
      .db.kysely.selectFrom('DoorOpeningRecord')
      .select([
        sql<number>`count(*)`.as('n'),
        sql<number>`count(distinct "RecordIndex")`.as('d'),
        sql<number>`max("RecordIndex")`.as('max'),
      ])
      .where('DeviceId', '=', deviceId)
      .where('RecordIndex', 'is not', null)
      .executeTakeFirst();
    return { n: Number(row?.n ?? 0), distinct: Number(row?.d ?? 0), max: Number(row?.max ?? 0) };
  };

  it('stores each record once: pushed and polled, and across a restart on the same database', async () => {
    const serial = Number(device.SerialNumber);
    const c = sim.controller(serial);
    const card = c.cards()[0]!.card;
    for (let i = 0; i < 40; i++) sim.swipe(serial, i % 3 === 0 ? 12345 : card, 1 + (i % 2));
    sim.forceDoor(serial, 1);
    await until(async () => (await stored(device.Id)).n === c.lastIndex, 20_000, 'collection');
    await stop();
    for (let i = 0; i < 30; i++) sim.swipe(serial, card, 1);
    await start();
    await until(async () => (await stored(device.Id)).n === c.lastIndex, 20_000, 'collection after restart');
    // Let a few more polls run: nothing is added twice.
    await new Promise((r) => setTimeout(r, 600));
    const s = await stored(device.Id);
    expect(s).toEqual({ n: c.lastIndex, distinct: c.lastIndex, max: c.lastIndex });
    const alarm = await h()
      .db.kysely.selectFrom('DoorOpeningRecord')
      .select(['EventType', 'EventReason', 'Result', 'Reason'])
      .where('DeviceId', '=', device.Id)
      .where('EventType', '=', 3)
      .executeTakeFirstOrThrow();
    expect(alarm).toMatchObject({ EventReason: 38, Result: 0, Reason: 0 });
    const unknown = await h()
      .db.kysely.selectFrom('DoorOpeningRecord')
      .select(['Reason', 'Result'])
      .where('DeviceId', '=', device.Id)
      .where('CardNumber', '=', cardToDisplay(12345))
      .executeTakeFirstOrThrow();
    expect(unknown).toEqual({ Reason: 2, Result: 0 }); // card 12345 is not registered
  }, 60_000);

  it('detects a ring that wrapped while Gatehouse was down and reports what was lost', async () => {
    const serial = Number(ringDevice.SerialNumber);
    for (let i = 0; i < 5; i++) sim.swipe(serial, 777, 1);
    await until(async () => (await stored(ringDevice.Id)).n === 5, 20_000, 'first records');
    await stop();
    for (let i = 0; i < 50; i++) sim.swipe(serial, 777, 1);
    await start({ listen: null });
    await until(async () => (await stored(ringDevice.Id)).n === 25, 20_000, 'records after the wrap');
    const cursor = await h()
      .db.kysely.selectFrom('AccessControlRecordCursor')
      .selectAll()
      .where('DeviceId', '=', ringDevice.Id)
      .executeTakeFirstOrThrow();
    expect(Number(cursor.LostRecords)).toBe(30);
    expect(Number(cursor.NextIndex)).toBe(56);
    const list = await call<{ Items: { Id: number; LostRecords: number }[] }>(
      h().app,
      'GET',
      '/api/AccessControlDevice',
      {
        token,
        area: AREA,
        query: { PageIndex: 1, PageSize: 100 },
      },
    );
    expect(list.data.Items.find((d) => d.Id === ringDevice.Id)?.LostRecords).toBe(30);
  }, 60_000);
});

describeEachDb('WG gateway: 10,000 cards on one controller', (h) => {
  it('issues them all while the API keeps answering, with progress', async () => {
    const k = h().db.kysely;
    const now = Date.now();
    const serial = 298765432;
    const sim = await WgSimulator.start({ controllers: [serial], timeZone: 'Asia/Shanghai' });
    let gateway: WgGateway | undefined;
    try {
      await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
      const { host, port } = sim.address(serial);
      const device = await k
        .insertInto('AccessControlDevice')
        .values({
          AreaId: AREA,
          SerialNumber: String(serial),
          Name: 'Bulk controller',
          Protocol: 0,
          Type: 2,
          Ip: host,
          Port: port,
          AssignedAt: now,
          CreatedAt: now,
          UpdatedAt: now,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      const channel = await k
        .insertInto('AccessControlChannel')
        .values({
          AreaId: AREA,
          DeviceId: device.Id,
          DoorNumber: 1,
          Name: 'Bulk door',
          Direction: 1,
          ReaderType: 0,
          CreatedAt: now,
          UpdatedAt: now,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      const N = 10_000;
      for (let i = 0; i < N; i += 500) {
        const holders = await k
          .insertInto('CardUser')
          .values(
            Array.from({ length: Math.min(500, N - i) }, (_, j) => ({
              AreaId: AREA,
              Name: `批量${i + j}`,
              Nation: 0,
              ValidFrom: now - 86_400_000,
              ValidTo: now + 365 * 86_400_000,
              CreatedAt: now,
              UpdatedAt: now,
            })),
          )
          .returning('Id')
          .execute();
        await k
          .insertInto('Card')
          .values(
            holders.map((holder, j) => ({
              AreaId: AREA,
              CardNumber: cardToDisplay(70_000_000 + i + j),
              CardType: 0,
              CardUserId: holder.Id,
              CreatedAt: now,
              UpdatedAt: now,
            })),
          )
          .execute();
        await k
          .insertInto('CardUserLinkChannel')
          .values(
            holders.map((holder) => ({
              AreaId: AREA,
              CardUserId: holder.Id,
              ChannelId: channel.Id,
              DeviceId: device.Id,
              ValidFrom: null,
              ValidTo: null,
              IssueStatus: 1,
              CreatedAt: now,
              UpdatedAt: now,
            })),
          )
          .execute();
      }
      const token = await login(h().app, 'admin', ADMIN_PASSWORD);
      gateway = await WgGateway.start({
        db: h().db,
        clock: systemClock,
        hub: h().hub,
        listen: null,
        pollSeconds: 5,
        syncSeconds: 0.1,
        driver: { timeoutMs: 200, tries: 3 },
      });
      h().platform.seams.doorControllers = gateway;
      let answered = 0;
      let sawProgress = false;
      const controller = sim.controller(serial);
      await until(
        async () => {
          // The API answers during the sync, and the device list shows its progress.
          const list = await call<{ Items: { Id: number; SyncState: string | null; SyncTotal: number }[] }>(
            h().app,
            'GET',
            '/api/AccessControlDevice',
            { token, area: AREA, query: { PageIndex: 1, PageSize: 100 } },
          );
          expect(list.status).toBe(200);
          answered++;
          const item = list.data.Items.find((d) => d.Id === device.Id);
          if (item?.SyncState === 'running' && item.SyncTotal > 0) sawProgress = true;
          const left = await k
            .selectFrom('CardUserLinkChannel')
            .select(sql<number>`count(*)`.as('n'))
            .where('DeviceId', '=', device.Id)
            .where('IssueStatus', '!=', 3)
            .executeTakeFirst();
          return Number(left?.n) === 0 && controller.cardCount === N;
        },
        240_000,
        '10,000 cards',
      );
      expect(answered).toBeGreaterThan(1);
      expect(sawProgress).toBe(true);
    } finally {
      delete h().platform.seams.doorControllers;
      await gateway?.close();
      await sim.close();
    }
  }, 300_000);
});
