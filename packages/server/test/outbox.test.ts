import { cataloguePayload, displayToCard } from '@gatehouse/shared';
import { expect, it } from 'vitest';
import { recordSwipe, recordSwipes } from '../src/modules/access-control/index.ts';
import { ALARM, raiseAlarm } from '../src/modules/access-control/door-alarm/service.ts';
import { emitEvent } from '../src/platform/outbox/outbox.ts';
import { pruneOutbox } from '../src/platform/outbox/webhooks.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, systemContext } from './support/harness.ts';

/**
 * Issue 29, the transactional outbox: an event is written in the transaction of the change it reports (a swipe
 * stored: `swipe.recorded` with the values the swipe list shows), validated against the catalogue's schema, and
 * nothing is written when the change rolls back.
 */
describeEachDb('Transactional outbox', (h) => {
  async function fixtures() {
    const k = h().db.kysely;
    const holder = await k
      .selectFrom('CardUser')
      .innerJoin('Card', 'Card.CardUserId', 'CardUser.Id')
      .select(['CardUser.Id', 'CardUser.Name', 'Card.CardNumber'])
      .where('CardUser.AreaId', '=', 1)
      .orderBy('CardUser.Id')
      .executeTakeFirstOrThrow();
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber', 'Name'])
      .where('AreaId', '=', 1)
      .where('Type', '=', 2)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const area = await k.selectFrom('AreaInfo').select('Name').where('Id', '=', 1).executeTakeFirstOrThrow();
    return { holder, device, area };
  }

  const events = () => h().db.kysely.selectFrom('OutboxEvent').selectAll().orderBy('Id').execute();

  it('a stored swipe is a swipe.recorded event in the same transaction, with the names the list shows', async () => {
    const { holder, device, area } = await fixtures();
    const before = (await events()).length;
    const at = h().clock.now() - 1_000;
    const id = await recordSwipe(h().db.kysely, {
      SerialNumber: device.SerialNumber,
      DoorNumber: 2,
      Direction: 2,
      CardValue: displayToCard(holder.CardNumber),
      At: at,
      Result: true,
      Reason: 1,
    });
    const rows = await events();
    expect(rows.length).toBe(before + 1);
    const row = rows.at(-1)!;
    expect(row.Type).toBe('swipe.recorded');
    expect(row.AreaId).toBe(1);
    expect(Number(row.At)).toBe(at);
    expect(row.Dispatched).toBe(0);
    const payload = cataloguePayload('swipe.recorded').parse(JSON.parse(row.Payload));
    expect(payload.timestamp).toBe(new Date(at).toISOString());
    expect(payload.data).toMatchObject({
      Id: id,
      AreaId: 1,
      AreaName: area.Name,
      CardNumber: holder.CardNumber,
      CardUserId: holder.Id,
      HolderName: holder.Name,
      DeviceId: device.Id,
      DeviceName: device.Name,
      ChannelName: '2号门出门',
      DoorNumber: 2,
      Direction: 2,
      Result: true,
      Reason: 1,
    });
  });

  it('a batch that rolls back writes no event', async () => {
    const { holder, device } = await fixtures();
    const before = (await events()).length;
    const at = h().clock.now() - 1_000;
    const good = {
      SerialNumber: device.SerialNumber,
      DoorNumber: 1,
      Direction: 1,
      CardValue: displayToCard(holder.CardNumber),
      At: at,
      Result: true,
      Reason: 1,
    };
    // The second record names no controller: the whole batch, its first record and its event included, is undone.
    await expect(
      recordSwipes(h().db.kysely, [good, { ...good, SerialNumber: '999999999' }]),
    ).rejects.toThrow();
    expect((await events()).length).toBe(before);
  });

  it('an event whose data does not match its catalogue schema is refused with its change', async () => {
    const before = (await events()).length;
    await expect(
      h()
        .db.kysely.transaction()
        .execute((trx) =>
          emitEvent(trx, {
            type: 'holder.deleted',
            at: h().clock.now(),
            // @ts-expect-error -- a holder's name missing, on purpose
            data: { Id: 1, CardNumbers: [], AreaId: 1, AreaName: 'x' },
          }),
        ),
    ).rejects.toThrow();
    expect((await events()).length).toBe(before);
  });

  it('a holder added, edited and deleted: holder.created, holder.updated, holder.deleted as the holder list shows it', async () => {
    const { app, clock } = h();
    const token = await login(app, 'acadmin', DEMO_PASSWORD);
    const before = (await events()).length;
    const body = {
      Name: '事件持卡人',
      Phone: '13800138002',
      Nation: 1,
      ValidFrom: new Date(clock.now() - 86_400_000).toISOString(),
      ValidTo: new Date(clock.now() + 30 * 86_400_000).toISOString(),
    };
    const created = await call<{ Id: number }>(app, 'POST', '/api/CardUser', { token, area: 1, body });
    expect(created.status, created.msg).toBe(200);
    const id = created.data.Id;
    const edited = await call(app, 'PUT', '/api/CardUser', {
      token,
      area: 1,
      body: { ...body, Id: id, Phone: '13800138003' },
    });
    expect(edited.status, edited.msg).toBe(200);
    const shown = await call<Record<string, unknown>>(app, 'GET', `/api/CardUser/${id}`, { token, area: 1 });
    // An edit that also extends the validity is noted as two change records (modified, extended), one event.
    const longer = {
      ...body,
      Id: id,
      Phone: '13800138004',
      ValidTo: new Date(clock.now() + 60 * 86_400_000).toISOString(),
    };
    const both = await call(app, 'PUT', '/api/CardUser', { token, area: 1, body: longer });
    expect(both.status, both.msg).toBe(200);
    const shownLonger = await call<Record<string, unknown>>(app, 'GET', `/api/CardUser/${id}`, {
      token,
      area: 1,
    });
    const removed = await call(app, 'DELETE', `/api/CardUser/${id}`, { token, area: 1 });
    expect(removed.status, removed.msg).toBe(200);
    const rows = (await events()).slice(before);
    expect(rows.map((r) => r.Type)).toEqual([
      'holder.created',
      'holder.updated',
      'holder.updated',
      'holder.deleted',
    ]);
    const [add, edit, editLonger, gone] = rows.map(
      (r) => JSON.parse(r.Payload) as { data: Record<string, unknown> },
    );
    expect(add!.data).toMatchObject({ Id: id, Name: '事件持卡人', Phone: '13800138002', AreaId: 1 });
    // The edit's event is the holder as the list showed it after the edit.
    expect(edit!.data).toEqual({ ...shown.data, AreaId: 1, AreaName: expect.any(String) });
    expect(editLonger!.data).toEqual({ ...shownLonger.data, AreaId: 1, AreaName: expect.any(String) });
    expect(gone!.data).toEqual({
      Id: id,
      Name: '事件持卡人',
      CardNumbers: [],
      AreaId: 1,
      AreaName: expect.any(String),
    });
  });

  it('an alarm raised and acknowledged: door.alarm.raised, then door.alarm.acknowledged with who and the note', async () => {
    const { device } = await fixtures();
    const before = (await events()).length;
    const at = h().clock.now();
    const raised = await h()
      .db.kysely.transaction()
      .execute((trx) =>
        raiseAlarm(systemContext(h()), trx, {
          device: { Id: device.Id, AreaId: 1, Name: device.Name },
          door: 1,
          doorName: '1号门',
          kind: ALARM.forced,
          at,
        }),
      );
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const ack = await call(h().app, 'POST', '/api/DoorAlarm/Acknowledge', {
      token,
      area: 1,
      body: { Ids: [raised.item.Id], Note: 'guard checked' },
    });
    expect(ack.status, ack.msg).toBe(200);
    const rows = (await events()).slice(before);
    expect(rows.map((r) => r.Type)).toEqual(['door.alarm.raised', 'door.alarm.acknowledged']);
    const [up, seen] = rows.map((r) =>
      cataloguePayload(r.Type as 'door.alarm.raised').parse(JSON.parse(r.Payload)),
    );
    expect(up!.data).toMatchObject({
      Id: raised.item.Id,
      Kind: ALARM.forced,
      DeviceName: device.Name,
      AreaId: 1,
    });
    expect(seen!.data).toMatchObject({ Id: raised.item.Id, Note: 'guard checked', State: 1 });
    expect(seen!.data.AcknowledgedBy).toBeTruthy();
  });

  it('keeps dispatched events 7 days and finished deliveries 30 days, nothing waiting is removed', async () => {
    // The instance's webhook worker passes every 200 ms and would dispatch the waiting event between its insert
    // and the prune (seen once under load): stopped for this last test, so the prune alone is what is measured.
    await h().outbox.webhooks.close();
    const k = h().db.kysely;
    const now = h().clock.now();
    const day = 86_400_000;
    const payload = '{}';
    const ids: number[] = [];
    for (const [at, dispatched] of [
      [now - 8 * day, 1],
      [now - 8 * day, 0],
      [now - 6 * day, 1],
    ] as const)
      ids.push(
        (
          await k
            .insertInto('OutboxEvent')
            .values({ Type: 'swipe.recorded', AreaId: 1, At: at, Payload: payload, Dispatched: dispatched })
            .returning('Id')
            .executeTakeFirstOrThrow()
        ).Id,
      );
    const hook = await k
      .insertInto('Webhook')
      .values({
        Url: 'http://127.0.0.1:9/x',
        AreaIds: '[1]',
        Events: '["swipe.recorded"]',
        Secret: 'whsec_AAAA',
        DisabledReason: null,
        FailingSince: null,
        CreatedByName: 'test',
        CreatedAt: now,
        UpdatedAt: now,
        Disabled: 1,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    const delivery = (status: string, last: number) => ({
      WebhookId: hook.Id,
      EventId: ids[0]!,
      MessageId: `evt_${ids[0]}`,
      Type: 'swipe.recorded',
      EventAt: last,
      Payload: payload,
      Status: status,
      NextAttemptAt: last,
      LastAttemptAt: last,
      CreatedAt: last,
    });
    await k
      .insertInto('WebhookDelivery')
      .values([
        delivery('delivered', now - 31 * day),
        delivery('pending', now - 31 * day),
        delivery('failed', now - 29 * day),
      ])
      .execute();
    await pruneOutbox(h().db, h().clock);
    const left = await k
      .selectFrom('OutboxEvent')
      .select('Id')
      .where('Id', 'in', ids)
      .orderBy('Id')
      .execute();
    expect(left.map((r) => r.Id)).toEqual([ids[1], ids[2]]);
    const kept = await k
      .selectFrom('WebhookDelivery')
      .select('Status')
      .where('WebhookId', '=', hook.Id)
      .orderBy('Id')
      .execute();
    expect(kept.map((r) => r.Status)).toEqual(['pending', 'failed']);
  });
});
