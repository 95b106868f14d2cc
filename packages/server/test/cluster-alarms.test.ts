import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { ALARM, raiseAlarm } from '../src/modules/access-control/door-alarm/service.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { deviceActor } from '../src/platform/context.ts';
import { childDatabase, type ChildDatabase } from './support/child-db.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD } from './support/harness.ts';

/**
 * Issue 28, seams on the context: a live event raised on any instance reaches the browsers of all of them,
 * whether or not the instance drives door controllers. Two app instances in one process on one PostgreSQL
 * schema (each with its own pool and bus: several instances share PostgreSQL only), one driving the WG
 * controllers and one without; a browser's hub socket on the first sees an alarm acknowledged on the second.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
interface Instance {
  built: Built;
  db: Db;
  base: string;
}

// Several instances share PostgreSQL only: the suite runs when TEST_DATABASE_URL is set (as .ci/run sets it).
describe.runIf(Boolean(pgUrl))('[postgres] alarms across instances', () => {
  let database: ChildDatabase;
  const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
  const instances: Instance[] = [];

  async function instance(id: string, devices: boolean): Promise<Instance> {
    const db = database.open();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      SEED: 'demo',
      ADMIN_PASSWORD,
      INSTANCE_ID: id,
      WG_LISTEN: '127.0.0.1:0',
    });
    const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db, clock, devices });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const made = { built, db, base: `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}` };
    instances.push(made);
    return made;
  }

  beforeAll(async () => {
    database = await childDatabase('postgres', 'alarms');
    const first = database.open();
    await migrateToLatest(first);
    await seedIfEmpty(first, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: clock.now(), scale: 0.005 });
    // No controller answers here: the gateway drives none (it is started for what it installs, not for doors).
    await first.kysely.updateTable('AccessControlDevice').set({ Disabled: 1 }).execute();
    await first.close();
  }, 60_000);

  afterAll(async () => {
    for (const i of instances) {
      await i.built.app.close();
      await i.db.close();
    }
    await database?.drop();
  });

  it('an alarm acknowledged on an instance without controllers reaches a browser on another within 1 s', async () => {
    const withDoors = await instance('alarms-wg', true);
    const without = await instance('alarms-plain', false);
    expect(withDoors.built.wg).toBeDefined();
    expect(without.built.wg).toBeUndefined();

    const device = await without.db.kysely
      .selectFrom('AccessControlDevice')
      .select(['Id', 'AreaId', 'Name'])
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const ctx = {
      db: without.db,
      clock,
      lang: 'en' as const,
      actor: deviceActor(device.Id, device.Name),
      areaId: undefined,
    };
    const raised = await without.db.kysely.transaction().execute((trx) =>
      raiseAlarm(ctx, trx, {
        device: { Id: device.Id, AreaId: 1, Name: device.Name },
        door: 1,
        doorName: null,
        kind: ALARM.forced,
        at: clock.now(),
      }),
    );

    // A browser on the instance driving the controllers, on area 1's hub.
    const token = await login(withDoors.built.app, 'admin', ADMIN_PASSWORD);
    const ticket = (await (
      await fetch(`${withDoors.base}/api/AreaInfo/GetHubUrl?Id=1`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { data: string };
    const socket = new WebSocket(new URL(ticket.data, withDoors.base.replace('http', 'ws')).href);
    const events: Array<{ Type: string; Id?: number; State?: number; Note?: string }> = [];
    socket.on('message', (data) => events.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('message', resolve));
    expect(events[0]?.Type).toBe('Welcome');

    const operator = await login(without.built.app, 'admin', ADMIN_PASSWORD);
    const acknowledged = await call<{ Acknowledged: number }>(
      without.built.app,
      'POST',
      '/api/DoorAlarm/Acknowledge',
      {
        token: operator,
        area: 1,
        body: { Ids: [raised.item.Id], Note: 'checked on site' },
      },
    );
    expect(acknowledged.status, acknowledged.msg).toBe(200);
    expect(acknowledged.data.Acknowledged).toBe(1);
    const sent = Date.now();

    const end = sent + 1000;
    while (!events.some((e) => e.Type === 'AlarmChanged') && Date.now() < end)
      await new Promise((r) => setTimeout(r, 10));
    socket.close();
    expect(events.filter((e) => e.Type === 'AlarmChanged')).toEqual([
      expect.objectContaining({
        Type: 'AlarmChanged',
        Id: raised.item.Id,
        State: 1,
        Note: 'checked on site',
      }),
    ]);
  }, 60_000);
});
