import ExcelJS from 'exceljs';
import { localTime, translate } from '@gatehouse/shared';
import { expect, it } from 'vitest';
import { recordSwipe } from '../src/modules/access-control/index.ts';
import { call, login, type Reply } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

/**
 * Who is inside and roll calls through the API (issue 31, docs/access-control.md "Occupancy and muster"), on SQLite
 * and PostgreSQL, with swipes stored by the swipe records' one writer (the device path is
 * wg-occupancy-muster.test.ts): occupancy follows granted in and out swipes (a late older record never undoes a
 * newer one; refused swipes, door events and unknown cards move nobody); the reset hour drops whoever left without
 * swiping out; a roll call takes everyone inside, is marked safe by hand and by a swipe at a muster point, ends
 * once, is audited, told out and exported; and the refusals, in the operator's words.
 */
const AREA = 1;
const ZONE = 'Asia/Shanghai';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Page<T> {
  Items: T[];
  Total: number;
}
interface Inside {
  CardUserId: number;
  Name: string;
  Visitor: boolean;
  LastAt: string;
  DeviceId: number;
  ChannelName: string | null;
}
interface Summary {
  Inside: number;
  Visitors: number;
  Since: string;
  ResetHour: number;
  TimeZone: string;
  Muster: { Id: number; Total: number; Safe: number; Missing: number } | null;
}
interface Muster {
  Id: number;
  AreaId: number;
  Total: number;
  Safe: number;
  Missing: number;
  EndedAt: string | null;
  Points: { ChannelId: number; ChannelName: string }[];
}
interface Person {
  CardUserId: number;
  Name: string;
  Safe: boolean;
  SafeHow: 'hand' | 'swipe' | null;
  SafeBy: string | null;
  Note: string | null;
}
interface Holder {
  Id: number;
  Name: string;
  CardNumber: string;
}

/** The 400's words for each field it names. */
const fieldWords = (reply: Reply) =>
  Object.fromEntries(
    ((reply.data as { Errors?: { Field: string; Message: string }[] } | null)?.Errors ?? []).map((e) => [
      e.Field,
      e.Message,
    ]),
  );

describeEachDb('who is inside and roll calls: API', (h) => {
  let token: string;
  let device: { Id: number; Name: string };
  /** Door 1 in and out, door 2 in (the muster point). */
  let door1In: number;
  let door2In: number;
  let holders: Holder[];

  const api = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, options: object = {}) => {
    const reply = await call<T>(h().app, method, url, { token, area: AREA, ...options });
    expect(reply.status, `${method} ${url}: ${reply.msg}`).toBe(200);
    return reply.data;
  };
  const inside = (query: Record<string, string | number | boolean> = {}) =>
    api<Page<Inside>>('GET', '/api/Occupancy', { query: { PageSize: 100, ...query } });
  const summary = () => api<Summary>('GET', '/api/Occupancy/Summary');
  /** A swipe as a controller reports it, stored by the one writer of swipe records (and so of occupancy). */
  const swipe = (who: Holder, door: number, direction: number, at: number, granted = true) =>
    recordSwipe(h().db.kysely, {
      DeviceId: device.Id,
      DoorNumber: door,
      Direction: direction,
      CardNumber: who.CardNumber,
      At: at,
      Result: granted,
      Reason: granted ? 1 : 4,
    });
  const ids = (page: Page<Inside>) => page.Items.map((i) => i.CardUserId).sort((a, b) => a - b);
  const idsOf = (list: Holder[]) => list.map((x) => x.Id).sort((a, b) => a - b);

  it('opens the demo with people inside, then starts from nobody', async () => {
    token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const k = h().db.kysely;
    // The demo's people who came in within the last hour and a half are inside, with their door.
    const demo = await inside();
    expect(demo.Total).toBeGreaterThanOrEqual(8);
    expect(demo.Items.every((i) => i.ChannelName !== null && !i.Visitor)).toBe(true);
    expect((await summary()).Inside).toBe(demo.Total);
    const row = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'Name'])
      .where('AreaId', '=', AREA)
      .where('Protocol', '=', 0)
      .where('SerialNumber', 'like', '2%')
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    device = row;
    const channel = async (door: number, direction: number) =>
      (
        await k
          .selectFrom('AccessControlChannel')
          .select('Id')
          .where('DeviceId', '=', device.Id)
          .where('DoorNumber', '=', door)
          .where('Direction', '=', direction)
          .executeTakeFirstOrThrow()
      ).Id;
    door1In = await channel(1, 1);
    door2In = await channel(2, 1);
    const now = h().clock.now();
    holders = await k
      .selectFrom('CardUser as H')
      .innerJoin('Card as C', 'C.CardUserId', 'H.Id')
      .select(['H.Id', 'H.Name', 'C.CardNumber'])
      .where('H.AreaId', '=', AREA)
      .where('H.Disabled', '=', 0)
      .where('H.ValidFrom', '<=', now)
      .where('H.ValidTo', '>', now)
      .orderBy('H.Id')
      .orderBy('C.Id')
      .limit(40)
      .execute()
      .then((rows) => [...new Map(rows.map((r) => [r.Id, r])).values()].slice(0, 7));
    expect(holders).toHaveLength(7);
    // From here the area's occupancy is this test's own.
    await k.deleteFrom('Occupancy').where('AreaId', '=', AREA).execute();
    expect((await inside()).Total).toBe(0);
  });

  it('follows granted in and out swipes; refused swipes, unknown cards and late older records move nobody', async () => {
    const [a, b, c, d] = holders as [Holder, Holder, Holder, Holder];
    const t = h().clock.now() - 30 * MINUTE;
    await swipe(a, 1, 1, t);
    await swipe(b, 1, 1, t + MINUTE);
    await swipe(b, 1, 2, t + 2 * MINUTE);
    await swipe(c, 1, 1, t + 3 * MINUTE);
    // C's earlier way out reaches Gatehouse late (a controller collected after it was offline): C stays inside.
    await swipe(c, 1, 2, t + MINUTE);
    // D was refused at the door: not inside.
    await swipe(d, 1, 1, t + 4 * MINUTE, false);
    // A card nobody holds.
    await recordSwipe(h().db.kysely, {
      DeviceId: device.Id,
      DoorNumber: 1,
      Direction: 1,
      CardNumber: '0000001234',
      At: t,
      Result: true,
      Reason: 1,
    });
    const page = await inside();
    expect(ids(page)).toEqual(idsOf([a, c]));
    // Newest arrival first, with the door they came through.
    expect(page.Items.map((i) => i.CardUserId)).toEqual([c.Id, a.Id]);
    expect(page.Items[0]).toMatchObject({ Name: c.Name, DeviceId: device.Id, Visitor: false });
    expect(page.Items[0]!.ChannelName).toBeTruthy();
    expect(await summary()).toMatchObject({ Inside: 2, Visitors: 0, TimeZone: ZONE, Muster: null });
    // B comes back in: inside again. A leaves.
    await swipe(b, 1, 1, t + 5 * MINUTE);
    await swipe(a, 1, 2, t + 6 * MINUTE);
    expect(ids(await inside())).toEqual(idsOf([b, c]));
    // Filters an operator narrows by: name, the controller they came in through, visitors or not.
    expect(ids(await inside({ Keyword: c.Name }))).toEqual([c.Id]);
    expect((await inside({ DeviceId: device.Id })).Total).toBe(2);
    expect((await inside({ Visitor: true })).Total).toBe(0);
    expect((await inside({ SortField: 'Name', SortOrder: 'asc', PageSize: 1 })).Items).toHaveLength(1);
    // The dashboard's figure is the same count.
    const dashboard = await api<{ Occupancy: Summary }>('GET', '/api/AccessControlDashboard');
    expect(dashboard.Occupancy.Inside).toBe(2);
  });

  it("drops whoever did not swipe out once the area's reset hour comes round", async () => {
    const [, b, c, , e] = holders as [Holder, Holder, Holder, Holder, Holder];
    const now = h().clock.now();
    const nextHour = (localTime(now, ZONE).hour + 1) % 24;
    const set = await api<Summary>('PUT', '/api/Occupancy/Settings', { body: { ResetHour: nextHour } });
    expect(set.ResetHour).toBe(nextHour);
    // Still counted until the hour comes.
    expect(set.Inside).toBe(2);
    expect(Date.parse(set.Since)).toBeLessThanOrEqual(now);
    // An hour later the reset hour has passed: B and C left without swiping out, as far as anyone knows.
    h().clock.advance(HOUR);
    const after = await summary();
    expect(after.Inside).toBe(0);
    expect(Date.parse(after.Since)).toBeGreaterThan(now);
    expect(localTime(Date.parse(after.Since), ZONE)).toMatchObject({ hour: nextHour, minute: 0 });
    // Whoever comes in after it counts.
    await swipe(e, 1, 1, h().clock.now());
    expect(ids(await inside())).toEqual([e.Id]);
    expect(b.Id).not.toBe(c.Id);
    // Audited with the hour before and after.
    const entry = await h()
      .db.kysely.selectFrom('AuditLog')
      .select(['Action', 'Before', 'After'])
      .where('Entity', '=', 'Occupancy')
      .orderBy('Id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.Action).toBe('setOccupancyReset');
    expect(JSON.parse(entry.After!)).toEqual({ ResetHour: nextHour });
  });

  it('refuses a reset hour out of range in the words of the language, and to anyone but AccessControl/Admin', async () => {
    for (const [lang, words] of [
      ['en', /23/],
      ['zh', /23/],
    ] as const) {
      const reply = await call(h().app, 'PUT', '/api/Occupancy/Settings', {
        token,
        area: AREA,
        lang,
        body: { ResetHour: 24 },
      });
      expect(reply.status).toBe(400);
      const message = fieldWords(reply).ResetHour ?? reply.msg;
      expect(message).toMatch(words);
      expect(message).not.toMatch(/validation\.|accessControl\./);
    }
    const acuser = await login(h().app, 'acuser', DEMO_PASSWORD);
    const refused = await call(h().app, 'PUT', '/api/Occupancy/Settings', {
      token: acuser,
      area: AREA,
      body: { ResetHour: 3 },
    });
    expect(refused.status).toBe(403);
    // A User reads who is inside.
    expect((await call(h().app, 'GET', '/api/Occupancy', { token: acuser, area: AREA })).status).toBe(200);
  });

  let musterId: number;

  it('starts a roll call of everyone inside, marked safe by hand and by a swipe at its muster point', async () => {
    const [a, b, c, d, e, f, g] = holders as [Holder, Holder, Holder, Holder, Holder, Holder, Holder];
    h().clock.advance(30 * MINUTE);
    const t = h().clock.now() - 20 * MINUTE;
    for (const [i, who] of [a, b, d].entries()) await swipe(who, 1, 1, t + i * MINUTE);
    // C came in through door 2 (the muster point-to-be) five minutes before the start, F a minute before: F
    // reached the muster point as the roll call was being started, C is just inside.
    const now = h().clock.now();
    await swipe(c, 2, 1, now - 5 * MINUTE);
    await swipe(f, 2, 1, now - MINUTE);
    // e (inside from before) and five more: six on the roll; g is outside.
    expect((await inside()).Total).toBe(6);
    const started = await api<Muster>('POST', '/api/Muster/Start', {
      body: { AreaId: AREA, ChannelIds: [door2In], Reason: '消防演练' },
    });
    musterId = started.Id;
    expect(started).toMatchObject({ AreaId: AREA, Total: 6, Safe: 1, Missing: 5, EndedAt: null });
    expect(started.Points.map((p) => p.ChannelId)).toEqual([door2In]);
    expect((await summary()).Muster).toMatchObject({ Id: musterId, Total: 6, Missing: 5 });
    // One at a time per area.
    const again = await call(h().app, 'POST', '/api/Muster/Start', {
      token,
      area: AREA,
      body: { AreaId: AREA, ChannelIds: [door2In] },
    });
    expect(again.status).toBe(409);

    // By hand, with a note; a second mark of the same person changes nothing.
    const marked = await api<Muster>('POST', '/api/Muster/MarkSafe', {
      body: { Id: musterId, CardUserIds: [a.Id], Note: '在集合点点到' },
    });
    expect(marked).toMatchObject({ Safe: 2, Missing: 4 });
    const twice = await api<Muster>('POST', '/api/Muster/MarkSafe', {
      body: { Id: musterId, CardUserIds: [a.Id] },
    });
    expect(twice.Missing).toBe(4);
    // Someone not on the roll: refused, nothing marked.
    const notOnRoll = await call(h().app, 'POST', '/api/Muster/MarkSafe', {
      token,
      area: AREA,
      lang: 'en',
      body: { Id: musterId, CardUserIds: [b.Id, g.Id] },
    });
    expect(notOnRoll.status).toBe(400);
    expect(fieldWords(notOnRoll).CardUserIds).toBe(
      translate('en', 'accessControl.error.musterNotOnRoll', { count: 1 }),
    );
    // A granted swipe at the muster point marks B; one at another door marks nobody; a refused one neither.
    await swipe(b, 2, 1, h().clock.now());
    await swipe(c, 1, 1, h().clock.now());
    await swipe(d, 2, 1, h().clock.now(), false);
    const people = await api<Page<Person>>('GET', '/api/MusterPerson', {
      query: { MusterId: musterId, PageSize: 100 },
    });
    expect(people.Total).toBe(6);
    const byId = new Map(people.Items.map((p) => [p.CardUserId, p]));
    expect(byId.get(a.Id)).toMatchObject({ Safe: true, SafeHow: 'hand', Note: '在集合点点到' });
    expect(byId.get(a.Id)!.SafeBy).toBeTruthy();
    expect(byId.get(b.Id)).toMatchObject({ Safe: true, SafeHow: 'swipe' });
    expect(byId.get(b.Id)!.SafeBy).toContain(device.Name);
    expect(byId.get(f.Id)).toMatchObject({ Safe: true, SafeHow: 'swipe' });
    for (const who of [c, d, e]) expect(byId.get(who.Id)).toMatchObject({ Safe: false, SafeHow: null });
    const missing = await api<Page<Person>>('GET', '/api/MusterPerson', {
      query: { MusterId: musterId, Safe: false },
    });
    expect(missing.Items.map((p) => p.CardUserId).sort((x, y) => x - y)).toEqual(idsOf([c, d, e]));
    expect((await api<Muster>('GET', `/api/Muster/${musterId}`)).Missing).toBe(3);
  });

  it('ends once, audited and told out; its result exports; nothing is marked after the end', async () => {
    const ended = await api<Muster>('POST', '/api/Muster/End', { body: { Id: musterId, Note: '演练结束' } });
    expect(ended).toMatchObject({ Total: 6, Safe: 3, Missing: 3 });
    expect(ended.EndedAt).toBeTruthy();
    for (const [url, body] of [
      ['/api/Muster/End', { Id: musterId }],
      ['/api/Muster/MarkSafe', { Id: musterId, CardUserIds: [holders[2]!.Id] }],
    ] as const) {
      const reply = await call(h().app, 'POST', url, { token, area: AREA, lang: 'en', body });
      expect(reply.status).toBe(409);
      expect(reply.msg).toBe(translate('en', 'accessControl.error.musterEnded'));
    }
    // A swipe at the muster point after the end marks nobody.
    await swipe(holders[2]!, 2, 1, h().clock.now());
    expect((await api<Muster>('GET', `/api/Muster/${musterId}`)).Safe).toBe(3);
    expect((await summary()).Muster).toBeNull();
    expect((await api<Page<Muster>>('GET', '/api/Muster', { query: { Active: false } })).Items[0]!.Id).toBe(
      musterId,
    );

    const k = h().db.kysely;
    const actions = await k
      .selectFrom('AuditLog')
      .select('Action')
      .where('Entity', '=', 'Muster')
      .where('EntityId', '=', String(musterId))
      .orderBy('Id')
      .execute();
    expect(actions.map((x) => x.Action)).toEqual(['startMuster', 'markSafe', 'endMuster']);
    const events = await k
      .selectFrom('OutboxEvent')
      .select(['Type', 'Payload'])
      .where('Type', 'like', 'muster.%')
      .orderBy('Id')
      .execute();
    expect(events.map((x) => x.Type)).toEqual([
      'muster.started',
      'muster.person_safe',
      'muster.person_safe',
      'muster.person_safe',
      'muster.ended',
    ]);
    const data = events.map((x) => (JSON.parse(x.Payload) as { data: Record<string, unknown> }).data);
    expect(data[1]).toMatchObject({ CardUserId: holders[5]!.Id, SafeHow: 'swipe', Missing: 5 });
    expect(data[2]).toMatchObject({ CardUserId: holders[0]!.Id, SafeHow: 'hand', Missing: 4 });
    expect(data[3]).toMatchObject({ CardUserId: holders[1]!.Id, SafeHow: 'swipe', Missing: 3, AreaId: AREA });

    // The result as a sheet, in the operator's language: each person safe or missing.
    const rows = await exported(h(), token, musterId);
    expect(rows).toHaveLength(1 + 6);
    const header = rows[0]!;
    const safety = header.indexOf(translate('zh', 'accessControl.field.Safety'));
    expect(safety).toBeGreaterThan(0);
    const byName = new Map(rows.slice(1).map((r) => [r[0], r[safety]]));
    expect(byName.get(holders[0]!.Name)).toBe(translate('zh', 'enum.musterSafety.true'));
    expect(byName.get(holders[2]!.Name)).toBe(translate('zh', 'enum.musterSafety.false'));
  });

  it("keeps to the caller's area and codes, and refuses bodies in the operator's words", async () => {
    const other = await h()
      .db.kysely.selectFrom('AccessControlChannel')
      .select('Id')
      .where('AreaId', '=', 2)
      .executeTakeFirstOrThrow();
    const start = (body: unknown, who = token, area = AREA, lang = 'en') =>
      call(h().app, 'POST', '/api/Muster/Start', { token: who, area, lang, body });
    // Another area's reader is no muster point of this one; the body's area must be the header's.
    const foreign = await start({ AreaId: AREA, ChannelIds: [other.Id] });
    expect(foreign.status).toBe(400);
    expect(fieldWords(foreign).ChannelIds).toBe(translate('en', 'accessControl.error.musterPointInvalid'));
    expect((await start({ AreaId: 2, ChannelIds: [] })).status).toBe(404);
    // Ids as text, an unknown field: refused with the field named, in the language.
    const typed = await start({ AreaId: AREA, ChannelIds: ['12'] }, token, AREA, 'zh');
    expect(typed.status).toBe(400);
    expect(Object.keys(fieldWords(typed)).join()).toContain('ChannelIds');
    expect((await start({ AreaId: AREA, ChannelIds: [], Extra: 1 })).status).toBe(400);
    // An operator of area 2 only: 403 in area 1, and area 1's roll call does not exist in area 2.
    const elsewhere = await makeUser(h(), 'om-area2', ['AccessControl/Admin'], [2]);
    expect((await call(h().app, 'GET', '/api/Occupancy', { token: elsewhere, area: AREA })).status).toBe(403);
    expect((await start({ AreaId: AREA, ChannelIds: [] }, elsewhere)).status).toBe(403);
    expect(
      (await call(h().app, 'GET', `/api/Muster/${musterId}`, { token: elsewhere, area: 2 })).status,
    ).toBe(404);
    const theirs = await call<Page<Person>>(h().app, 'GET', '/api/MusterPerson', {
      token: elsewhere,
      area: 2,
      query: { MusterId: musterId },
    });
    expect(theirs.data.Total).toBe(0);
    expect(
      (await call<Page<Inside>>(h().app, 'GET', '/api/Occupancy', { token: elsewhere, area: 2 })).status,
    ).toBe(200);
    // A garage operator of area 1: no access control.
    const garage = await makeUser(h(), 'om-garage', ['Bicycle/Admin'], [AREA]);
    expect((await call(h().app, 'GET', '/api/Occupancy', { token: garage, area: AREA })).status).toBe(403);
    expect((await start({ AreaId: AREA, ChannelIds: [] }, garage)).status).toBe(403);
    // An AccessControl/User starts and ends one, as with visitor passes (nobody inside now: an empty roll).
    const acuser = await login(h().app, 'acuser', DEMO_PASSWORD);
    const mine = await start({ AreaId: AREA, ChannelIds: [door1In] }, acuser);
    expect(mine.status, mine.msg).toBe(200);
    const end = await call(h().app, 'POST', '/api/Muster/End', {
      token: acuser,
      area: AREA,
      body: { Id: (mine.data as Muster).Id },
    });
    expect(end.status, end.msg).toBe(200);
  });
});

/** The roll call's result exported (the export jobs' own path), as rows of cell texts, header first. */
async function exported(h: Harness, token: string, musterId: number): Promise<string[][]> {
  const job = await call<{ Id: number }>(h.app, 'POST', '/api/ExportJob', {
    token,
    area: AREA,
    lang: 'zh',
    body: { Resource: 'MusterPerson', Query: { MusterId: musterId } },
  });
  expect(job.status, job.msg).toBe(200);
  await h.platform.exports.idle();
  const file = await h.app.inject({
    method: 'GET',
    url: `/api/ExportJob/${job.data.Id}/Download`,
    headers: { authorization: `Bearer ${token}`, 'x-area-id': String(AREA) },
  });
  expect(file.statusCode).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    rows.push(
      Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value).map((v) =>
        v === null || v === undefined ? '' : String(v),
      ),
    );
  });
  return rows;
}
