import { WgSimulator, type SimDateTime } from '@gatehouse/wg-simulator';
import {
  displayToCard,
  translate,
  type AccessCheckResult,
  type AccessCheckWhoItem,
  type ApiKeyCreated,
} from '@gatehouse/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WgGateway } from '../src/gateways/wg/index.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb } from './support/harness.ts';
import { wallClock } from './support/wall-clock.ts';

/**
 * The access check (issue 31, docs/access-control.md "Access check") against the simulator, which judges a swipe as
 * a controller does: a card refused outside its time profile's hours is refused by both sides, the profile named;
 * a card deleted from the controller behind Gatehouse's back is refused by the controller, which the answer names
 * as the side that disagrees, with "sync now" offered in the operator's words; after "sync now" both let it in.
 * The reverse question (who can pass), its export, who may ask, and the validation of what is asked.
 */
const AREA = 1;
const ZONE = 'Asia/Shanghai';
/** A Tuesday inside "Office hours" (Mon-Fri 08:00-18:00) and a Sunday evening outside it, on the area's clock. */
const TUESDAY = '2027-05-04 10:00';
const SUNDAY_EVENING = '2027-05-09 20:00';
const PROFILE = 'Office hours';

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** An instant as the area's wall clock (the simulated controller's own clock runs in the same zone). */
const wall = (ms: number): SimDateTime => wallClock(ms, ZONE);

const stepOf = (steps: AccessCheckResult['Server']['Steps'], name: string) => {
  const step = steps.find((s) => s.Step === name);
  expect(step, `step ${name} in ${JSON.stringify(steps.map((s) => s.Step))}`).toBeDefined();
  return step!;
};

describeEachDb('access check: both sides of a refusal, against the simulator', (h) => {
  let sim: WgSimulator;
  let gateway: WgGateway | undefined;
  let token: string;
  let device: { Id: number; SerialNumber: string; Name: string };
  let serial: number;
  let door1: { Id: number; Name: string };
  let holder: { Id: number; Name: string; CardNumber: string };
  let cardValue: number;

  const check = async (at: string, lang: 'en' | 'zh' | 'es' | 'ja' = 'en') => {
    const r = await call<AccessCheckResult>(h().app, 'GET', '/api/AccessCheck', {
      token,
      area: AREA,
      lang,
      query: { CardNumber: holder.CardNumber, ChannelId: door1.Id, At: at },
    });
    expect(r.status, r.msg).toBe(200);
    return r.data;
  };

  const pending = async () => {
    const row = await h()
      .db.kysely.selectFrom('CardUserLinkChannel')
      .select(sql<number>`count(*)`.as('n'))
      .where('DeviceId', '=', device.Id)
      .where('IssueStatus', 'in', [1, 2, -1])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };
  const onController = () => sim.controller(serial).getCard(cardValue);

  beforeAll(async () => {
    const k = h().db.kysely;
    token = await login(h().app, 'admin', ADMIN_PASSWORD);
    device = await k
      .selectFrom('AccessControlDevice')
      .select(['Id', 'SerialNumber', 'Name'])
      .where('AreaId', '=', AREA)
      .where('Protocol', '=', 0)
      .where('Disabled', '=', 0)
      .where('SerialNumber', 'like', '2%')
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    serial = Number(device.SerialNumber);
    door1 = await k
      .selectFrom('AccessControlChannel')
      .select(['Id', 'Name'])
      .where('DeviceId', '=', device.Id)
      .where('DoorNumber', '=', 1)
      .where('Direction', '=', 1)
      .executeTakeFirstOrThrow();
    // The controller holds this holder's card alone: every sync pass reads its whole list back.
    await k.deleteFrom('CardUserLinkChannel').where('DeviceId', '=', device.Id).execute();
    holder = await k
      .selectFrom('CardUser')
      .innerJoin('Card', 'Card.CardUserId', 'CardUser.Id')
      .select(['CardUser.Id', 'CardUser.Name', 'Card.CardNumber'])
      .where('CardUser.AreaId', '=', AREA)
      .where('CardUser.Disabled', '=', 0)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('Card as C2')
              .select('C2.Id')
              .whereRef('C2.CardUserId', '=', 'CardUser.Id')
              .whereRef('C2.Id', '!=', 'Card.Id'),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('VisitorPass')
              .select('VisitorPass.Id')
              .whereRef('VisitorPass.CardUserId', '=', 'CardUser.Id'),
          ),
        ),
      )
      .orderBy('CardUser.Id')
      .executeTakeFirstOrThrow();
    cardValue = displayToCard(holder.CardNumber);
    // The demo's swipes of the card (refusals among them) would be the check's last refusal: the card starts clean.
    await k.deleteFrom('DoorOpeningRecord').where('CardNumber', '=', holder.CardNumber).execute();
    // Valid through the dates the checks below ask about (set before the grant, which the sync plan reads).
    await k
      .updateTable('CardUser')
      .set({ ValidFrom: Date.UTC(2026, 0, 1), ValidTo: Date.UTC(2030, 0, 1) })
      .where('Id', '=', holder.Id)
      .execute();
    const profile = await call<{ Id: number }>(h().app, 'POST', '/api/TimeProfile', {
      token,
      area: AREA,
      body: {
        Name: PROFILE,
        StartDate: '2026-01-01',
        EndDate: '2029-12-31',
        Weekdays: [1, 2, 3, 4, 5],
        Segments: [{ Start: '08:00', End: '18:00' }],
      },
    });
    expect(profile.status, profile.msg).toBe(200);
    const grant = await call(h().app, 'POST', '/api/CardUserLinkChannel/Grant', {
      token,
      area: AREA,
      body: { CardUserId: holder.Id, ChannelIds: [door1.Id], TimeProfileId: profile.data.Id },
    });
    expect(grant.status, grant.msg).toBe(200);

    sim = await WgSimulator.start({ controllers: [{ serial }], timeZone: ZONE });
    // Only the simulated controller has an address: the demo's others are left alone by the gateway.
    await k.updateTable('AccessControlDevice').set({ Ip: null, Port: null }).execute();
    const { host, port } = sim.address(serial);
    await k
      .updateTable('AccessControlDevice')
      .set({ Ip: host, Port: port })
      .where('Id', '=', device.Id)
      .execute();
    gateway = await WgGateway.start({
      db: h().db,
      clock: h().clock,
      hub: h().hub,
      listen: '127.0.0.1:0',
      // One collection at the start (the listener set, the controller configured), then only when a test asks:
      // a poll would notice the card deleted behind Gatehouse's back and rebuild the list before the check reads it.
      pollSeconds: 3600,
      syncSeconds: 0.1,
      driftMinutes: 60,
      resetCheckSeconds: 3600,
      offlineAlarmSeconds: 30,
      backoff: { baseMs: 20, maxMs: 300 },
      driver: { timeoutMs: 60, tries: 3 },
    });
    // Started by hand, so declared by hand on the app's seams (app.ts does it for its own gateway).
    h().platform.seams.doorControllers = gateway;
    await until(
      async () => (onController()?.doors[0] ?? 0) >= 2 && (await pending()) === 0,
      90_000,
      'the card and its time profile on the controller',
    );
  }, 120_000);

  afterAll(async () => {
    delete h().platform.seams.doorControllers;
    await gateway?.close();
    await sim?.close();
  });

  it('refuses outside the time profile’s hours on both sides, naming the profile; lets in inside them', async () => {
    const sunday = await check(SUNDAY_EVENING);
    expect(sunday.AtLocal).toBe(SUNDAY_EVENING);
    expect(sunday.TimeZone).toBe(ZONE);
    expect(sunday.Server.Verdict).toBe('refuse');
    const profile = stepOf(sunday.Server.Steps, 'timeProfile');
    expect(profile).toMatchObject({ Verdict: 'refuse', Finding: 'outsideProfile' });
    expect(profile.Data.ProfileName).toBe(PROFILE);
    expect(profile.Text).toContain(PROFILE);
    expect(sunday.Server.Text).toContain(PROFILE);
    // Every other step of Gatehouse's side lets the card through.
    for (const s of sunday.Server.Steps.filter((x) => x.Step !== 'timeProfile'))
      expect(s.Verdict, `${s.Step}: ${s.Text}`).toBe('pass');
    // The controller read live: it holds the card, by a time profile it holds as Gatehouse compiled it, which does
    // not cover Sunday evening. The two sides agree: nothing to sync.
    expect(sunday.Controller.State).toBe('read');
    expect(sunday.Controller.Verdict).toBe('refuse');
    expect(stepOf(sunday.Controller.Steps, 'card').Finding).toBe('ctlHoldsCard');
    expect(stepOf(sunday.Controller.Steps, 'profile')).toMatchObject({
      Verdict: 'refuse',
      Finding: 'ctlOutsideProfile',
    });
    expect(stepOf(sunday.Controller.Steps, 'clock').Verdict).toBe('pass');
    expect(sunday.Disagreements).toEqual([]);
    expect(sunday.SyncNow).toBe(false);

    const tuesday = await check(TUESDAY);
    expect(tuesday.Server.Verdict).toBe('pass');
    expect(stepOf(tuesday.Server.Steps, 'timeProfile').Finding).toBe('inProfile');
    expect(tuesday.Controller.Verdict).toBe('pass');
    expect(stepOf(tuesday.Controller.Steps, 'profile').Finding).toBe('ctlInProfile');

    // The controller itself refuses the card on Sunday evening; the check then names that refusal and its reason.
    const c = sim.controller(serial);
    const swiped = c.swipe(cardValue, 1, 1, {
      at: { year: 2027, month: 5, day: 9, hour: 20, minute: 0, second: 0 },
    });
    expect(swiped.reason).toBe(15);
    c.setClock(wall(Date.now()));
    await gateway!.collect(device.Id);
    const refusals = () =>
      h()
        .db.kysely.selectFrom('DoorOpeningRecord')
        .select('Id')
        .where('DeviceId', '=', device.Id)
        .where('CardNumber', '=', holder.CardNumber)
        .where('Result', '=', 0)
        .execute();
    await until(async () => (await refusals()).length > 0, 20_000, 'the refusal stored');
    const after = await check(SUNDAY_EVENING);
    const last = stepOf(after.Controller.Steps, 'lastRefusal');
    expect(last).toMatchObject({ Verdict: 'warn', Finding: 'ctlLastRefusal' });
    // Stored as the controller reported it: its code 15, Gatehouse's reason 7 "outside the time profile".
    expect(last.Data).toMatchObject({ EventReason: 15, Reason: 7 });
    expect(last.Text).toContain(translate('en', 'enum.doorRecordReason.7'));
  }, 60_000);

  it('a card deleted from the controller behind Gatehouse’s back: the controller’s side refuses, says so, offers sync now', async () => {
    expect(sim.controller(serial).deleteCard(cardValue)).toBe(true);
    const result = await check(TUESDAY);
    // Gatehouse still grants it; the controller, read live, does not hold it.
    expect(result.Server.Verdict).toBe('pass');
    expect(result.Controller.State).toBe('read');
    expect(result.Controller.Verdict).toBe('refuse');
    expect(stepOf(result.Controller.Steps, 'card')).toMatchObject({
      Verdict: 'refuse',
      Finding: 'ctlLacksCard',
    });
    expect(result.Controller.Text).toContain(device.Name);
    expect(result.Disagreements).toHaveLength(1);
    expect(result.Disagreements[0]).toMatchObject({ Finding: 'cardMissing', SyncFixes: true });
    expect(result.Disagreements[0]!.Text).toContain(device.Name);
    expect(result.Disagreements[0]!.Text).toContain(holder.CardNumber);
    expect(result.SyncNow).toBe(true);
    // In the operator's words, whichever language asks.
    for (const lang of ['zh', 'es', 'ja'] as const) {
      const said = await check(TUESDAY, lang);
      const expected = translate(lang, 'accessCheck.disagree.cardMissing', {
        device: device.Name,
        card: holder.CardNumber,
        door: 1,
      });
      expect(said.Disagreements.map((d) => d.Text)).toEqual([expected]);
      expect(expected).not.toBe(result.Disagreements[0]!.Text);
    }
    // The check wrote nothing: the card is still missing until someone syncs.
    expect(onController()).toBeUndefined();
  }, 60_000);

  it('lets the card in again once "sync now" has run', async () => {
    const sync = await call(h().app, 'POST', '/api/AccessControlDevice/SyncNow', {
      token,
      area: AREA,
      body: { Id: device.Id },
    });
    expect(sync.status, sync.msg).toBe(200);
    await until(() => onController() !== undefined, 60_000, 'the card written back');
    const result = await check(TUESDAY);
    expect(result.Server.Verdict).toBe('pass');
    expect(result.Controller.Verdict).toBe('pass');
    expect(stepOf(result.Controller.Steps, 'card').Finding).toBe('ctlHoldsCard');
    expect(result.Disagreements).toEqual([]);
    expect(result.SyncNow).toBe(false);
  }, 90_000);

  it('says so when the controller cannot be read, and guesses nothing', async () => {
    sim.setOffline(true, serial);
    try {
      const result = await check(TUESDAY);
      expect(['offline', 'timeout']).toContain(result.Controller.State);
      expect(result.Controller.Verdict).toBe('unknown');
      expect(result.Controller.Steps.map((s) => s.Step)).toEqual(['reach', 'lastRefusal']);
      expect(result.Controller.Text).toContain(device.Name);
      expect(result.Disagreements).toEqual([]);
      // Gatehouse's side does not depend on the controller.
      expect(result.Server.Verdict).toBe('pass');
    } finally {
      sim.setOffline(false, serial);
    }
    delete h().platform.seams.doorControllers;
    try {
      expect((await check(TUESDAY)).Controller.State).toBe('gatewayOff');
    } finally {
      h().platform.seams.doorControllers = gateway;
    }
  }, 60_000);

  it('who can pass: the holder inside the profile’s hours only; exported with the same filters', async () => {
    const who = async (at: string) => {
      const r = await call<{ Items: AccessCheckWhoItem[]; Total: number }>(
        h().app,
        'GET',
        '/api/AccessCheck/Who',
        {
          token,
          area: AREA,
          query: { ChannelId: door1.Id, At: at, PageSize: 100 },
        },
      );
      expect(r.status, r.msg).toBe(200);
      return r.data;
    };
    const tuesday = await who(TUESDAY);
    expect(tuesday.Total).toBe(1);
    expect(tuesday.Items[0]).toMatchObject({
      CardUserId: holder.Id,
      HolderName: holder.Name,
      CardNumbers: holder.CardNumber,
      ChannelId: door1.Id,
      TimeProfileName: PROFILE,
      Visitor: false,
    });
    expect((await who(SUNDAY_EVENING)).Total).toBe(0);
    // Any door of the area (no ChannelId): the holder is among them on Tuesday.
    const all = await call<{ Items: AccessCheckWhoItem[]; Total: number }>(
      h().app,
      'GET',
      '/api/AccessCheck/Who',
      {
        token,
        area: AREA,
        query: { At: TUESDAY, Keyword: holder.CardNumber },
      },
    );
    // One row per authorisation: the demo granted the holder other doors too.
    expect(new Set(all.data.Items.map((i) => i.CardUserId))).toEqual(new Set([holder.Id]));
    expect(all.data.Items.map((i) => i.ChannelId)).toContain(door1.Id);

    const job = await call<{ Id: number }>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: AREA,
      body: { Resource: 'AccessCheckWho', Query: { ChannelId: door1.Id, At: TUESDAY } },
    });
    expect(job.status, job.msg).toBe(200);
    await h().platform.exports.idle();
    const done = await call<{ Status: string; RowCount: number }>(
      h().app,
      'GET',
      `/api/ExportJob/${job.data.Id}`,
      {
        token,
        area: AREA,
      },
    );
    expect(done.data).toMatchObject({ Status: 'done', RowCount: 1 });
  }, 60_000);

  it('who may ask: both access-control codes of the area and a key with the code; not another area', async () => {
    const query = { CardNumber: holder.CardNumber, ChannelId: door1.Id, At: TUESDAY };
    const acuser = await login(h().app, 'acuser', DEMO_PASSWORD);
    const asUser = await call(h().app, 'GET', '/api/AccessCheck', { token: acuser, area: AREA, query });
    expect(asUser.status, asUser.msg).toBe(200);
    // acuser operates the first area only: the second is refused by the area guard.
    const other = await call(h().app, 'GET', '/api/AccessCheck', { token: acuser, area: 2, query });
    expect(other.status).toBe(403);
    const otherWho = await call(h().app, 'GET', '/api/AccessCheck/Who', { token: acuser, area: 2 });
    expect(otherWho.status).toBe(403);
    // acadmin operates both: the first area's door asked in the second is not found there.
    const acadmin = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const crossed = await call(h().app, 'GET', '/api/AccessCheck', { token: acadmin, area: 2, query });
    expect(crossed.status).toBe(404);
    const crossedWho = await call(h().app, 'GET', '/api/AccessCheck/Who', {
      token: acadmin,
      area: 2,
      query: { ChannelId: door1.Id },
    });
    expect(crossedWho.status).toBe(404);
    // A garage operator has no access-control code.
    const garage = await login(h().app, 'bikeuser', DEMO_PASSWORD);
    expect(
      (await call(h().app, 'GET', '/api/AccessCheck', { token: garage, area: AREA, query })).status,
    ).toBe(403);
    // An API key with the code reads it; one without is refused.
    const key = async (codes: string[]) =>
      (
        await call<ApiKeyCreated>(h().app, 'POST', '/api/ApiKey', {
          token,
          body: { Name: `access check ${codes.join()}`, AreaIds: [AREA], Codes: codes },
        })
      ).data.Secret;
    const withCode = await call<AccessCheckResult>(h().app, 'GET', '/api/AccessCheck', {
      token: await key(['AccessControl/User']),
      area: AREA,
      query,
    });
    expect(withCode.status, withCode.msg).toBe(200);
    expect(withCode.data.Server.Verdict).toBe('pass');
    const without = await call(h().app, 'GET', '/api/AccessCheck', {
      token: await key(['Department/User']),
      area: AREA,
      query,
    });
    expect(without.status).toBe(403);
  }, 60_000);

  it('refuses what is not a card, a door or a minute of the area, naming the field', async () => {
    const ask = (query: Record<string, string | number>, url = '/api/AccessCheck') =>
      call(h().app, 'GET', url, { token, area: AREA, lang: 'en', query });
    const fields = (r: { data: unknown }) => JSON.stringify(r.data);
    for (const [query, field] of [
      [{ CardNumber: 'abc', ChannelId: door1.Id }, 'CardNumber'],
      [{ CardNumber: '12345678901', ChannelId: door1.Id }, 'CardNumber'],
      [{ CardNumber: '4294967296', ChannelId: door1.Id }, 'CardNumber'],
      [{ CardNumber: holder.CardNumber }, 'ChannelId'],
      [{ CardNumber: holder.CardNumber, ChannelId: 'x' }, 'ChannelId'],
      [{ CardNumber: holder.CardNumber, ChannelId: door1.Id, At: '2027-02-30 10:00' }, 'At'],
      [{ CardNumber: holder.CardNumber, ChannelId: door1.Id, At: '2027-05-04 10:00:30' }, 'At'],
      [{ CardNumber: holder.CardNumber, ChannelId: door1.Id, At: 'tomorrow' }, 'At'],
    ] as const) {
      const r = await ask(query);
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(fields(r), JSON.stringify(query)).toContain(field);
    }
    const at = await ask({ CardNumber: holder.CardNumber, ChannelId: door1.Id, At: 'tomorrow' });
    expect(fields(at)).toContain(translate('en', 'validation.localMinute'));
    const who = await ask({ At: '2027-13-01 10:00' }, '/api/AccessCheck/Who');
    expect(who.status).toBe(400);
    expect(fields(who)).toContain('At');
    // A card not registered in the area is an answer, not an error: refused at the first step.
    const unknown = await call<AccessCheckResult>(h().app, 'GET', '/api/AccessCheck', {
      token,
      area: AREA,
      query: { CardNumber: '3999999999', ChannelId: door1.Id, At: TUESDAY },
    });
    expect(unknown.status, unknown.msg).toBe(200);
    expect(unknown.data.Server.Verdict).toBe('refuse');
    expect(unknown.data.Server.Steps[0]).toMatchObject({ Step: 'card', Finding: 'cardNotRegistered' });
    expect(unknown.data.CardNumber).toBe('3999999999');
  }, 60_000);
});
