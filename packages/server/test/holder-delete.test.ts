import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

const DAY = 86_400_000;

/** A card holder with nothing depending on it can be deleted; otherwise 409 names what remains. */
describeEachDb('card holder deletion', (h) => {
  it('deletes a holder without cards, authorisations or swipes, with its change records', async () => {
    const { app, db, clock } = h();
    const token = await login(app, 'acadmin', DEMO_PASSWORD);
    const created = await call<{ Id: number }>(app, 'POST', '/api/CardUser', {
      token,
      area: 1,
      body: {
        Name: '误录持卡人',
        Phone: '13800138001',
        Nation: 1,
        ValidFrom: new Date(clock.now() - DAY).toISOString(),
        ValidTo: new Date(clock.now() + 30 * DAY).toISOString(),
      },
    });
    expect(created.status, created.msg).toBe(200);
    const id = created.data.Id;
    const removed = await call(app, 'DELETE', `/api/CardUser/${id}`, { token, area: 1 });
    expect(removed.status, removed.msg).toBe(200);
    expect(
      await db.kysely.selectFrom('CardUser').select('Id').where('Id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
    const records = await db.kysely
      .selectFrom('ChangeRecord')
      .select('Id')
      .where('CardUserId', '=', id)
      .execute();
    expect(records).toEqual([]);
    const logged = await db.kysely
      .selectFrom('AuditLog')
      .select(['Action', 'Before'])
      .where('Entity', '=', 'CardUser')
      .where('EntityId', '=', String(id))
      .where('Action', '=', 'delete')
      .executeTakeFirstOrThrow();
    expect(logged.Before).toContain('误录持卡人');
  });

  it('refuses a holder with cards with a 409 that names them', async () => {
    const { app, db } = h();
    const token = await login(app, 'acadmin', DEMO_PASSWORD);
    const holder = await db.kysely
      .selectFrom('Card')
      .select('CardUserId')
      .where('AreaId', '=', 1)
      .where('CardUserId', 'is not', null)
      .executeTakeFirstOrThrow();
    const refused = await call(app, 'DELETE', `/api/CardUser/${holder.CardUserId}`, { token, area: 1 });
    expect(refused.status).toBe(409);
    expect(refused.msg).toContain('卡片');
    expect(
      await db.kysely
        .selectFrom('CardUser')
        .select('Id')
        .where('Id', '=', holder.CardUserId!)
        .executeTakeFirst(),
    ).toBeDefined();
  });
});
