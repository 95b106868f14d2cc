import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OFFLINE_PORT_STATE } from '@gatehouse/shared';
import { expect, it } from 'vitest';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { openDatabase } from '../src/db/database.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/*
 * "Only what is known is live" (issue 21, item 3): a socket's state is shown only while a connected protocol
 * reports it. Sockets of hosts no protocol drives (charging-system types other than the charging API) and of
 * charging-API hosts that are not connected are "unknown / not connected" in every list, count and figure;
 * their sessions are not "charging now"; and the dashboard's host, socket and session figures agree with the
 * host, zone and socket lists.
 */

interface Dashboard {
  Sockets: {
    Total: number;
    Idle: number;
    Occupied: number;
    Fault: number;
    Disabled: number;
    Offline: number;
    ByState: { State: number; Count: number }[];
  };
  Hosts: { Total: number; Online: number };
  OpenSessions: number;
  OpenSessionsOffline: number;
}

const RUNNING = [1, 3, 5];

describeEachDb('garage liveness: only what is known is live', (h) => {
  it('shows sockets nothing reports as unknown, and the dashboard agrees with the lists', async () => {
    const k = h().db.kysely;
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const get = async <T>(url: string, query: Record<string, string | number> = {}) => {
      const reply = await call<T>(h().app, 'GET', url, { token, area: 1, query });
      expect(reply.status, `${url}: ${reply.msg}`).toBe(200);
      return reply.data;
    };
    // One charging-API host of the area connected (as a charge point would be); every other host is either a
    // charging-API host not connected or of a type no protocol drives.
    const hosts = await k
      .selectFrom('ChargeHost')
      .select(['Id', 'ChargingSystemType'])
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .execute();
    const live = hosts.find((x) => x.ChargingSystemType === 2)!;
    const undriven = hosts.filter((x) => x.ChargingSystemType !== 2);
    expect(undriven.length).toBeGreaterThan(0);
    await k.updateTable('ChargeHost').set({ OcppOnline: 1 }).where('Id', '=', live.Id).execute();
    // A socket of a host no protocol drives stores "charging" with a session running (a seeded or imported row).
    const undrivenSocket = await k
      .selectFrom('ChargeEquipment')
      .select(['Id', 'State', 'ChargeHostId'])
      .where(
        'ChargeHostId',
        'in',
        undriven.map((x) => x.Id),
      )
      .where('Disabled', '=', 0)
      .where('State', 'in', RUNNING)
      .orderBy('Id')
      .executeTakeFirstOrThrow();

    type SocketPage = { Items: { Id: number; State: number; ChargeHostId: number }[]; Total: number };
    // Its host's sockets, so the row is on the page whatever the list's order.
    const ofItsHost = await get<SocketPage>('/api/ChargeEquipment', {
      PageIndex: 1,
      PageSize: 100,
      ChargeHostId: undrivenSocket.ChargeHostId,
    });
    expect(ofItsHost.Items.find((s) => s.Id === undrivenSocket.Id)?.State).toBe(OFFLINE_PORT_STATE);
    // On the list's first page, every socket not on the connected host is unknown or disabled (and there are such).
    const sockets = await get<SocketPage>('/api/ChargeEquipment', { PageIndex: 1, PageSize: 100 });
    const notLive = sockets.Items.filter((s) => s.ChargeHostId !== live.Id);
    expect(notLive.length).toBeGreaterThan(0);
    expect(notLive.filter((s) => s.State !== OFFLINE_PORT_STATE && s.State !== 12)).toEqual([]);
    const detail = await get<{ State: number; StateGroup: string }>(
      `/api/ChargeEquipment/${undrivenSocket.Id}`,
    );
    expect(detail).toMatchObject({ State: OFFLINE_PORT_STATE, StateGroup: 'offline' });

    const dashboard = await get<Dashboard>('/api/GarageDashboard');
    const s = dashboard.Sockets;
    // Hosts: only the connected one is online.
    expect(dashboard.Hosts).toEqual({ Total: hosts.length, Online: 1 });
    // Sockets: the groups add up to the total, the chart (ByState) to the same total, and every socket not
    // on the connected host is unknown or disabled.
    expect(s.Idle + s.Occupied + s.Fault + s.Disabled + s.Offline).toBe(s.Total);
    expect(s.ByState.reduce((sum, b) => sum + b.Count, 0)).toBe(s.Total);
    expect(s.ByState.find((b) => b.State === OFFLINE_PORT_STATE)?.Count ?? 0).toBe(s.Offline);
    const onLive = await k
      .selectFrom('ChargeEquipment')
      .select(['State', 'Disabled'])
      .where('ChargeHostId', '=', live.Id)
      .execute();
    const disabledAll = await k
      .selectFrom('ChargeEquipment')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('AreaId', '=', 1)
      .where('Disabled', '=', 1)
      .executeTakeFirstOrThrow();
    expect(s.Offline).toBe(
      s.Total - onLive.length - (Number(disabledAll.n) - onLive.filter((x) => x.Disabled).length),
    );
    // Sessions: "charging now" counts only sessions on sockets a connected host reports, never more than
    // the sockets the chart shows occupied; the rest are counted as unknown.
    const open = await k
      .selectFrom('ChargeRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .select(['ChargeEquipment.ChargeHostId'])
      .where('ChargeRecord.AreaId', '=', 1)
      .where('ChargeRecord.EndAt', 'is', null)
      .execute();
    const openLive = open.filter((o) => o.ChargeHostId === live.Id).length;
    expect(dashboard.OpenSessions).toBe(openLive);
    expect(dashboard.OpenSessionsOffline).toBe(open.length - openLive);
    expect(dashboard.OpenSessions).toBeLessThanOrEqual(s.Occupied);

    // The host list and the zone list count the same sockets and the same online hosts.
    const hostList = await get<{ Items: { Id: number; Online: boolean; SocketCount: number }[] }>(
      '/api/ChargeHost',
      { PageIndex: 1, PageSize: 100 },
    );
    expect(hostList.Items.filter((x) => x.Online).map((x) => x.Id)).toEqual([live.Id]);
    expect(hostList.Items.reduce((sum, x) => sum + x.SocketCount, 0)).toBe(s.Total);
    const zones = await get<{
      Items: {
        SocketsTotal: number;
        SocketsOccupied: number;
        SocketsIdle: number;
        SocketsOffline: number;
        SocketsFault: number;
        SocketsDisabled: number;
      }[];
    }>('/api/ParkArea', { PageIndex: 1, PageSize: 100 });
    const sum = (f: (z: (typeof zones.Items)[number]) => number) => zones.Items.reduce((t, z) => t + f(z), 0);
    expect(sum((z) => z.SocketsTotal)).toBe(s.Total);
    expect(sum((z) => z.SocketsOffline)).toBe(s.Offline);
    expect(sum((z) => z.SocketsOccupied)).toBe(s.Occupied);
    expect(sum((z) => z.SocketsIdle)).toBe(s.Idle);
    await k.updateTable('ChargeHost').set({ OcppOnline: 0 }).where('Id', '=', live.Id).execute();
  });

  it('lists the sockets whose state is known first: the socket list opens on what a charger reports (issue 27)', async () => {
    const k = h().db.kysely;
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    // The last charging-API host of the area is connected: by host name or id, its sockets would come last.
    const live = await k
      .selectFrom('ChargeHost')
      .select('Id')
      .where('AreaId', '=', 1)
      .where('ChargingSystemType', '=', 2)
      .orderBy('Name', 'desc')
      .executeTakeFirstOrThrow();
    await k.updateTable('ChargeHost').set({ OcppOnline: 1 }).where('Id', '=', live.Id).execute();
    try {
      // The list as it opens: no sort asked for.
      const items: { ChargeHostId: number; State: number; Disabled: boolean }[] = [];
      for (const PageIndex of [1, 2]) {
        const reply = await call<{ Items: typeof items }>(h().app, 'GET', '/api/ChargeEquipment', {
          token,
          area: 1,
          query: { PageIndex, PageSize: 100 },
        });
        expect(reply.status).toBe(200);
        items.push(...reply.data.Items);
      }
      const known = items.map((s) => s.State !== OFFLINE_PORT_STATE);
      expect(known.filter(Boolean).length).toBeGreaterThan(10);
      expect(known.includes(false)).toBe(true);
      // Every known state before the first unknown one; the connected host's sockets on the first page.
      expect(known.slice(known.indexOf(false)).includes(true)).toBe(false);
      expect(items.slice(0, 10).every((s) => s.ChargeHostId === live.Id || s.Disabled)).toBe(true);
    } finally {
      await k.updateTable('ChargeHost').set({ OcppOnline: 0 }).where('Id', '=', live.Id).execute();
    }
  });
});

it('the demo started with its simulators seeds no running session and no host it cannot hear', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-demo-'));
  const db = openDatabase(path.join(dir, 'demo.db'));
  try {
    await migrateToLatest(db);
    await seedIfEmpty(db, {
      mode: 'demo',
      adminPassword: ADMIN_PASSWORD,
      now: Date.UTC(2026, 10, 1, 8),
      scale: 0.005,
      runningSessions: false,
    });
    const k = db.kysely;
    const open = await k.selectFrom('ChargeRecord').select('Id').where('EndAt', 'is', null).execute();
    expect(open).toEqual([]);
    const charging = await k
      .selectFrom('ChargeEquipment')
      .select('Id')
      .where('State', 'in', RUNNING)
      .execute();
    expect(charging).toEqual([]);
    const heard = await k
      .selectFrom('ChargeHost')
      .select('Id')
      .where('ChargingSystemType', '!=', 2)
      .where('LastSeenAt', 'is not', null)
      .execute();
    expect(heard).toEqual([]);
    // Past sessions are still there for the lists, orders and charts.
    const ended = await k
      .selectFrom('ChargeRecord')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(ended.n)).toBeGreaterThan(0);
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
