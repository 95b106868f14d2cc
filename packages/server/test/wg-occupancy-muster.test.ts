import { WgSimulator } from '@gatehouse/wg-simulator';
import { displayToCard, localTime, type HubEventInput } from '@gatehouse/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/**
 * Who is inside and a roll call through the device path (issue 31, "must show" 3; docs/access-control.md "Occupancy
 * and muster"), on SQLite and PostgreSQL: five holders granted on a two-door controller of the repo's WG simulator,
 * their swipes pushed by the controller to the real WG gateway, which stores them through the swipe records' one
 * writer. Occupancy follows their in and out swipes at door 1; a roll call started with the five inside, with door
 * 2's in reader as its muster point, reaches zero missing as they swipe there, the count told live on the hub
 * after each.
 *
 * The app's clock runs with real time from real now (the controller's records carry its own clock), and the area's
 * reset hour is set twelve hours away, so the run never meets it.
 */
const AREA = 1;
const ZONE = 'Asia/Shanghai';

interface Holder {
  Id: number;
  Name: string;
  CardNumber: string;
  CardValue: number;
}

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

describeEachDb('who is inside and a roll call, through a WG controller (simulator)', (h) => {
  let sim: WgSimulator;
  let gateway: WgGateway | undefined;
  let ticker: NodeJS.Timeout | undefined;
  let token: string;
  let serial: number;
  let deviceId: number;
  let holders: Holder[];
  let musterPoint: number;
  /** What the gateway told the area's browsers. */
  const published: HubEventInput[] = [];

  const api = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, options: object = {}) => {
    const reply = await call<T>(h().app, method, url, { token, area: AREA, ...options });
    expect(reply.status, `${method} ${url}: ${reply.msg}`).toBe(200);
    return reply.data;
  };
  const insideIds = async () =>
    (
      await api<{ Items: { CardUserId: number }[] }>('GET', '/api/Occupancy', { query: { PageSize: 100 } })
    ).Items.map((i) => i.CardUserId).sort((a, b) => a - b);
  const controller = () => sim.controller(serial);
  /** A card at a reader of the simulated controller, granted by the controller itself. */
  const swipe = (who: Holder, door: number, direction: number) => {
    const record = controller().swipe(who.CardValue, door, direction);
    expect(record.granted, `${who.Name} at door ${door}`).toBe(true);
  };
  const ids = (list: Holder[]) => list.map((x) => x.Id).sort((a, b) => a - b);

  beforeAll(async () => {
    const k = h().db.kysely;
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
    const channels = await k
      .selectFrom('AccessControlChannel')
      .select(['Id', 'DoorNumber', 'Direction'])
      .where('DeviceId', '=', deviceId)
      .orderBy('Id')
      .execute();
    const channel = (door: number, direction: number) =>
      channels.find((c) => c.DoorNumber === door && c.Direction === direction)!.Id;
    musterPoint = channel(2, 1);
    const now = Date.now();
    const rows = await k
      .selectFrom('CardUser as H')
      .innerJoin('Card as C', 'C.CardUserId', 'H.Id')
      .select(['H.Id', 'H.Name', 'C.CardNumber'])
      .where('H.AreaId', '=', AREA)
      .where('H.Disabled', '=', 0)
      .where('H.ValidFrom', '<=', now)
      .where('H.ValidTo', '>', now + 86_400_000)
      .orderBy('H.Id')
      .orderBy('C.Id')
      .limit(40)
      .execute();
    holders = [...new Map(rows.map((r) => [r.Id, r])).values()]
      .slice(0, 5)
      .map((r) => ({ ...r, CardValue: displayToCard(r.CardNumber) }));
    expect(holders).toHaveLength(5);
    // The controller holds these five alone (every sync pass reads its card list back), on both doors.
    await k.deleteFrom('CardUserLinkChannel').where('DeviceId', '=', deviceId).execute();
    for (const holder of holders)
      await api('POST', '/api/CardUserLinkChannel/Grant', {
        body: { CardUserId: holder.Id, ChannelIds: [channel(1, 1), channel(1, 2), musterPoint] },
      });
    // Nobody inside but whom this test brings in; the reset hour twelve hours from now.
    await k.deleteFrom('Occupancy').where('AreaId', '=', AREA).execute();
    await api('PUT', '/api/Occupancy/Settings', {
      body: { ResetHour: (localTime(now, ZONE).hour + 12) % 24 },
    });

    sim = await WgSimulator.start({ controllers: [{ serial }], timeZone: ZONE });
    await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
    const { host, port } = sim.address(serial);
    await k
      .updateTable('AccessControlDevice')
      .set({ Ip: host, Port: port })
      .where('Id', '=', deviceId)
      .execute();
    gateway = await WgGateway.start({
      db: h().db,
      clock: h().clock,
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
      offlineAlarmSeconds: 30,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 40, tries: 3 },
    });
    h().platform.seams.doorControllers = gateway;
    // The five cards on the controller, confirmed.
    await until(
      async () => {
        const row = await k
          .selectFrom('CardUserLinkChannel')
          .select(sql<number>`count(*)`.as('n'))
          .where('DeviceId', '=', deviceId)
          .where('IssueStatus', 'in', [1, 2, -1])
          .executeTakeFirst();
        return (
          Number(row?.n ?? 0) === 0 && holders.every((x) => controller().getCard(x.CardValue) !== undefined)
        );
      },
      90_000,
      'the five cards on the controller',
    );
  }, 120_000);

  afterAll(async () => {
    clearInterval(ticker);
    delete h().platform.seams.doorControllers;
    await gateway?.close();
    await sim?.close();
  });

  it('occupancy follows the in and out swipes the controller pushes', async () => {
    const [a, b, c, d, e] = holders as [Holder, Holder, Holder, Holder, Holder];
    for (const who of [a, b, c]) swipe(who, 1, 1);
    await until(async () => (await insideIds()).length === 3, 30_000, 'three inside');
    expect(await insideIds()).toEqual(ids([a, b, c]));
    // B goes out through door 1's out reader; D and E come in.
    swipe(b, 1, 2);
    swipe(d, 1, 1);
    swipe(e, 1, 1);
    await until(
      async () => (await insideIds()).join() === ids([a, c, d, e]).join(),
      30_000,
      'B out, D and E in',
    );
    // B comes back in: the five are inside.
    swipe(b, 1, 1);
    await until(async () => (await insideIds()).length === 5, 30_000, 'five inside');
    expect(await insideIds()).toEqual(ids(holders));
    const summary = await api<{ Inside: number }>('GET', '/api/Occupancy/Summary');
    expect(summary.Inside).toBe(5);
    // Each of their swipes is a swipe record of the controller, with its ring index: they came the device's way.
    const records = await h()
      .db.kysely.selectFrom('DoorOpeningRecord')
      .select(['RecordIndex', 'EventType'])
      .where('DeviceId', '=', deviceId)
      .where('CardUserId', 'in', ids(holders))
      .where('At', '>=', Date.now() - 600_000)
      .execute();
    expect(records).toHaveLength(7);
    expect(records.every((r) => r.RecordIndex !== null && Number(r.EventType) === 1)).toBe(true);
  }, 120_000);

  it('a roll call started with five inside reaches zero missing as they swipe at the muster reader', async () => {
    const started = await api<{ Id: number; Total: number; Missing: number }>('POST', '/api/Muster/Start', {
      body: { AreaId: AREA, ChannelIds: [musterPoint], Reason: 'Fire drill' },
    });
    expect(started).toMatchObject({ Total: 5, Missing: 5 });
    const detail = () => api<{ Missing: number; Safe: number }>('GET', `/api/Muster/${started.Id}`);
    const told = () =>
      published.flatMap((event) =>
        event.Type === 'Muster' && event.Id === started.Id ? [event.Missing] : [],
      );
    for (const [i, who] of holders.entries()) {
      swipe(who, 2, 1);
      await until(async () => (await detail()).Missing === 4 - i, 30_000, `${5 - i - 1} missing`);
      // Told live to the area's browsers by the gateway that stored the swipe.
      await until(() => told().includes(4 - i), 10_000, `the hub told ${4 - i} missing`);
    }
    expect(await detail()).toMatchObject({ Missing: 0, Safe: 5 });
    // The count fell one by one, never rose.
    const counts = told();
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    expect(counts.at(-1)).toBe(0);
    const people = await api<{ Items: { SafeHow: string; SafeBy: string }[] }>('GET', '/api/MusterPerson', {
      query: { MusterId: started.Id },
    });
    expect(people.Items).toHaveLength(5);
    expect(people.Items.every((p) => p.SafeHow === 'swipe')).toBe(true);
    // A second swipe there changes nothing.
    swipe(holders[0]!, 2, 1);
    await new Promise((r) => setTimeout(r, 500));
    expect((await detail()).Safe).toBe(5);
    await api('POST', '/api/Muster/End', { body: { Id: started.Id, Note: 'All accounted for' } });
  }, 180_000);
});
