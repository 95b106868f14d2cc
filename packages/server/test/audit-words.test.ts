import { auditWords, translate, type AuditLogItem, type Lang } from '@gatehouse/shared';
import { expect, it } from 'vitest';
import { ALARM, raiseAlarm } from '../src/modules/access-control/door-alarm/service.ts';
import { deviceActor, systemActor, type AreaContext } from '../src/platform/context.ts';
import { audit } from '../src/platform/audit.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/*
 * What the operation log shows is true (issue 27, item 6), read as the operator reads it: entries written by
 * the server, listed by the API, put in words by the shared vocabulary the screen and the export use.
 * A door alarm's fields are the alarm's (not the socket's "state"), raising it lists none of its
 * acknowledgement, acknowledging names the door and shows the note; a remote start names the socket, the card
 * apart; access-rule fields and system jobs read in words.
 */
const tr = (lang: Lang) => (key: string, params?: Record<string, string | number>) =>
  translate(lang, key, params);

describeEachDb('operation log: entries in words', (h) => {
  async function entries(lang: Lang, token: string, action: string) {
    const list = await call<{ Items: AuditLogItem[] }>(h().app, 'GET', '/api/AuditLog', {
      token,
      lang,
      query: { PageIndex: 1, PageSize: 20, Action: action },
    });
    expect(list.status, list.msg).toBe(200);
    return list.data.Items.map((item) => auditWords(item, tr(lang)));
  }

  it('labels a door alarm by its own words, names its door and shows the note', async () => {
    const { db, clock } = h();
    const device = await db.kysely
      .selectFrom('AccessControlDevice')
      .select(['Id', 'AreaId', 'Name'])
      .where('AreaId', '=', 1)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const byDevice: AreaContext = {
      db,
      clock,
      lang: 'zh',
      actor: deviceActor(device.Id, device.Name),
      areaId: 1,
    };
    const raised = await db.kysely.transaction().execute((trx) =>
      raiseAlarm(byDevice, trx, {
        device: { Id: device.Id, AreaId: 1, Name: device.Name },
        door: 2,
        doorName: '北门',
        kind: ALARM.forced,
        at: clock.now(),
      }),
    );
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const ack = await call(h().app, 'POST', '/api/DoorAlarm/Acknowledge', {
      token,
      area: 1,
      body: { Ids: [raised.item.Id], Note: '已到现场检查' },
    });
    expect(ack.status, ack.msg).toBe(200);

    const [raise] = await entries('zh', token, 'raise');
    // Not the socket's state, and nothing of an acknowledgement that has not happened.
    for (const word of ['插座状态', '确认时间', '确认人', '确认说明', '恢复时间'])
      expect(raise!.fields).not.toContain(word);
    expect(raise!.fields).toEqual(expect.arrayContaining(['报警类型', '处理状态', '报警时间']));
    // The door and the controller are the object, not changes; an id is never a change.
    for (const word of ['门名称', '编号']) expect(raise!.fields).not.toContain(word);
    expect(raise!.object).toBe(`门报警 ${device.Name} 北门`);
    expect(raise!.actor).toBe(`门禁控制器 ${device.Name}`);

    const [acknowledged] = await entries('zh', token, 'acknowledge');
    expect(acknowledged!.object).toBe(`门报警 ${device.Name} 北门`);
    expect(acknowledged!.fields).toEqual(['处理状态', '确认说明：已到现场检查']);
    const [inEnglish] = await entries('en', token, 'acknowledge');
    expect(inEnglish!.fields).toEqual(['State', 'Acknowledgement note: 已到现场检查']);
  });

  it('names the socket of a remote start by its host and number, and the card apart', async () => {
    const { db } = h();
    const socket = await db.kysely
      .selectFrom('ChargeEquipment')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select(['ChargeEquipment.Id', 'ChargeEquipment.PortNumber', 'ChargeHost.Name'])
      .where('ChargeEquipment.AreaId', '=', 1)
      .where('ChargeEquipment.Disabled', '=', 0)
      .orderBy('ChargeEquipment.Id')
      .executeTakeFirstOrThrow();
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    // No charger link in the harness: refused as not sent, and audited all the same.
    const start = await call(h().app, 'POST', '/api/ChargeEquipment/RemoteStart', {
      token,
      area: 1,
      body: { ChargeEquipmentId: socket.Id, CardNumber: '88001234' },
    });
    expect(start.status).toBe(409);
    // Renamed since: the entry keeps the host it was sent to.
    await db.kysely
      .updateTable('ChargeHost')
      .set({ Name: 'renamed host' })
      .where('Name', '=', socket.Name)
      .execute();

    const [zh] = await entries('zh', token, 'remoteStart');
    expect(zh!.object).toBe(`充电插座 ${socket.Name} ${socket.PortNumber} 号插座`);
    expect(zh!.fields).toContain('卡号：88001234');
    expect(zh!.fields).not.toContain('充电主机');
    const [en] = await entries('en', token, 'remoteStart');
    expect(en!.object).toBe(`Charging socket ${socket.Name} socket ${socket.PortNumber}`);
    expect(en!.fields).toContain('Card number: 88001234');
  });

  it('labels access-rule fields and system jobs in words, never by their raw names', async () => {
    const { db, clock } = h();
    const ctx = (actor: AreaContext['actor']): AreaContext => ({ db, clock, lang: 'zh', actor, areaId: 1 });
    const operator = {
      kind: 'user',
      userId: 1,
      name: 'admin',
      displayName: 'admin',
      ip: '127.0.0.1',
    } as const;
    // As the server writes them: an authorisation's terms, a door's rules, a controller's rule pass, and the
    // jobs that close sessions a charger no longer holds and watch charger links.
    await audit(ctx(operator), {
      action: 'update',
      entity: 'CardUserLinkChannel',
      entityId: 1,
      before: { TimeProfileId: null, ValidFrom: null, ValidTo: null },
      after: { TimeProfileId: 3, ValidFrom: null, ValidTo: null },
    });
    await audit(ctx(operator), {
      action: 'setDoorRules',
      entity: 'AccessControlChannel',
      entityId: 1,
      before: { DeviceId: 1, DoorNumber: 1 },
      after: { DeviceId: 1, DoorNumber: 1, Keypad: true, PasscodesChanged: true, PasscodeCount: 2 },
    });
    await audit(ctx(deviceActor(1, 'controller')), {
      action: 'syncRules',
      entity: 'AccessControlDevice',
      entityId: 1,
      after: { Ok: true, Error: null, Keypads: 1, Passcodes: 1 },
    });
    for (const job of ['charger reconciliation', 'ocpp liveness'])
      await audit(ctx(systemActor(job)), {
        action: 'endUnconfirmed',
        entity: 'ChargeRecord',
        entityId: 1,
        before: null,
        after: { StopReason: 6, EndAt: clock.now(), EnergyWh: 120 },
      });
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    for (const lang of ['zh', 'en', 'es', 'ja'] as const) {
      const rows = [
        ...(await entries(lang, token, 'update')).slice(0, 1),
        ...(await entries(lang, token, 'setDoorRules')),
        ...(await entries(lang, token, 'syncRules')),
        ...(await entries(lang, token, 'endUnconfirmed')),
      ];
      const text = JSON.stringify(rows);
      for (const raw of ['TimeProfileId', 'PasscodesChanged', 'PasscodeCount', 'Keypads', 'Ok', 'Error'])
        expect(text, `${lang}: ${raw}`).not.toContain(`"${raw}"`);
      for (const raw of ['charger reconciliation', 'ocpp liveness']) expect(text, lang).not.toContain(raw);
    }
    const [update] = await entries('zh', token, 'update');
    expect(update).toMatchObject({ actor: 'admin', fields: ['时间段'] });
    const jobs = (await entries('zh', token, 'endUnconfirmed')).map((e) => e.actor);
    expect(jobs.sort()).toEqual(['充电主机在线检测', '充电会话核对'].sort());
    const [rules] = await entries('zh', token, 'setDoorRules');
    expect(rules!.fields).toEqual(['密码键盘', '开门密码已修改', '开门密码数']);
    const [pass] = await entries('en', token, 'syncRules');
    expect(pass).toMatchObject({
      actor: 'Door controller controller',
      fields: ['Result', 'Keypad', 'Passcodes'],
    });
  });
});
