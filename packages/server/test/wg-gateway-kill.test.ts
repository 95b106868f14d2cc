import { fileURLToPath } from 'node:url';
import { WgSimulator } from '@gatehouse/wg-simulator';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { childDatabase, childDbKinds, childMessage, forkChild } from './support/child-db.ts';

const CHILD = fileURLToPath(new URL('./support/wg-child.ts', import.meta.url));

function startChild(args: string[]) {
  const child = forkChild(CHILD, args);
  return { child, started: childMessage(child, () => true) };
}

describe.each(childDbKinds)('[%s] WG collection under SIGKILL', (kind) => {
  it('stores each of 5,000 records exactly once when the gateway process is killed mid-collection and restarted', async () => {
    const { args, open, drop } = await childDatabase(kind, 'wg_kill');
    const db = open();
    await migrateToLatest(db);
    await seedIfEmpty(db, { mode: 'demo', adminPassword: 'Admin#Test2026', now: Date.now(), scale: 0.005 });
    const k = db.kysely;
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber'])
      .where('AreaId', '=', 1)
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const serial = Number(device.SerialNumber);
    const sim = await WgSimulator.start({ controllers: [{ serial, recordCapacity: 10_000 }] });
    const count = async () => {
      const row = await k
        .selectFrom('DoorOpeningRecord')
        .select([
          sql<number>`count(*)`.as('n'),
          sql<number>`count(distinct "RecordIndex")`.as('d'),
          sql<number>`max("RecordIndex")`.as('max'),
        ])
        .where('DeviceId', '=', device.Id)
        .where('RecordIndex', 'is not', null)
        .executeTakeFirst();
      return { n: Number(row?.n ?? 0), distinct: Number(row?.d ?? 0), max: Number(row?.max ?? 0) };
    };
    try {
      await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
      const { host, port } = sim.address(serial);
      await k
        .updateTable('AccessControlDevice')
        .set({ Ip: host, Port: port })
        .where('Id', '=', device.Id)
        .execute();
      for (let i = 0; i < 5000; i++) sim.swipe(serial, 1000 + (i % 50), 1);

      const first = startChild(args);
      await first.started;
      // Kill it once it is well into the collection, without letting it finish.
      let atKill = 0;
      for (let i = 0; i < 2000; i++) {
        atKill = (await count()).n;
        if (atKill >= 500) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      expect(atKill).toBeGreaterThan(0);
      expect((await count()).n).toBeLessThan(5000);

      const second = startChild(args);
      await second.started;
      const end = Date.now() + 60_000;
      while ((await count()).n < 5000 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      // A few more polls: nothing is stored twice.
      await new Promise((r) => setTimeout(r, 300));
      second.child.kill('SIGKILL');
      await new Promise((r) => second.child.once('exit', r));

      const c = sim.controller(serial);
      expect(await count()).toEqual({ n: c.lastIndex, distinct: c.lastIndex, max: c.lastIndex });
      const cursor = await k
        .selectFrom('AccessControlRecordCursor')
        .selectAll()
        .where('DeviceId', '=', device.Id)
        .executeTakeFirstOrThrow();
      expect(Number(cursor.NextIndex)).toBe(c.lastIndex + 1);
      expect(Number(cursor.LostRecords)).toBe(0);
      // The per-day counts moved once per stored record.
      const days = await k
        .selectFrom('DoorOpeningRecordDay')
        .select(sql<number>`sum("Count")`.as('n'))
        .where('DeviceId', '=', device.Id)
        .executeTakeFirst();
      const all = await k
        .selectFrom('DoorOpeningRecord')
        .select(sql<number>`count(*)`.as('n'))
        .where('DeviceId', '=', device.Id)
        .executeTakeFirst();
      expect(Number(days?.n)).toBe(Number(all?.n));
    } finally {
      await sim.close();
      await db.close();
      await drop();
    }
  }, 180_000);
});
