import { expect, it } from 'vitest';
import { setSocketStatus } from '../src/modules/garage/index.ts';
import { deviceActor, systemActor, type AreaContext } from '../src/platform/context.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

/** An idle, enabled socket of area 1 and its host: what a charger's gateway would report on. */
async function idleSocket(h: Harness) {
  return h.db.kysely
    .selectFrom('ChargeEquipment')
    .select(['ChargeEquipment.Id', 'ChargeEquipment.ChargeHostId'])
    .where('ChargeEquipment.AreaId', '=', 1)
    .where('ChargeEquipment.Disabled', '=', 0)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('ChargeRecord')
            .select('ChargeRecord.Id')
            .whereRef('ChargeRecord.ChargeEquipmentId', '=', 'ChargeEquipment.Id')
            .where('ChargeRecord.EndAt', 'is', null),
        ),
      ),
    )
    .orderBy('ChargeEquipment.Id')
    .executeTakeFirstOrThrow();
}

async function lastAudit(h: Harness, entity: string, entityId: number) {
  return h.db.kysely
    .selectFrom('AuditLog')
    .selectAll()
    .where('Entity', '=', entity)
    .where('EntityId', '=', String(entityId))
    .orderBy('Id', 'desc')
    .executeTakeFirstOrThrow();
}

describeEachDb('services without HTTP', (h) => {
  it('a device actor calls a service and the audit entry names the device', async () => {
    const socket = await idleSocket(h());
    // Built by hand, as a device gateway builds it: no Fastify request, no user, no permissions.
    const ctx: AreaContext = {
      db: h().db,
      clock: h().clock,
      lang: 'en',
      areaId: 1,
      actor: deviceActor(socket.ChargeHostId, 'Charger CH-TEST'),
    };
    await setSocketStatus(ctx, socket.Id, true);

    const entry = await lastAudit(h(), 'ChargeEquipment', socket.Id);
    expect(entry).toMatchObject({
      ActorKind: 'device',
      ActorId: socket.ChargeHostId,
      UserId: null,
      UserName: 'Charger CH-TEST',
      Ip: null,
      AreaId: 1,
      Action: 'status',
    });
    expect(JSON.parse(entry.After!)).toMatchObject({ Disabled: 1 });

    // The operation log shows it as it shows any entry, with the device's name where a user's would be.
    const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    const page = await call<{ Items: Record<string, unknown>[] }>(h().app, 'GET', '/api/AuditLog', {
      token: admin,
      query: { PageIndex: 1, PageSize: 5, Entity: 'ChargeEquipment' },
    });
    const row = page.data.Items.find((i) => i.EntityId === String(socket.Id));
    expect(row).toMatchObject({
      UserId: null,
      UserName: 'Charger CH-TEST',
      Ip: null,
      Action: 'status',
      ActorKind: 'device',
    });
    // The actor's id stays internal: the log's item has the fields it always had, the object's name (issue 21:
    // the operation log names objects instead of '#id') and the actor's kind (issue 27: a device or a system
    // job is labelled as such, in the reader's language).
    expect(Object.keys(row!).sort()).toEqual(
      [
        'Action',
        'ActorKind',
        'After',
        'AreaId',
        'AreaName',
        'At',
        'Before',
        'Entity',
        'EntityId',
        'EntityName',
        'Id',
        'Ip',
        'UserId',
        'UserName',
      ].sort(),
    );
    expect(row!.EntityName).toBeTruthy();

    await setSocketStatus({ ...ctx, actor: systemActor('maintenance') }, socket.Id, false);
    expect(await lastAudit(h(), 'ChargeEquipment', socket.Id)).toMatchObject({
      ActorKind: 'system',
      ActorId: null,
      UserId: null,
      UserName: 'maintenance',
    });
  });

  it('a user acting through a route is recorded as before, and as a user actor', async () => {
    const socket = await idleSocket(h());
    const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    const reply = await call(h().app, 'POST', '/api/ChargeEquipment/SetStatus', {
      token: admin,
      area: 1,
      query: { Id: socket.Id, Disabled: true },
      ip: '10.1.2.3',
    });
    expect(reply.status).toBe(200);
    const entry = await lastAudit(h(), 'ChargeEquipment', socket.Id);
    expect(entry).toMatchObject({ ActorKind: 'user', UserName: 'admin', Ip: '10.1.2.3' });
    expect(entry.ActorId).toBe(entry.UserId);
    expect(entry.UserId).toEqual(expect.any(Number));
  });
});
