import { displayToCard } from '@gatehouse/shared';
import QRCode from 'qrcode';
import { expect, it } from 'vitest';
import { endDuePasses, recordSwipe, syncPlan } from '../src/modules/access-control/index.ts';
import { systemActor } from '../src/platform/context.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';
import { makeUser } from './support/users.ts';

/**
 * Visitor passes through the API (issue 31, docs/access-control.md "Visitor passes"), on SQLite and PostgreSQL:
 * the window's and the body's validation, who may issue, read and revoke them and in which area, the QR image,
 * what a pass is made of (a hidden holder row, a generated card, its authorisations with a time profile for its
 * hours), its end by revoke and by the expiry sweep (audited, events out), the sync plan that never writes an
 * ended pass, and the visitor log read from the swipe records.
 */
const AREA = 1;
const MINUTE = 60_000;

interface Pass {
  Id: number;
  CardNumber: string;
  CardValue: number;
  State: number;
  Upcoming: boolean;
  HoursOnController: boolean;
  HostName: string;
  Doors: { ChannelId: number; DeviceId: number; IssueStatus: number }[];
  ValidFrom: string;
  ValidTo: string;
  TimeZone: string;
  QrUrl: string;
  QrDataUrl?: string;
  EndedBy: string | null;
}

describeEachDb('visitor passes: API, validation, permissions, end', (h) => {
  let token: string;
  let host: { Id: number; Name: string };
  let channels: { Id: number; DeviceId: number; DoorNumber: number }[];

  const ctx = () => ({ db: h().db, clock: h().clock });
  /** The area's clock rounded up to the next whole minute, plus `minutes`. */
  const at = (minutes: number) => Math.ceil(h().clock.now() / MINUTE) * MINUTE + minutes * MINUTE;
  const body = (over: Record<string, unknown> = {}) => ({
    VisitorName: 'Ada Visitor',
    Company: 'Analytical Engines Ltd',
    Phone: '13800138000',
    HostCardUserId: host.Id,
    ChannelIds: channels.map((c) => c.Id),
    ValidFrom: at(0),
    ValidTo: at(120),
    ...over,
  });
  const issue = (over: Record<string, unknown> = {}, who = token, area: number = AREA) =>
    call<Pass>(h().app, 'POST', '/api/VisitorPass', { token: who, area, body: body(over) });

  it('sets up: a host of the area and two doors of a WG controller', async () => {
    token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const k = h().db.kysely;
    host = await k
      .selectFrom('CardUser')
      .select(['Id', 'Name'])
      .where('AreaId', '=', AREA)
      .where('Disabled', '=', 0)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const device = await k
      .selectFrom('AccessControlDevice')
      .select('Id')
      .where('AreaId', '=', AREA)
      .where('Protocol', '=', 0)
      .where('SerialNumber', 'like', '2%')
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    channels = await k
      .selectFrom('AccessControlChannel')
      .select(['Id', 'DeviceId', 'DoorNumber'])
      .where('DeviceId', '=', device.Id)
      .where('Direction', '=', 1)
      .orderBy('DoorNumber')
      .execute();
    expect(channels.length).toBe(2);
  });

  it('refuses a window off the minute, in the past, reversed or too long, and a body it does not know', async () => {
    const field = async (over: Record<string, unknown>, name: string) => {
      const reply = await issue(over);
      expect(reply.status, JSON.stringify(reply)).toBe(400);
      expect(JSON.stringify(reply.data)).toContain(name);
      return reply;
    };
    await field({ ValidFrom: at(0) + 30_000 }, 'ValidFrom');
    await field({ ValidTo: at(60) + 1 }, 'ValidTo');
    await field({ ValidFrom: at(-10), ValidTo: at(30) }, 'ValidFrom');
    await field({ ValidFrom: at(60), ValidTo: at(30) }, 'ValidTo');
    await field({ ValidTo: at(31 * 24 * 60) }, 'ValidTo');
    await field({ VisitorName: '  ' }, 'VisitorName');
    await field({ ChannelIds: [] }, 'ChannelIds');
    await field({ Phone: '12345' }, 'Phone');
    await field({ Unknown: 1 }, 'Unknown');
    await field({ ValidFrom: 'tomorrow' }, 'ValidFrom');
    // A door or a host of another area is not one of this area's.
    const other = await h()
      .db.kysely.selectFrom('AccessControlChannel')
      .select('Id')
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    await field({ ChannelIds: [other.Id] }, 'ChannelIds');
    const foreign = await h()
      .db.kysely.selectFrom('CardUser')
      .select('Id')
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    await field({ HostCardUserId: foreign.Id }, 'HostCardUserId');
    // Nothing was written by the refusals.
    const passes = await h().db.kysely.selectFrom('VisitorPass').select('Id').execute();
    expect(passes).toEqual([]);
  });

  it('issues a pass: a generated card with its QR code, a hidden holder row, authorisations with a time profile', async () => {
    const reply = await issue();
    expect(reply.status, reply.msg).toBe(200);
    const pass = reply.data;
    expect(pass.CardNumber).toMatch(/^[1-4]\d{9}$/);
    expect(pass.CardValue).toBe(displayToCard(pass.CardNumber));
    expect(pass.QrDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(pass).toMatchObject({ State: 1, Upcoming: false, HoursOnController: true, HostName: host.Name });
    expect(pass.Doors.map((d) => d.ChannelId).sort()).toEqual(channels.map((c) => c.Id).sort());
    expect(pass.Doors.every((d) => d.IssueStatus === 1)).toBe(true);
    const k = h().db.kysely;
    const row = await k
      .selectFrom('VisitorPass')
      .selectAll()
      .where('Id', '=', pass.Id)
      .executeTakeFirstOrThrow();
    const card = await k
      .selectFrom('Card')
      .selectAll()
      .where('CardNumber', '=', pass.CardNumber)
      .executeTakeFirstOrThrow();
    expect(card).toMatchObject({ AreaId: AREA, CardUserId: row.CardUserId });
    const links = await k
      .selectFrom('CardUserLinkChannel')
      .select(['TimeProfileId', 'ValidTo', 'IssueStatus'])
      .where('CardUserId', '=', row.CardUserId)
      .execute();
    expect(links).toHaveLength(2);
    expect(links.every((l) => l.TimeProfileId !== null)).toBe(true);
    // The holder's end is inclusive: the pass's last second.
    expect(Number(links[0]!.ValidTo)).toBe(Date.parse(pass.ValidTo) - 1000);
    const profile = await k
      .selectFrom('TimeProfile')
      .select(['VisitorWindow', 'Segments'])
      .where('Id', '=', links[0]!.TimeProfileId!)
      .executeTakeFirstOrThrow();
    expect(profile.VisitorWindow).not.toBeNull();
    // The pass's, not an operator's: not changed, deleted or linked to through the profile API.
    const profileBody = {
      Name: 'Borrowed',
      StartDate: '2026-11-01',
      EndDate: '2026-12-31',
      Weekdays: [1, 2, 3, 4, 5, 6, 7],
      Segments: [{ Start: '00:00', End: '23:59' }],
    };
    const visitorProfileId = links[0]!.TimeProfileId!;
    expect(
      (
        await call(h().app, 'PUT', '/api/TimeProfile', {
          token,
          area: AREA,
          body: { ...profileBody, Id: visitorProfileId },
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(h().app, 'DELETE', `/api/TimeProfile/${visitorProfileId}`, { token, area: AREA })).status,
    ).toBe(404);
    const linking = await call(h().app, 'POST', '/api/TimeProfile', {
      token,
      area: AREA,
      body: { ...profileBody, LinkedProfileId: visitorProfileId },
    });
    expect(linking.status).toBe(400);
    expect(JSON.stringify(linking.data)).toContain('LinkedProfileId');
    // Not one of the area's holders, profiles or host choices.
    const holders = await call<{ Items: { Id: number }[] }>(h().app, 'GET', '/api/CardUser', {
      token,
      area: AREA,
      query: { Keyword: 'Ada Visitor' },
    });
    expect(holders.data.Items).toEqual([]);
    expect(
      (await call(h().app, 'GET', `/api/CardUser/${row.CardUserId}`, { token, area: AREA })).status,
    ).toBe(404);
    const choices = await call<{ Id: number }[]>(h().app, 'GET', '/api/Options/CardUsers', {
      token,
      area: AREA,
      query: { Keyword: 'Ada' },
    });
    expect(choices.data.map((c) => c.Id)).not.toContain(row.CardUserId);
    // Nor can the holder screens' writes reach it: its window and state are the pass's.
    const visitorHolder = row.CardUserId;
    const writes = [
      await call(h().app, 'PUT', '/api/CardUser', {
        token,
        area: AREA,
        body: {
          Id: visitorHolder,
          Name: '改名访客',
          ValidFrom: new Date(Date.now() - 86_400_000).toISOString(),
          ValidTo: new Date(Date.now() + 400 * 86_400_000).toISOString(),
        },
      }),
      await call(h().app, 'POST', '/api/CardUser/SetStatus', {
        token,
        area: AREA,
        query: { Id: visitorHolder, Disabled: true },
      }),
      await call(h().app, 'POST', '/api/CardUser/Extend', {
        token,
        area: AREA,
        body: { Ids: [visitorHolder], ValidTo: new Date(Date.now() + 400 * 86_400_000).toISOString() },
      }),
      await call(h().app, 'DELETE', `/api/CardUser/${visitorHolder}`, { token, area: AREA }),
    ];
    expect(writes.map((w) => w.status)).toEqual([404, 404, 404, 404]);
    const untouched = await k
      .selectFrom('CardUser')
      .select(['Name', 'Disabled'])
      .where('Id', '=', visitorHolder)
      .executeTakeFirstOrThrow();
    expect(untouched).toEqual({ Name: 'Ada Visitor', Disabled: 0 });
    const profiles = await call<{ Items: { Name: string }[] }>(h().app, 'GET', '/api/TimeProfile', {
      token,
      area: AREA,
      query: { PageSize: 100 },
    });
    expect(profiles.data.Items.some((p) => p.Name.startsWith('visitor'))).toBe(false);
    // Audited and told outside.
    const audit = await k
      .selectFrom('AuditLog')
      .select(['Action', 'ActorKind'])
      .where('Entity', '=', 'VisitorPass')
      .where('EntityId', '=', String(pass.Id))
      .execute();
    expect(audit).toEqual([{ Action: 'issuePass', ActorKind: 'user' }]);
    const events = await k
      .selectFrom('OutboxEvent')
      .select('Type')
      .where('Type', 'like', 'visitor.%')
      .execute();
    expect(events.map((e) => e.Type)).toEqual(['visitor.pass.issued']);
    // A host who invited visitors is not deleted from under their passes.
    const removed = await call(h().app, 'DELETE', `/api/CardUser/${host.Id}`, { token, area: AREA });
    expect(removed.status).toBe(409);
  });

  it('a pass of whole days needs no time profile; two passes of one window share theirs', async () => {
    const day = Date.UTC(2026, 10, 3, 16); // 00:00 of 4 Nov in Shanghai (the demo area's zone)
    const whole = await issue({ ValidFrom: day, ValidTo: day + 2 * 24 * 60 * MINUTE });
    expect(whole.status, whole.msg).toBe(200);
    expect(whole.data).toMatchObject({ HoursOnController: false, Upcoming: true, TimeZone: 'Asia/Shanghai' });
    const a = await issue({ ValidFrom: day + 9 * 60 * MINUTE, ValidTo: day + 17 * 60 * MINUTE });
    const b = await issue({ ValidFrom: day + 9 * 60 * MINUTE, ValidTo: day + 17 * 60 * MINUTE });
    const profileOf = async (id: number) =>
      await h()
        .db.kysely.selectFrom('CardUserLinkChannel as L')
        .innerJoin('VisitorPass as P', 'P.CardUserId', 'L.CardUserId')
        .innerJoin('TimeProfile as T', 'T.Id', 'L.TimeProfileId')
        .select(['T.Id', 'T.Segments', 'T.StartDate', 'T.EndDate'])
        .where('P.Id', '=', id)
        .executeTakeFirstOrThrow();
    const pa = await profileOf(a.data.Id);
    expect(pa).toMatchObject({ StartDate: '2026-11-04', EndDate: '2026-11-04' });
    expect(JSON.parse(pa.Segments)).toEqual([{ Start: '09:00', End: '16:59' }]);
    expect((await profileOf(b.data.Id)).Id).toBe(pa.Id);
    expect(a.data.CardNumber).not.toBe(b.data.CardNumber);
  });

  it('lists with filters, exports, and serves the QR image of its own area only', async () => {
    const list = await call<{ Items: Pass[]; Total: number }>(h().app, 'GET', '/api/VisitorPass', {
      token,
      area: AREA,
      query: { Keyword: 'Analytical', State: 1, HostCardUserId: host.Id, ChannelId: channels[0]!.Id },
    });
    expect(list.status, list.msg).toBe(200);
    expect(list.data.Total).toBe(4);
    const now = await call<{ Total: number }>(h().app, 'GET', '/api/VisitorPass', {
      token,
      area: AREA,
      query: { ValidAt: h().clock.now() + MINUTE },
    });
    expect(now.data.Total).toBe(1);
    expect(
      (await call<{ Total: number }>(h().app, 'GET', '/api/VisitorPass', { token, area: 2 })).data.Total,
    ).toBe(0);
    const first = list.data.Items.at(-1)!;
    const png = await h().app.inject({
      method: 'GET',
      url: first.QrUrl,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': String(AREA) },
    });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // It holds the card as the controller knows it (what a QR reader at the door reports), not the printed form.
    const expected = await QRCode.toBuffer(String(first.CardValue), {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: 2,
      width: 320,
    });
    expect(png.rawPayload.equals(expected)).toBe(true);
    const elsewhere = await h().app.inject({
      method: 'GET',
      url: first.QrUrl,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '2' },
    });
    expect(elsewhere.statusCode).toBe(404);
    expect((await h().app.inject({ method: 'GET', url: first.QrUrl })).statusCode).toBe(401);
    expect((await call(h().app, 'GET', `/api/VisitorPass/${first.Id}`, { token, area: 2 })).status).toBe(404);
    const exported = await call(h().app, 'POST', '/api/ExportJob', {
      token,
      area: AREA,
      body: { Resource: 'VisitorPass', Query: {} },
    });
    expect(exported.status, exported.msg).toBe(200);
  });

  it('is for AccessControl users of the area only', async () => {
    const acuser = await login(h().app, 'acuser', DEMO_PASSWORD);
    const mine = await issue({}, acuser);
    expect(mine.status, mine.msg).toBe(200);
    const garage = await makeUser(h(), 'vp-garage', ['Bicycle/Admin'], [AREA]);
    expect((await issue({}, garage)).status).toBe(403);
    expect((await call(h().app, 'GET', '/api/VisitorPass', { token: garage, area: AREA })).status).toBe(403);
    const elsewhere = await makeUser(h(), 'vp-area2', ['AccessControl/Admin'], [2]);
    expect((await issue({}, elsewhere)).status).toBe(403);
    expect(
      (
        await call(h().app, 'POST', '/api/VisitorPass/Revoke', {
          token: elsewhere,
          area: AREA,
          body: { Id: mine.data.Id },
        })
      ).status,
    ).toBe(403);
    // In its own area, the pass of area 1 does not exist.
    expect(
      (
        await call(h().app, 'POST', '/api/VisitorPass/Revoke', {
          token: elsewhere,
          area: 2,
          body: { Id: mine.data.Id },
        })
      ).status,
    ).toBe(404);
    const revoked = await call<Pass>(h().app, 'POST', '/api/VisitorPass/Revoke', {
      token: acuser,
      area: AREA,
      body: { Id: mine.data.Id },
    });
    expect(revoked.status, revoked.msg).toBe(200);
  });

  it('revoke ends it once: authorisations revoked, holder disabled, audited, told; a second revoke is 409', async () => {
    const pass = (await issue()).data;
    const reply = await call<Pass>(h().app, 'POST', '/api/VisitorPass/Revoke', {
      token,
      area: AREA,
      body: { Id: pass.Id },
    });
    expect(reply.status, reply.msg).toBe(200);
    expect(reply.data.State).toBe(3);
    expect(reply.data.EndedBy).toBeTruthy();
    // Never sent to a controller: the deletion needs none.
    expect(reply.data.Doors.every((d) => d.IssueStatus === -2)).toBe(true);
    const again = await call(h().app, 'POST', '/api/VisitorPass/Revoke', {
      token,
      area: AREA,
      body: { Id: pass.Id },
    });
    expect(again.status).toBe(409);
    const k = h().db.kysely;
    const holder = await k
      .selectFrom('VisitorPass')
      .innerJoin('CardUser', 'CardUser.Id', 'VisitorPass.CardUserId')
      .select('CardUser.Disabled')
      .where('VisitorPass.Id', '=', pass.Id)
      .executeTakeFirstOrThrow();
    expect(Number(holder.Disabled)).toBe(1);
    const actions = await k
      .selectFrom('AuditLog')
      .select('Action')
      .where('Entity', '=', 'VisitorPass')
      .where('EntityId', '=', String(pass.Id))
      .orderBy('Id')
      .execute();
    expect(actions.map((a) => a.Action)).toEqual(['issuePass', 'revokePass']);
  });

  it('ends at its end by the sweep; the sync plan never writes an ended pass, even before the sweep', async () => {
    const pass = (await issue({ ValidTo: at(30) })).data;
    const k = h().db.kysely;
    const holderId = (
      await k
        .selectFrom('VisitorPass')
        .select('CardUserId')
        .where('Id', '=', pass.Id)
        .executeTakeFirstOrThrow()
    ).CardUserId;
    const profileIds = (
      await k
        .selectFrom('TimeProfile')
        .select('Id')
        .where('VisitorWindow', 'in', [
          ...new Set(
            (
              await k
                .selectFrom('CardUserLinkChannel as L')
                .innerJoin('TimeProfile as T', 'T.Id', 'L.TimeProfileId')
                .select('T.VisitorWindow')
                .where('L.CardUserId', '=', holderId)
                .execute()
            ).map((r) => r.VisitorWindow!),
          ),
        ])
        .execute()
    ).map((r) => r.Id);
    const deviceId = channels[0]!.DeviceId;
    const planCtx = () => ({ ...ctx(), lang: 'en' as const, actor: systemActor('test'), areaId: undefined });
    expect((await syncPlan(planCtx(), deviceId)).cards.has(pass.CardValue)).toBe(true);
    // Its end passed and no sweep ran yet (an instance died): the plan leaves it out all the same.
    h().clock.advance(31 * MINUTE);
    expect((await syncPlan(planCtx(), deviceId)).cards.has(pass.CardValue)).toBe(false);
    expect(await endDuePasses(ctx())).toBeGreaterThanOrEqual(1);
    const ended = await call<Pass>(h().app, 'GET', `/api/VisitorPass/${pass.Id}`, { token, area: AREA });
    expect(ended.data).toMatchObject({ State: 2, EndedBy: null });
    const links = await k
      .selectFrom('CardUserLinkChannel')
      .select(['Revoked', 'TimeProfileId'])
      .where('CardUserId', '=', holderId)
      .execute();
    expect(links.every((l) => Number(l.Revoked) === 1)).toBe(true);
    // Its window's profiles went with it: its authorisations, removed (never sent here), forgot them first.
    expect(links.every((l) => l.TimeProfileId === null)).toBe(true);
    expect(profileIds.length).toBeGreaterThan(0);
    expect(await k.selectFrom('TimeProfile').select('Id').where('Id', 'in', profileIds).execute()).toEqual(
      [],
    );
    const audit = await k
      .selectFrom('AuditLog')
      .select(['Action', 'ActorKind', 'UserName'])
      .where('Entity', '=', 'VisitorPass')
      .where('EntityId', '=', String(pass.Id))
      .where('Action', '=', 'expirePass')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ ActorKind: 'system', UserName: 'visitor pass expiry' });
    // Ended once: a second sweep (another instance) finds nothing of it to end.
    expect(await endDuePasses(ctx())).toBe(0);
    const told = await k
      .selectFrom('OutboxEvent')
      .select('Type')
      .where('Type', '=', 'visitor.pass.ended')
      .execute();
    expect(told.length).toBeGreaterThanOrEqual(2);
  });

  it('logs every swipe of a pass with its host, from the swipe records', async () => {
    const pass = (await issue({ ValidTo: at(60) })).data;
    const door = channels[0]!;
    const when = h().clock.now() + MINUTE;
    for (const result of [true, false])
      await recordSwipe(h().db.kysely, {
        DeviceId: door.DeviceId,
        DoorNumber: door.DoorNumber,
        Direction: 1,
        CardNumber: pass.CardNumber,
        At: when,
        Result: result,
        Reason: result ? 1 : 6,
      });
    const range = { StartTime: when - 60 * MINUTE, EndTime: when + 60 * MINUTE };
    const log = await call<{
      Items: { VisitorPassId: number; HostName: string; Result: boolean }[];
      Total: number;
    }>(h().app, 'GET', '/api/VisitorLog', { token, area: AREA, query: { ...range, VisitorPassId: pass.Id } });
    expect(log.status, log.msg).toBe(200);
    expect(log.data.Total).toBe(2);
    expect(log.data.Items.every((e) => e.HostName === host.Name)).toBe(true);
    const refused = await call<{ Total: number }>(h().app, 'GET', '/api/VisitorLog', {
      token,
      area: AREA,
      query: { ...range, Result: false, HostCardUserId: host.Id, Keyword: 'Ada' },
    });
    expect(refused.data.Total).toBe(1);
    expect(
      (await call<{ Total: number }>(h().app, 'GET', '/api/VisitorLog', { token, area: 2, query: range }))
        .data.Total,
    ).toBe(0);
    const exported = await call(h().app, 'POST', '/api/ExportJob', {
      token,
      area: AREA,
      body: { Resource: 'VisitorLog', Query: range },
    });
    expect(exported.status, exported.msg).toBe(200);
  });
});
