import type { AddressInfo } from 'node:net';
import { STOP_REASON, translate, type ZoneEmergencyStopItem } from '@gatehouse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { setOcppPassword } from '../src/gateways/ocpp/index.ts';
import { chargePointHolder } from '../src/modules/garage/index.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { childDatabase, type ChildDatabase } from './support/child-db.ts';
import { call, login } from './support/client.ts';
import { fakeCharger, type FakeCharger } from './support/fake-charger.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './support/harness.ts';

/**
 * Issue 30, "Emergency stop of a zone" across instances (docs/deployment.md, docs/garage.md "Emergency stop"): two
 * app instances in one process on one PostgreSQL schema, the zone's chargers (strict OCPP 1.6J clients) connected
 * to one or the other. A stop asked on A reaches the charger held by B (its session stopped "emergency stop", its
 * connectors Inoperative) and the one held by A; a start on B is refused; a charger that moves to A during the stop,
 * and one that connects to B after B restarted, are made Inoperative from the stored stop; the release asked on B
 * makes both Operative.
 */
const PASSWORD = 'cluster-estop-password-2026';
const CARD = '0077200001';

async function until(check: () => Promise<boolean> | boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 15));
  }
}

interface Instance {
  id: string;
  built: Built;
  db: Db;
  url: string;
}

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl)
  describe('emergency stop across instances (PostgreSQL)', () => {
    it.skip('needs TEST_DATABASE_URL: several instances share PostgreSQL only', () => {});
  });

describe.runIf(Boolean(pgUrl))(
  '[postgres] a zone emergency stop reaches chargers held by another instance',
  () => {
    let database: ChildDatabase;
    const clock = new ManualClock(Date.UTC(2026, 10, 1, 8));
    let a: Instance;
    let b: Instance;
    let adminOnA = '';
    let adminOnB = '';
    let zone = 0;
    const hosts: { id: number; serial: string }[] = [];
    const chargers: FakeCharger[] = [];

    async function instance(id: string): Promise<Instance> {
      const db = database.open();
      const config = loadConfig({ LOG_LEVEL: 'silent', SEED: 'demo', ADMIN_PASSWORD, INSTANCE_ID: id });
      const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db, clock });
      await built.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (built.app.server.address() as AddressInfo).port;
      return { id, built, db, url: `ws://127.0.0.1:${port}/ocpp` };
    }

    const api = <T>(on: Instance, token: string, path: string, body: unknown) =>
      call<T>(on.built.app, 'POST', path, { token, area: 1, lang: 'en', body });

    async function connect(to: Instance, host: { id: number; serial: string }): Promise<FakeCharger> {
      const charger = await fakeCharger(to.url, host.serial, PASSWORD, () => clock.now());
      chargers.push(charger);
      await until(async () => (await chargePointHolder(to.db, host.id)) === to.id);
      return charger;
    }

    beforeAll(async () => {
      database = await childDatabase('postgres', 'estop');
      const first = database.open();
      await migrateToLatest(first);
      await seedIfEmpty(first, {
        mode: 'demo',
        adminPassword: ADMIN_PASSWORD,
        now: clock.now(),
        scale: 0.005,
      });
      await first.close();
      a = await instance('node-a');
      b = await instance('node-b');
      adminOnA = await login(a.built.app, 'bikeadmin', DEMO_PASSWORD);
      adminOnB = await login(b.built.app, 'bikeadmin', DEMO_PASSWORD);
      const rule = await api<{ Id: number }>(a, adminOnA, '/api/ChargeRule', {
        Name: 'Cluster estop rule',
        ChargeType: 3,
        TemporaryChargeType: 2,
        UnitPriceCents: 120,
        FreeMinutes: 0,
      });
      expect(rule.status, rule.msg).toBe(200);
      const made = await api<{ Id: number }>(a, adminOnA, '/api/ParkArea', {
        Name: 'Cluster estop zone',
        Capacity: 10,
        ChargeRuleIds: [rule.data.Id],
      });
      expect(made.status, made.msg).toBe(200);
      zone = made.data.Id;
      for (const serial of ['CLUESTOPB', 'CLUESTOPA']) {
        const host = await api<{ Id: number }>(a, adminOnA, '/api/ChargeHost', {
          SerialNumber: serial,
          Name: serial,
          ParkAreaId: zone,
          PortCount: 2,
          ChargingSystemType: 2,
          Endpoint: 'https://charger.example.com/api',
          Password: 'api-secret',
        });
        expect(host.status, host.msg).toBe(200);
        await setOcppPassword(a.db, host.data.Id, PASSWORD);
        hosts.push({ id: host.data.Id, serial });
      }
      await a.db.kysely
        .insertInto('Vehicle')
        .values({
          AreaId: 1,
          Plate: '京E71001',
          OwnerName: 'Test',
          Phone: null,
          CardHolderId: null,
          CardHolderName: null,
          CardId: null,
          CardNumber: CARD,
          Remark: null,
          Disabled: 0,
          CreatedAt: clock.now(),
          UpdatedAt: clock.now(),
        })
        .execute();
    }, 60_000);

    afterAll(async () => {
      await Promise.all(chargers.map((c) => c.client.close({ force: true }).catch(() => {})));
      for (const i of [a, b]) {
        await i?.built.app.close();
        await i?.db.close();
      }
      await database?.drop();
    });

    it('a stop asked on A ends the session on the charger held by B and makes every connector Inoperative', async () => {
      const [onB, onA] = [await connect(b, hosts[0]!), await connect(a, hosts[1]!)];
      expect(a.built.ocpp.connection(hosts[0]!.id)).toBeUndefined();
      const session = await onB.start(1, CARD);
      expect(session.status).toBe('Accepted');

      const stopped = await api<ZoneEmergencyStopItem>(a, adminOnA, '/api/ParkArea/EmergencyStop', {
        Id: zone,
        Reason: 'smoke in the garage',
      });
      expect(stopped.status, stopped.msg).toBe(200);
      expect(stopped.data.Stop).toEqual({
        SessionsRunning: 1,
        SessionsStopped: 1,
        Sockets: 4,
        SocketsInoperative: 4,
        NotReached: [],
      });
      expect(onB.calls.find((c) => c.action === 'RemoteStopTransaction')?.params).toEqual({
        transactionId: session.transactionId,
      });
      for (const charger of [onB, onA])
        expect(charger.availability()).toEqual([
          { connectorId: 1, type: 'Inoperative' },
          { connectorId: 2, type: 'Inoperative' },
        ]);
      const record = () =>
        a.db.kysely
          .selectFrom('ChargeRecord')
          .select(['EndAt', 'StopReason'])
          .where('Id', '=', session.transactionId)
          .executeTakeFirstOrThrow();
      await until(async () => (await record()).EndAt !== null);
      expect((await record()).StopReason).toBe(STOP_REASON.emergencyStop);

      // Starts are refused on the charger held by B, and a remote start asked on B.
      expect(await onB.start(2, CARD)).toEqual({ status: 'Blocked', transactionId: 0 });
      const remote = await api(b, adminOnB, '/api/ChargeEquipment/RemoteStart', {
        ChargeEquipmentId: (await sockets(hosts[1]!.id))[0]!,
        CardNumber: CARD,
      });
      expect(remote.status).toBe(409);
      expect(remote.msg).toBe(translate('en', 'garage.error.startRefused.emergencyStop'));
    });

    async function sockets(hostId: number): Promise<number[]> {
      const rows = await a.db.kysely
        .selectFrom('ChargeEquipment')
        .select('Id')
        .where('ChargeHostId', '=', hostId)
        .orderBy('PortNumber')
        .execute();
      return rows.map((r) => r.Id);
    }

    it('a charger that moves to A, and one that connects to B after B restarted, are made Inoperative from the stored stop', async () => {
      const moved = await connect(a, hosts[0]!);
      await until(() => moved.availability().length === 2);
      expect(moved.availability().every((x) => x.type === 'Inoperative')).toBe(true);

      // B restarts (the same instance id, a new process state): the stop is read from the database.
      await chargers[1]!.client.close({ force: true });
      await b.built.app.close();
      await b.db.close();
      b = await instance('node-b');
      adminOnB = await login(b.built.app, 'bikeadmin', DEMO_PASSWORD);
      const back = await connect(b, hosts[1]!);
      await until(() => back.availability().length === 2);
      expect(back.availability().every((x) => x.type === 'Inoperative')).toBe(true);
      expect(await back.start(1, CARD)).toEqual({ status: 'Blocked', transactionId: 0 });
    });

    it('the release asked on B makes the connectors Operative on both instances, and charging starts again', async () => {
      const onA = chargers.at(-2)!;
      const onB = chargers.at(-1)!;
      onA.calls.length = 0;
      onB.calls.length = 0;
      const released = await api<ZoneEmergencyStopItem>(b, adminOnB, '/api/ParkArea/EmergencyRelease', {
        Id: zone,
        Note: 'fire brigade: all clear',
      });
      expect(released.status, released.msg).toBe(200);
      expect(released.data.Release).toEqual({
        Sockets: 4,
        SocketsOperative: 4,
        SocketsKeptDisabled: 0,
        NotReached: [],
      });
      for (const charger of [onA, onB])
        expect(charger.availability()).toEqual([
          { connectorId: 1, type: 'Operative' },
          { connectorId: 2, type: 'Operative' },
        ]);
      expect((await onA.start(1, CARD)).status).toBe('Accepted');
    });
  },
);
