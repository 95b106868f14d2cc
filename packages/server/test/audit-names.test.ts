import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/*
 * The operation log names its objects (issue 21, item 8): an entry whose snapshots name nothing (a clock
 * check, a settlement) carries the object's current name (EntityName), for every kind of object that has one.
 */
const ENTITIES: [entity: string, table: string][] = [
  ['AppUser', 'AppUser'],
  ['AreaInfo', 'AreaInfo'],
  ['Role', 'Role'],
  ['OperatorStaff', 'OperatorStaff'],
  ['Department', 'Department'],
  ['PeopleGroup', 'PeopleGroup'],
  ['AccessControlDevice', 'AccessControlDevice'],
  ['AccessControlChannel', 'AccessControlChannel'],
  ['CardUser', 'CardUser'],
  ['Card', 'Card'],
  ['ParkArea', 'ParkArea'],
  ['ChargeRule', 'ChargeRule'],
  ['ChargeHost', 'ChargeHost'],
  ['ChargeEquipment', 'ChargeEquipment'],
  ['ChargeOrder', 'ChargeOrder'],
  ['ParkOrder', 'ParkOrder'],
  ['Vehicle', 'Vehicle'],
];

describeEachDb('operation log: object names', (h) => {
  it('names every object whose entry recorded no name', async () => {
    const k = h().db.kysely;
    const at = h().clock.now() - 60_000;
    for (const [entity, table] of ENTITIES) {
      const row = await (k as never as Kysely<Record<string, { Id: number }>>)
        .selectFrom(table)
        .select('Id')
        .orderBy('Id')
        .limit(1)
        .executeTakeFirstOrThrow();
      await k
        .insertInto('AuditLog')
        .values({
          At: at,
          UserId: null,
          UserName: 'system',
          AreaId: null,
          Action: 'update',
          Entity: entity,
          EntityId: String(row.Id),
          Before: JSON.stringify({ DriftSeconds: 0 }),
          After: JSON.stringify({ DriftSeconds: 42 }),
          Ip: null,
        })
        .execute();
    }
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const list = await call<{ Items: { Entity: string; EntityName: string | null; At: string }[] }>(
      h().app,
      'GET',
      '/api/AuditLog',
      { token, query: { PageIndex: 1, PageSize: 100, UserName: 'system' } },
    );
    expect(list.status, list.msg).toBe(200);
    const named = new Map(list.data.Items.map((i) => [i.Entity, i.EntityName]));
    for (const [entity] of ENTITIES) expect(named.get(entity), entity).toBeTruthy();
  });
});
