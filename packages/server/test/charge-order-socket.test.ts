import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../src/assembly.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb, targets } from './support/harness.ts';

type OrderPage = { Items: { Id: number; ChargeRecordId: number }[]; Total: number };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the garage's rows before and after migration 0024
type AnyKysely = Kysely<any>;

/**
 * Every order's socket is its session's (migration 0024 and every writer since): the list of one socket, host
 * or zone reads the order's own copy, so a copy that differs would list orders under the wrong socket.
 */
async function mismatchedOrders(k: AnyKysely): Promise<number> {
  const row = await k
    .selectFrom('ChargeOrder')
    .innerJoin('ChargeRecord', 'ChargeRecord.Id', 'ChargeOrder.ChargeRecordId')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .whereRef('ChargeOrder.ChargeEquipmentId', '!=', 'ChargeRecord.ChargeEquipmentId')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A zone of area 1 with one host of two sockets. */
async function insertSockets(k: AnyKysely) {
  const zone = await k
    .insertInto('ParkArea')
    .values({ AreaId: 1, Name: 'Z', CreatedAt: 0, UpdatedAt: 0 })
    .returning('Id')
    .executeTakeFirstOrThrow();
  const host = await k
    .insertInto('ChargeHost')
    .values({
      AreaId: 1,
      ParkAreaId: zone.Id,
      SerialNumber: 'S1',
      Name: 'H',
      PortCount: 2,
      CreatedAt: 0,
      UpdatedAt: 0,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  const sockets: { Id: number }[] = await k
    .insertInto('ChargeEquipment')
    .values(
      [1, 2].map((PortNumber) => ({
        AreaId: 1,
        ChargeHostId: host.Id,
        PortNumber,
        State: 0,
        StateChangedAt: 0,
        CreatedAt: 0,
        UpdatedAt: 0,
      })),
    )
    .returning('Id')
    .execute();
  return { sockets };
}

/** A session on the socket started at `at` and ended (one open session per socket at most). */
async function insertSession(k: AnyKysely, socketId: number, at: number): Promise<{ Id: number }> {
  return k
    .insertInto('ChargeRecord')
    .values({
      AreaId: 1,
      ChargeEquipmentId: socketId,
      CardNumber: null,
      StartAt: at,
      EndAt: at + 500,
      EnergyWh: 0,
      StopReason: 1,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
}

/** A session's order as written before migration 0024: without its socket. */
const orderValues = (recordId: number, orderNo: string, createdAt: number) => ({
  AreaId: 1,
  ChargeRecordId: recordId,
  OrderNo: orderNo,
  ChargeType: 1,
  TemporaryChargeType: 1,
  UnitPriceCents: 100,
  FreeMinutes: 0,
  PaymentState: 0,
  CreatedAt: createdAt,
  UpdatedAt: 0,
});

describeEachDb('charging orders by socket', (h) => {
  it('lists one socket’s, one host’s and one zone’s orders exactly as a scan through their sessions does', async () => {
    const { app, db } = h();
    const k = db.kysely;
    const { admin: token } = await garageTokens(h());
    expect(
      await k.selectFrom('ChargeOrder').select('Id').where('AreaId', '=', 1).limit(1).execute(),
    ).toHaveLength(1);
    expect(await mismatchedOrders(k)).toBe(0);

    /** The order ids of the sessions matching `where`, newest first (the list's order), from a plain scan. */
    const scan = async (
      column: 'ChargeEquipment.Id' | 'ChargeHost.Id' | 'ChargeHost.ParkAreaId',
      id: number,
    ) =>
      (
        await k
          .selectFrom('ChargeOrder')
          .innerJoin('ChargeRecord', 'ChargeRecord.Id', 'ChargeOrder.ChargeRecordId')
          .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
          .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
          .select('ChargeOrder.Id')
          .where('ChargeOrder.AreaId', '=', 1)
          .where(column, '=', id)
          .orderBy('ChargeOrder.CreatedAt', 'desc')
          .orderBy('ChargeOrder.Id', 'desc')
          .execute()
      ).map((r) => r.Id);
    /** Every page of 2 until a short one; the total each page tells equals what the pages held. */
    const listed = async (filter: Record<string, number>) => {
      const ids: number[] = [];
      const totals = new Set<number>();
      let page: OrderPage;
      do {
        const reply = await call<OrderPage>(app, 'GET', '/api/ChargeOrder', {
          token,
          area: 1,
          query: { ...filter, PageSize: 2, PageIndex: ids.length / 2 + 1 },
        });
        expect(reply.status).toBe(200);
        page = reply.data;
        ids.push(...page.Items.map((i) => i.Id));
        totals.add(page.Total);
      } while (page.Items.length === 2);
      expect([...totals]).toEqual([ids.length]);
      return ids;
    };

    // The busiest socket of area 1, its host and its zone.
    const busiest = await k
      .selectFrom('ChargeRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select(['ChargeEquipment.Id as SocketId', 'ChargeHost.Id as HostId', 'ChargeHost.ParkAreaId'])
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('ChargeRecord.AreaId', '=', 1)
      .groupBy(['ChargeEquipment.Id', 'ChargeHost.Id', 'ChargeHost.ParkAreaId'])
      .orderBy('n', 'desc')
      .executeTakeFirstOrThrow();
    // Pages of 2: the socket's orders span several.
    expect(Number(busiest.n)).toBeGreaterThan(2);
    const bySocket = await scan('ChargeEquipment.Id', busiest.SocketId);
    expect(await listed({ ChargeEquipmentId: busiest.SocketId })).toEqual(bySocket);
    const byHost = await scan('ChargeHost.Id', busiest.HostId);
    expect(byHost.length).toBeGreaterThan(bySocket.length);
    expect(await listed({ ChargeHostId: busiest.HostId })).toEqual(byHost);
    expect(await listed({ ParkAreaId: busiest.ParkAreaId })).toEqual(
      await scan('ChargeHost.ParkAreaId', busiest.ParkAreaId),
    );

    // Another area's socket lists nothing in area 1 (the area stays checked with the socket's own index).
    const elsewhere = await k
      .selectFrom('ChargeEquipment')
      .select('Id')
      .where('AreaId', '!=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    expect(await listed({ ChargeEquipmentId: elsewhere.Id })).toEqual([]);
  });
});

/** PostgreSQL drops the column's default after the fill; SQLite cannot, and the table's type makes every insert name it. */
describe.runIf(targets.some((t) => t.name === 'postgres'))('[postgres] an order without its socket', () => {
  it('is refused, so no writer files one under socket 0', async () => {
    const { db, drop } = await targets.find((t) => t.name === 'postgres')!.open();
    try {
      await runMigrations(db, migrations);
      const k = db.kysely as AnyKysely;
      await k
        .insertInto('AreaInfo')
        .values({ Name: 'A', Custom: null, CreatedAt: 0, UpdatedAt: 0 })
        .execute();
      const { sockets } = await insertSockets(k);
      const record = await insertSession(k, sockets[0]!.Id, 0);
      const order = orderValues(record.Id, 'NOSOCKET01', 0);
      await expect(k.insertInto('ChargeOrder').values(order).execute()).rejects.toThrow(/ChargeEquipmentId/);
      // The same row with its socket is taken: the socket alone was missing.
      await k
        .insertInto('ChargeOrder')
        .values({ ...order, ChargeEquipmentId: sockets[0]!.Id })
        .execute();
    } finally {
      await db.close();
      await drop();
    }
  });
});

/** Migration 0024 on a database that already holds orders: each gets its session's socket. */
describe('migration 0024 over existing charging orders', () => {
  for (const target of targets)
    it(`[${target.name}] copies each session's socket to its order`, async () => {
      const { db, drop } = await target.open();
      try {
        await runMigrations(
          db,
          Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0024')),
        );
        // The tables as they were before 0024 (no ChargeEquipmentId on the order): untyped on purpose.
        const k = db.kysely as AnyKysely;
        await k
          .insertInto('AreaInfo')
          .values({ Name: 'A', Custom: null, CreatedAt: 0, UpdatedAt: 0 })
          .execute();
        const { sockets } = await insertSockets(k);
        const expected = new Map<number, number>();
        for (let i = 0; i < 6; i += 1) {
          const socketId = sockets[i % 2]!.Id;
          const record = await insertSession(k, socketId, i * 1000);
          const order = await k
            .insertInto('ChargeOrder')
            .values(orderValues(record.Id, `M${i}`, i * 1000))
            .returning('Id')
            .executeTakeFirstOrThrow();
          expected.set(order.Id, socketId);
        }
        /**
         * The order table's indexes and unique constraints: on PostgreSQL set aside by the fill and built again,
         * on SQLite left in place; the same afterwards either way, with the socket's index added.
         */
        const structure = async () =>
          (db.dialect === 'postgres'
            ? await sql<{
                name: string;
                def: string;
              }>`select indexname as name, indexdef as def from pg_indexes
                  where schemaname = current_schema() and tablename = 'ChargeOrder'
                  union all select conname, pg_get_constraintdef(oid) from pg_constraint
                  where conrelid = '"ChargeOrder"'::regclass and contype = 'u'`.execute(k)
            : await sql<{
                name: string;
                def: string;
              }>`select name, coalesce(sql, '') as def from sqlite_master
                  where type = 'index' and tbl_name = 'ChargeOrder'`.execute(k)
          ).rows.map((r) => `${r.name}: ${r.def}`);
        const before = await structure();
        expect(before.length).toBeGreaterThanOrEqual(4);
        expect(await runMigrations(db, migrations)).toContain('0024-charge-order-socket');
        const after = await structure();
        expect(after.filter((d) => !d.startsWith('ChargeOrder_Equipment_CreatedAt_Id:')).sort()).toEqual(
          before.sort(),
        );
        expect(after.filter((d) => d.startsWith('ChargeOrder_Equipment_CreatedAt_Id:'))).toHaveLength(1);
        // Unique still: a second order of the same session is refused.
        await expect(
          k
            .insertInto('ChargeOrder')
            .values({
              ...orderValues(
                (await k.selectFrom('ChargeRecord').select('Id').executeTakeFirstOrThrow()).Id,
                'DUPLICATE1',
                0,
              ),
              ChargeEquipmentId: sockets[0]!.Id,
            })
            .execute(),
        ).rejects.toThrow();
        const rows = await k.selectFrom('ChargeOrder').select(['Id', 'ChargeEquipmentId']).execute();
        expect(new Map(rows.map((r) => [r.Id, r.ChargeEquipmentId]))).toEqual(expected);
        expect(await mismatchedOrders(k)).toBe(0);
        // The record days are untouched by the fill (the triggers watch only the area and the time).
        const days = await sql<{
          n: number | string;
        }>`select sum("Count") as n from "RecordDay" where "Kind" = 'ChargeOrder'`.execute(k);
        expect(Number(days.rows[0]!.n)).toBe(6);
      } finally {
        await db.close();
        await drop();
      }
    });
});
