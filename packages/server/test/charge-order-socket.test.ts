import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../src/assembly.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb, targets } from './support/harness.ts';

type OrderPage = { Items: { Id: number; ChargeRecordId: number }[]; Total: number };

/**
 * Every order's socket is its session's (migration 0024 and every writer since): the list of one socket, host
 * or zone reads the order's own copy, so a copy that differs would list orders under the wrong socket.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- also run on the tables before migration 0024
async function mismatchedOrders(k: Kysely<any>): Promise<number> {
  const row = await k
    .selectFrom('ChargeOrder')
    .innerJoin('ChargeRecord', 'ChargeRecord.Id', 'ChargeOrder.ChargeRecordId')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .whereRef('ChargeOrder.ChargeEquipmentId', '!=', 'ChargeRecord.ChargeEquipmentId')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

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
    const listed = async (filter: Record<string, number>) => {
      const ids: number[] = [];
      for (let page = 1; ; page += 1) {
        const reply = await call<OrderPage>(app, 'GET', '/api/ChargeOrder', {
          token,
          area: 1,
          query: { ...filter, PageSize: 2, PageIndex: page },
        });
        expect(reply.status).toBe(200);
        ids.push(...reply.data.Items.map((i) => i.Id));
        if (reply.data.Items.length < 2) {
          expect(reply.data.Total).toBe(ids.length);
          return ids;
        }
      }
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
      .executeTakeFirst();
    if (elsewhere) expect(await listed({ ChargeEquipmentId: elsewhere.Id })).toEqual([]);
  });

  it('refuses (PostgreSQL) an order written without its socket, so no writer files one under socket 0', async () => {
    const { db } = h();
    if (db.dialect !== 'postgres') return;
    const order = await db.kysely.selectFrom('ChargeOrder').selectAll().limit(1).executeTakeFirstOrThrow();
    const { Id: _id, ChargeEquipmentId: _socket, ...rest } = order;
    await expect(
      db.kysely
        .insertInto('ChargeOrder')
        .values({ ...rest, OrderNo: 'NOSOCKET01' } as never)
        .execute(),
    ).rejects.toThrow(/ChargeEquipmentId/);
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
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
        const k = db.kysely as Kysely<any>;
        await k
          .insertInto('AreaInfo')
          .values({ Name: 'A', Custom: null, CreatedAt: 0, UpdatedAt: 0 })
          .execute();
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
        const sockets = await k
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
        const expected = new Map<number, number>();
        for (let i = 0; i < 6; i += 1) {
          const socketId = sockets[i % 2]!.Id;
          const record = await k
            .insertInto('ChargeRecord')
            .values({
              AreaId: 1,
              ChargeEquipmentId: socketId,
              CardNumber: null,
              StartAt: i * 1000,
              // Ended: one open session per socket at most.
              EndAt: i * 1000 + 500,
              EnergyWh: 0,
              StopReason: 1,
            })
            .returning('Id')
            .executeTakeFirstOrThrow();
          const order = await k
            .insertInto('ChargeOrder')
            .values({
              AreaId: 1,
              ChargeRecordId: record.Id,
              OrderNo: `M${i}`,
              ChargeType: 1,
              TemporaryChargeType: 1,
              UnitPriceCents: 100,
              FreeMinutes: 0,
              PaymentState: 0,
              CreatedAt: i * 1000,
              UpdatedAt: 0,
            })
            .returning('Id')
            .executeTakeFirstOrThrow();
          expected.set(order.Id, socketId);
        }
        /** The order table's indexes and unique constraints (PostgreSQL): set aside by the fill, then built again. */
        const structure = async () =>
          db.dialect !== 'postgres'
            ? []
            : (
                await sql<{
                  name: string;
                  def: string;
                }>`select indexname as name, indexdef as def from pg_indexes
                  where schemaname = current_schema() and tablename = 'ChargeOrder'
                  union all select conname, pg_get_constraintdef(oid) from pg_constraint
                  where conrelid = '"ChargeOrder"'::regclass and contype = 'u'`.execute(k)
              ).rows.map((r) => `${r.name}: ${r.def}`);
        const before = await structure();
        if (db.dialect === 'postgres') expect(before.length).toBeGreaterThanOrEqual(5);
        expect(await runMigrations(db, migrations)).toContain('0024-charge-order-socket');
        if (db.dialect === 'postgres') {
          const after = await structure();
          expect(after.filter((d) => !d.startsWith('ChargeOrder_Equipment_CreatedAt_Id:')).sort()).toEqual(
            before.sort(),
          );
          expect(after.filter((d) => d.startsWith('ChargeOrder_Equipment_CreatedAt_Id:'))).toHaveLength(1);
        }
        // Unique still: a second order of the same session is refused.
        await expect(
          k
            .insertInto('ChargeOrder')
            .values({
              AreaId: 1,
              ChargeRecordId: (await k.selectFrom('ChargeRecord').select('Id').executeTakeFirstOrThrow()).Id,
              ChargeEquipmentId: sockets[0]!.Id,
              OrderNo: 'DUPLICATE1',
              ChargeType: 1,
              TemporaryChargeType: 1,
              UnitPriceCents: 100,
              FreeMinutes: 0,
              PaymentState: 0,
              CreatedAt: 0,
              UpdatedAt: 0,
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
