import { cataloguePayload, doorCount, type CatalogueEventType } from '@gatehouse/shared';
import { expect, it } from 'vitest';
import { confirmSync, saveDeviceState, storeControllerRecords } from '../src/modules/access-control/index.ts';
import {
  noteControllerOnline,
  noteDoorStatus,
  watchDoors,
} from '../src/modules/access-control/door-monitor/service.ts';
import { closeDeviceSession } from '../src/modules/garage/index.ts';
import { deviceActor, type ServiceContext } from '../src/platform/context.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, systemContext } from './support/harness.ts';

/**
 * Issue 29, the events written where their change is stored (platform/outbox): `authorisation.changed` (granted,
 * updated, revoked), `order.settled`, `controller.online` / `controller.offline` and `door.state`, each with the
 * values its screen shows, in the change's transaction: none when the change is refused or rolled back, none
 * when nothing changed.
 */
describeEachDb('Outbox events of authorisations, orders, controllers and doors', (h) => {
  const events = () => h().db.kysely.selectFrom('OutboxEvent').selectAll().orderBy('Id').execute();
  const lastId = async () => (await events()).at(-1)?.Id ?? 0;
  async function since(id: number) {
    return (await events())
      .filter((r) => r.Id > id)
      .map((r) => ({
        row: r,
        // Each parsed against its catalogue schema: what a receiver is promised.
        payload: cataloguePayload(r.Type as CatalogueEventType).parse(JSON.parse(r.Payload)) as {
          type: string;
          timestamp: string;
          data: Record<string, unknown>;
        },
      }));
  }
  const areaName = async (id: number) =>
    (await h().db.kysely.selectFrom('AreaInfo').select('Name').where('Id', '=', id).executeTakeFirstOrThrow())
      .Name;

  it('authorisations granted, changed and revoked are authorisation.changed events as the list shows them; a refused change writes none', async () => {
    const { app } = h();
    const k = h().db.kysely;
    const token = await login(app, 'acadmin', DEMO_PASSWORD);
    const channelOf = (protocol: number) =>
      k
        .selectFrom('AccessControlChannel')
        .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'AccessControlChannel.DeviceId')
        .select(['AccessControlChannel.Id', 'AccessControlChannel.DeviceId'])
        .where('AccessControlChannel.AreaId', '=', 1)
        .where('AccessControlDevice.Protocol', '=', protocol)
        .orderBy('AccessControlChannel.Id')
        .executeTakeFirstOrThrow();
    const wg = await channelOf(0);
    const other = await channelOf(1);
    // An enabled holder with a card, starting with no authorisation on either channel (the demo's removed).
    const holder = await k
      .selectFrom('CardUser')
      .innerJoin('Card', 'Card.CardUserId', 'CardUser.Id')
      .select(['CardUser.Id', 'CardUser.Name'])
      .where('CardUser.AreaId', '=', 1)
      .where('CardUser.Disabled', '=', 0)
      .orderBy('CardUser.Id')
      .executeTakeFirstOrThrow();
    await k
      .deleteFrom('CardUserLinkChannel')
      .where('CardUserId', '=', holder.Id)
      .where('ChannelId', 'in', [wg.Id, other.Id])
      .execute();
    const listed = async (channelId: number) => {
      const page = await call<{ Items: Record<string, unknown>[] }>(app, 'GET', '/api/CardUserLinkChannel', {
        token,
        area: 1,
        query: { CardUserId: holder.Id, ChannelId: channelId },
      });
      expect(page.status, page.msg).toBe(200);
      return page.data.Items[0]!;
    };
    const area = { AreaId: 1, AreaName: await areaName(1) };

    // Refused (a channel that does not exist): nothing granted, nothing told.
    let mark = await lastId();
    const refused = await call(app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [wg.Id, 99_999_999] },
    });
    expect(refused.status).toBe(400);
    expect(await since(mark)).toEqual([]);

    // Granted on a WG door (pending issue) and on a third-party door (no issue needed).
    mark = await lastId();
    const granted = await call(app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [wg.Id, other.Id] },
    });
    expect(granted.status, granted.msg).toBe(200);
    const grants = await since(mark);
    expect(grants.map((e) => e.row.Type)).toEqual(['authorisation.changed', 'authorisation.changed']);
    const wgItem = await listed(wg.Id);
    const otherItem = await listed(other.Id);
    const idOrder = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.Id) - Number(b.Id);
    expect(grants.map((e) => e.payload.data).sort(idOrder)).toEqual(
      [
        { ...wgItem, ...area, Change: 'granted' },
        { ...otherItem, ...area, Change: 'granted' },
      ].sort(idOrder),
    );
    expect(grants.every((e) => e.row.AreaId === 1)).toBe(true);
    expect(wgItem).toMatchObject({ HolderName: holder.Name, IssueStatus: 1, Revoked: false });

    // The same grant again changes nothing and tells nothing.
    mark = await lastId();
    await call(app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [wg.Id] },
    });
    expect(await since(mark)).toEqual([]);

    // Its own validity: updated, with the new range as the list shows it.
    h().clock.advance(60_000);
    mark = await lastId();
    const from = h().clock.now() + 86_400_000;
    const changed = await call(app, 'PUT', '/api/CardUserLinkChannel', {
      token,
      area: 1,
      body: { Id: wgItem.Id, ValidFrom: new Date(from).toISOString(), ValidTo: null },
    });
    expect(changed.status, changed.msg).toBe(200);
    const updates = await since(mark);
    expect(updates.map((e) => e.payload.data)).toEqual([
      { ...(await listed(wg.Id)), ...area, Change: 'updated' },
    ]);
    expect(updates[0]!.payload.data).toMatchObject({
      CustomValidity: true,
      ValidFrom: new Date(from).toISOString(),
    });

    // A revoke of two where one does not exist: all or none, so nothing revoked and nothing told.
    mark = await lastId();
    const partly = await call(app, 'POST', '/api/CardUserLinkChannel/Revoke', {
      token,
      area: 1,
      body: { Ids: [Number(wgItem.Id), 99_999_999] },
    });
    expect(partly.status).toBe(404);
    expect(await since(mark)).toEqual([]);
    expect((await listed(wg.Id)).Revoked).toBe(false);

    // Revoked: the WG one stays listed as revoked; the third-party one is removed and told as it last was.
    h().clock.advance(60_000);
    mark = await lastId();
    const revoked = await call(app, 'POST', '/api/CardUserLinkChannel/Revoke', {
      token,
      area: 1,
      body: { Ids: [Number(wgItem.Id), Number(otherItem.Id)] },
    });
    expect(revoked.status, revoked.msg).toBe(200);
    const revokes = await since(mark);
    expect(revokes.map((e) => e.payload.data.Change)).toEqual(['revoked', 'revoked']);
    const byId = new Map(revokes.map((e) => [e.payload.data.Id, e.payload.data]));
    expect(byId.get(wgItem.Id)).toEqual({ ...(await listed(wg.Id)), ...area, Change: 'revoked' });
    expect(byId.get(wgItem.Id)).toMatchObject({ Revoked: true });
    expect(byId.get(otherItem.Id)).toEqual({
      ...otherItem,
      ...area,
      Change: 'revoked',
      Revoked: true,
      UpdatedAt: new Date(h().clock.now()).toISOString(),
    });
  });

  it("issue-status moves that follow other changes (a holder's edit, disable and enable, a channel's new door, the controller's sync confirmation) are authorisation.changed as the list shows them", async () => {
    const { app } = h();
    const k = h().db.kysely;
    const token = await login(app, 'acadmin', DEMO_PASSWORD);
    // A WG channel with its device, and a holder with a card who is granted on it alone (fresh, pending issue).
    const channel = await k
      .selectFrom('AccessControlChannel')
      .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'AccessControlChannel.DeviceId')
      .select([
        'AccessControlChannel.Id',
        'AccessControlChannel.Name',
        'AccessControlChannel.DoorNumber',
        'AccessControlChannel.Direction',
        'AccessControlChannel.DeviceId',
        'AccessControlDevice.SerialNumber',
        'AccessControlDevice.Type',
      ])
      .where('AccessControlChannel.AreaId', '=', 1)
      .where('AccessControlDevice.Protocol', '=', 0)
      .where('AccessControlChannel.DoorNumber', '>', 0)
      .orderBy('AccessControlChannel.Id')
      .limit(1)
      .offset(1)
      .executeTakeFirstOrThrow();
    const holder = await k
      .selectFrom('CardUser')
      .innerJoin('Card', 'Card.CardUserId', 'CardUser.Id')
      .select(['CardUser.Id'])
      .where('CardUser.AreaId', '=', 1)
      .where('CardUser.Disabled', '=', 0)
      .orderBy('CardUser.Id')
      .limit(1)
      .offset(1)
      .executeTakeFirstOrThrow();
    await k
      .deleteFrom('CardUserLinkChannel')
      .where('CardUserId', '=', holder.Id)
      .where('ChannelId', '=', channel.Id)
      .execute();
    const granted = await call(app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: 1,
      body: { CardUserId: holder.Id, ChannelIds: [channel.Id] },
    });
    expect(granted.status, granted.msg).toBe(200);
    const listed = async () => {
      const page = await call<{ Items: Record<string, unknown>[] }>(app, 'GET', '/api/CardUserLinkChannel', {
        token,
        area: 1,
        query: { CardUserId: holder.Id, ChannelId: channel.Id },
      });
      expect(page.status, page.msg).toBe(200);
      return page.data.Items[0]!;
    };
    const auth = await listed();
    expect(auth.IssueStatus).toBe(1);
    const area = { AreaId: 1, AreaName: await areaName(1) };
    const ours = (events: Awaited<ReturnType<typeof since>>) =>
      events.filter((e) => e.row.Type === 'authorisation.changed' && e.payload.data.Id === auth.Id);
    const row = () =>
      k
        .selectFrom('CardUserLinkChannel')
        .select(['Id', 'CardUserId', 'IssueStatus', 'UpdatedAt'])
        .where('Id', '=', Number(auth.Id))
        .executeTakeFirstOrThrow()
        .then((r) => ({ ...r, UpdatedAt: Number(r.UpdatedAt) }));
    const device: ServiceContext = {
      ...systemContext(h()),
      actor: deviceActor(channel.DeviceId, channel.SerialNumber),
    };

    // The controller confirms it (the WG gateway's sync pass): 1 → 3, told with the device's confirmation.
    h().clock.advance(1_000);
    let mark = await lastId();
    const read = await row();
    expect(await confirmSync(device, [read])).toEqual({ issued: 1, deleted: 0 });
    let told = await since(mark);
    expect(told.map((e) => e.row.Type)).toEqual(['authorisation.changed']);
    expect(told[0]!.payload.data).toEqual({ ...(await listed()), ...area, Change: 'updated' });
    expect(told[0]!.payload.data).toMatchObject({ IssueStatus: 3 });
    // Confirming it again (a pass that read it before): nothing moves, nothing is told.
    mark = await lastId();
    expect(await confirmSync(device, [read])).toEqual({ issued: 0, deleted: 0 });
    expect(await since(mark)).toEqual([]);

    // The holder's validity edited: 3 → 2 pending update, after the holder's own event, with the new validity.
    h().clock.advance(1_000);
    const detail = await call<Record<string, unknown>>(app, 'GET', `/api/CardUser/${holder.Id}`, {
      token,
      area: 1,
    });
    const d = detail.data;
    const body = {
      Id: holder.Id,
      Name: d.Name,
      Phone: d.Phone,
      CitizenId: d.CitizenId,
      Nation: d.Nation,
      DepartmentId: d.DepartmentId,
      PeopleGroupId: d.PeopleGroupId,
      PeopleTypeId: d.PeopleTypeId,
      ValidFrom: new Date(Date.parse(String(d.ValidFrom)) - 86_400_000).toISOString(),
      ValidTo: d.ValidTo,
      Remark: d.Remark,
    };
    mark = await lastId();
    const edited = await call(app, 'PUT', '/api/CardUser', { token, area: 1, body });
    expect(edited.status, edited.msg).toBe(200);
    told = await since(mark);
    expect(told.map((e) => e.row.Type)).toContain('holder.updated');
    expect(ours(told).map((e) => e.payload.data)).toEqual([
      { ...(await listed()), ...area, Change: 'updated' },
    ]);
    expect(ours(told)[0]!.payload.data).toMatchObject({ IssueStatus: 2, ValidFrom: body.ValidFrom });
    // Every authorisation the edit moved is told, and only those: this holder's.
    expect(
      told.filter((e) => e.row.Type === 'authorisation.changed').map((e) => e.payload.data.CardUserId),
    ).toEqual(expect.arrayContaining([holder.Id]));
    expect(
      told
        .filter((e) => e.row.Type === 'authorisation.changed')
        .every((e) => e.payload.data.CardUserId === holder.Id),
    ).toBe(true);

    // Disabled: pending deletion (it was sent to the controller); enabled: pending issue again.
    for (const [disabled, status] of [
      [true, -1],
      [false, 1],
    ] as const) {
      h().clock.advance(1_000);
      mark = await lastId();
      const set = await call(app, 'POST', '/api/CardUser/SetStatus', {
        token,
        area: 1,
        query: { Id: holder.Id, Disabled: disabled },
      });
      expect(set.status, set.msg).toBe(200);
      told = await since(mark);
      expect(ours(told).map((e) => e.payload.data)).toEqual([
        { ...(await listed()), ...area, Change: 'updated' },
      ]);
      expect(ours(told)[0]!.payload.data).toMatchObject({ IssueStatus: status, HolderDisabled: disabled });
    }

    // The channel moved to another door or direction of its controller: its live authorisations wait for an
    // update, each told with the channel's new door (written before the event is read).
    const taken = await k
      .selectFrom('AccessControlChannel')
      .select(['DoorNumber', 'Direction'])
      .where('DeviceId', '=', channel.DeviceId)
      .execute();
    const free = Array.from({ length: doorCount(channel.Type) }, (_, i) => i + 1)
      .flatMap((door) => [1, 2, 0].map((direction) => ({ door, direction })))
      .find(({ door, direction }) => !taken.some((t) => t.DoorNumber === door && t.Direction === direction))!;
    expect(free, 'a free door and direction on the controller').toBeDefined();
    const live = await k
      .selectFrom('CardUserLinkChannel')
      .select('Id')
      .where('ChannelId', '=', channel.Id)
      .where('IssueStatus', 'in', [1, 2, 3])
      .execute();
    h().clock.advance(1_000);
    mark = await lastId();
    const moved = await call(app, 'PUT', '/api/AccessControlChannel', {
      token,
      area: 1,
      body: { Id: channel.Id, Name: channel.Name, DoorNumber: free.door, Direction: free.direction },
    });
    expect(moved.status, moved.msg).toBe(200);
    told = await since(mark);
    const changes = told.filter((e) => e.row.Type === 'authorisation.changed');
    expect(changes.map((e) => e.payload.data.Id).sort()).toEqual(live.map((l) => l.Id).sort());
    expect(
      changes.every((e) => e.payload.data.IssueStatus === 2 && e.payload.data.Change === 'updated'),
    ).toBe(true);
    expect(ours(told).map((e) => e.payload.data)).toEqual([
      { ...(await listed()), ...area, Change: 'updated' },
    ]);
    expect(ours(told)[0]!.payload.data).toMatchObject({ DoorNumber: free.door, Direction: free.direction });

    // A name-only edit of the channel moves no status and tells nothing of its authorisations.
    mark = await lastId();
    const renamed = await call(app, 'PUT', '/api/AccessControlChannel', {
      token,
      area: 1,
      body: { Id: channel.Id, Name: `${channel.Name}*`, DoorNumber: free.door, Direction: free.direction },
    });
    expect(renamed.status, renamed.msg).toBe(200);
    expect((await since(mark)).filter((e) => e.row.Type === 'authorisation.changed')).toEqual([]);
    const back = await call(app, 'PUT', '/api/AccessControlChannel', {
      token,
      area: 1,
      body: {
        Id: channel.Id,
        Name: channel.Name,
        DoorNumber: channel.DoorNumber,
        Direction: channel.Direction,
      },
    });
    expect(back.status, back.msg).toBe(200);

    // Revoked, then the controller confirms the deletion: -1 → -2, told as updated (the revoke was told already).
    await call(app, 'POST', '/api/CardUserLinkChannel/Revoke', { token, area: 1, body: { Ids: [auth.Id] } });
    h().clock.advance(1_000);
    mark = await lastId();
    const pending = await row();
    expect(pending.IssueStatus).toBe(-1);
    expect(await confirmSync(device, [pending])).toEqual({ issued: 0, deleted: 1 });
    told = await since(mark);
    expect(told.map((e) => e.payload.data)).toEqual([{ ...(await listed()), ...area, Change: 'updated' }]);
    expect(told[0]!.payload.data).toMatchObject({ IssueStatus: -2, Revoked: true });
  });

  it('a charging order settled at its session end is order.settled as the order list shows it, once', async () => {
    const k = h().db.kysely;
    const token = await login(h().app, 'bikeadmin', DEMO_PASSWORD);
    const session = await k
      .selectFrom('ChargeRecord')
      .innerJoin('ChargeOrder', 'ChargeOrder.ChargeRecordId', 'ChargeRecord.Id')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .select([
        'ChargeRecord.Id',
        'ChargeRecord.AreaId',
        'ChargeRecord.ChargeEquipmentId',
        'ChargeRecord.MeterStartWh',
        'ChargeRecord.EnergyWh',
        'ChargeOrder.Id as OrderId',
        'ChargeEquipment.ChargeHostId',
      ])
      .where('ChargeRecord.AreaId', '=', 1)
      .where('ChargeRecord.EndAt', 'is', null)
      .orderBy('ChargeRecord.Id')
      .executeTakeFirstOrThrow();
    const ctx = {
      db: h().db,
      clock: h().clock,
      lang: 'en' as const,
      actor: deviceActor(session.ChargeHostId, 'test-charger'),
      areaId: session.AreaId,
    };
    const stop = {
      recordId: session.Id,
      socketId: session.ChargeEquipmentId,
      endAt: h().clock.now(),
      meterStopWh: (session.MeterStartWh ?? 0) + session.EnergyWh + 500,
      stopReason: 1,
    };

    // The session was started by a holder's card (the demo's sessions carry cards nobody holds).
    const holder = await k
      .selectFrom('Card')
      .innerJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
      .select(['Card.CardNumber', 'CardUser.Id', 'CardUser.Name', 'CardUser.Phone'])
      .where('Card.AreaId', '=', session.AreaId)
      .orderBy('Card.Id')
      .executeTakeFirstOrThrow();
    await k
      .updateTable('ChargeRecord')
      .set({ CardNumber: holder.CardNumber })
      .where('Id', '=', session.Id)
      .execute();

    // A stop naming another socket is not this session's: nothing ends, nothing is told.
    let mark = await lastId();
    const wrong = await closeDeviceSession(ctx, { ...stop, socketId: 99_999_999 });
    expect(wrong.closed).toBe(false);
    expect(await since(mark)).toEqual([]);

    mark = await lastId();
    const closed = await closeDeviceSession(ctx, stop);
    expect(closed.closed).toBe(true);
    const told = await since(mark);
    expect(told.map((e) => e.row.Type)).toEqual(['charging.session.ended', 'order.settled']);
    // The end names who charged, so the site can tell them: the holder of the session's card (set up above).
    const ended = told[0]!.payload.data as Record<string, unknown>;
    expect(ended.Holder).toEqual({
      CardUserId: holder.Id,
      Name: holder.Name,
      Phone: holder.Phone,
      VehicleId: null,
      Plate: null,
    });
    expect(ended).toMatchObject({ Id: session.Id, StopReason: 1, Open: false });
    const order = await call<Record<string, unknown>>(h().app, 'GET', `/api/ChargeOrder/${session.OrderId}`, {
      token,
      area: session.AreaId,
    });
    expect(order.status, order.msg).toBe(200);
    const { Actions: _actions, ...shown } = order.data;
    const settled = told[1]!.payload;
    expect(settled.data).toEqual({
      ...shown,
      Kind: 'ChargeOrder',
      AreaId: session.AreaId,
      AreaName: await areaName(session.AreaId),
    });
    expect(settled.data).toMatchObject({ Open: false, Estimated: false, ChargeRecordId: session.Id });
    expect(settled.timestamp).toBe(new Date(stop.endAt).toISOString());

    // The charger repeating its stop ends nothing again and settles nothing again.
    mark = await lastId();
    expect((await closeDeviceSession(ctx, stop)).closed).toBe(false);
    expect(await since(mark)).toEqual([]);
  });

  it('a controller stored online or offline is controller.online / controller.offline on a change only, and none behind a refused lease', async () => {
    const k = h().db.kysely;
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'Name', 'SerialNumber', 'AreaId'])
      .where('AreaId', '=', 1)
      .where('Protocol', '=', 0)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const ctx: ServiceContext = { ...systemContext(h()), actor: deviceActor(device.Id, device.SerialNumber) };
    const seen = h().clock.now();
    // Whatever the demo stored: offline first (an event only if it was not offline already).
    await saveDeviceState(ctx, device.Id, { Online: 0 });

    let mark = await lastId();
    await saveDeviceState(ctx, device.Id, { Online: 1, LastSeenAt: seen, Firmware: '8.92' });
    const online = await since(mark);
    expect(online.map((e) => e.row.Type)).toEqual(['controller.online']);
    expect(online[0]!.payload.data).toEqual({
      AreaId: 1,
      AreaName: await areaName(1),
      DeviceId: device.Id,
      DeviceName: device.Name,
      SerialNumber: device.SerialNumber,
      LastSeenAt: new Date(seen).toISOString(),
      Firmware: '8.92',
    });

    // Still answering (every collection pass stores it): no event.
    mark = await lastId();
    await saveDeviceState(ctx, device.Id, { Online: 1, LastSeenAt: seen + 1_000 });
    await saveDeviceState(ctx, device.Id, { Online: null });
    await saveDeviceState(ctx, device.Id, { LastSeenAt: seen + 2_000 });
    expect(await since(mark)).toEqual([]);

    // A writer whose lease was taken over writes nothing, and tells nothing.
    mark = await lastId();
    await saveDeviceState(ctx, device.Id, { Online: 0 });
    const offline = await since(mark);
    expect(offline.map((e) => e.row.Type)).toEqual(['controller.offline']);
    expect(offline[0]!.payload.data).toMatchObject({
      DeviceId: device.Id,
      LastSeenAt: new Date(seen + 2_000).toISOString(),
    });
    mark = await lastId();
    const fenced: ServiceContext = {
      ...ctx,
      fence: () => Promise.reject(new Error('lease lost')),
    };
    await expect(saveDeviceState(fenced, device.Id, { Online: 1 })).rejects.toThrow('lease lost');
    expect(await since(mark)).toEqual([]);
    const stored = await k
      .selectFrom('AccessControlDeviceState')
      .select('Online')
      .where('DeviceId', '=', device.Id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.Online)).toBe(0);
  });

  it("a door's live state that changes is door.state as the door monitor shows it; a report that changes nothing is none", async () => {
    const k = h().db.kysely;
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber'])
      .where('AreaId', '=', 1)
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .orderBy('Id')
      .limit(1)
      .offset(1)
      .executeTakeFirstOrThrow();
    const ctx: ServiceContext = { ...systemContext(h()), actor: deviceActor(device.Id, device.SerialNumber) };
    const monitor = async () => {
      const reply = await call<{ Doors: Record<string, unknown>[] }>(h().app, 'GET', '/api/DoorMonitor', {
        token,
        area: 1,
      });
      expect(reply.status, reply.msg).toBe(200);
      return reply.data.Doors.filter((d) => d.DeviceId === device.Id);
    };
    const area = { AreaId: 1, AreaName: await areaName(1) };
    await saveDeviceState(ctx, device.Id, { Online: 1 });
    await noteDoorStatus(ctx, device.Id, [{ door: 1, open: false, unlocked: false }]);

    h().clock.advance(1_000);
    let mark = await lastId();
    await noteDoorStatus(ctx, device.Id, [{ door: 1, open: true, unlocked: false }]);
    const opened = await since(mark);
    expect(opened.map((e) => e.row.Type)).toEqual(['door.state']);
    const door1 = (await monitor()).find((d) => d.DoorNumber === 1)!;
    expect(opened[0]!.payload.data).toEqual({ ...door1, ...area });
    expect(opened[0]!.payload.data).toMatchObject({ State: 2, Open: true, Unlocked: false });

    // The same report again (every status poll): nothing changed, nothing told.
    mark = await lastId();
    await noteDoorStatus(ctx, device.Id, [{ door: 1, open: true, unlocked: false }]);
    expect(await since(mark)).toEqual([]);

    // The controller silent past the limit: each of its doors is "controller offline" (6), with its alarm.
    mark = await lastId();
    await saveDeviceState(ctx, device.Id, { Online: 0 });
    await noteControllerOnline(ctx, device.Id, false);
    const gone = await since(mark);
    const doors = await monitor();
    expect(gone.filter((e) => e.row.Type === 'door.state').map((e) => e.payload.data)).toEqual(
      doors.map((d) => ({ ...d, ...area })),
    );
    expect(doors.every((d) => d.State === 6)).toBe(true);
    expect(gone.map((e) => e.row.Type)).toContain('controller.offline');
    expect(gone.map((e) => e.row.Type)).toContain('door.alarm.raised');

    // A door report while the controller is offline leaves the door shown offline: no door.state.
    mark = await lastId();
    await noteDoorStatus(ctx, device.Id, [{ door: 1, open: false, unlocked: false }]);
    expect((await since(mark)).filter((e) => e.row.Type === 'door.state')).toEqual([]);
  });
  it('a door record the watch has not read yet: the monitor shows it at once, and keeps the Since its door.state told when the state is the same', async () => {
    const k = h().db.kysely;
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber'])
      .where('AreaId', '=', 1)
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .orderBy('Id')
      .limit(1)
      .offset(2)
      .executeTakeFirstOrThrow();
    const ctx: ServiceContext = { ...systemContext(h()), actor: deviceActor(device.Id, device.SerialNumber) };
    const door1 = async () => {
      const reply = await call<{ Doors: Record<string, unknown>[] }>(h().app, 'GET', '/api/DoorMonitor', {
        token,
        area: 1,
      });
      return reply.data.Doors.find((d) => d.DeviceId === device.Id && d.DoorNumber === 1)!;
    };
    const record = (at: number, reason: number, index: number) =>
      storeControllerRecords(ctx, device.Id, [
        {
          DoorNumber: 1,
          Direction: 1,
          CardValue: 0,
          At: at,
          Result: true,
          RecordIndex: index,
          EventType: 2,
          EventReason: reason,
        },
      ]);
    await saveDeviceState(ctx, device.Id, { Online: 1 });
    await noteDoorStatus(ctx, device.Id, [{ door: 1, open: false, unlocked: false }]);
    // The watch has read everything so far.
    await watchDoors(ctx, [device.Id]);

    // The status reply says open first (at the gateway's clock); the controller's door-opened record, a
    // moment earlier on its whole-second clock, is stored but not yet read by the watch.
    h().clock.advance(1_500);
    const statusAt = h().clock.now();
    let mark = await lastId();
    await noteDoorStatus(ctx, device.Id, [{ door: 1, open: true, unlocked: false }]);
    const told = (await since(mark)).filter((e) => e.row.Type === 'door.state');
    expect(told.map((e) => e.payload.data.Since)).toEqual([new Date(statusAt).toISOString()]);
    await record(Math.floor(statusAt / 1000) * 1000 - 1_000, 23, 9_001);
    expect(await door1()).toEqual({ ...told[0]!.payload.data, AreaId: undefined, AreaName: undefined });
    // The watch reads it: nothing changes, nothing is told, the monitor the same.
    mark = await lastId();
    await watchDoors(ctx, [device.Id]);
    expect((await since(mark)).filter((e) => e.row.Type === 'door.state')).toEqual([]);
    expect((await door1()).Since).toBe(new Date(statusAt).toISOString());

    // A record that changes the state (closed) shows at once, since its own instant, before the watch reads it;
    // and the watch tells it with that Since.
    h().clock.advance(5_000);
    const closedAt = Math.floor(h().clock.now() / 1000) * 1000;
    await record(closedAt, 24, 9_002);
    expect(await door1()).toMatchObject({ State: 1, Open: false, Since: new Date(closedAt).toISOString() });
    mark = await lastId();
    await watchDoors(ctx, [device.Id]);
    const closed = (await since(mark)).filter((e) => e.row.Type === 'door.state');
    expect(closed.map((e) => e.payload.data)).toEqual([
      { ...(await door1()), AreaId: 1, AreaName: expect.any(String) },
    ]);
  });
});
