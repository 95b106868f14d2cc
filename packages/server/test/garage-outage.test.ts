import { estimateSession } from '@gatehouse/shared';
import { afterEach, beforeAll, expect, it } from 'vitest';
import {
  closeDeviceSession,
  tariffOf,
  type ChargerGateway,
  type PowerOffCommand,
} from '../src/modules/garage/index.ts';
import { deviceActor } from '../src/platform/context.ts';
import { auditRows, garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb, type Harness } from './support/harness.ts';

interface Outage {
  Id: number;
  ChargeEquipmentId: number;
  ChargeRecordId: number | null;
  ChargeOrderId: number | null;
  OrderNo: string | null;
  AmountCents: number | null;
  Reason: string;
  Result: number;
  ResultReason: string | null;
  ResultText: string | null;
  UserName: string;
  HostName: string;
  ZoneName: string;
}

interface GridSocket {
  Id: number;
  State: number;
  Session: { ChargeRecordId: number; EstimatedCents: number | null } | null;
}

/** A socket of the area with a session running, with its record and order rows. */
async function runningSession(h: Harness, areaId = 1, skip: number[] = []) {
  const k = h.db.kysely;
  const record = await k
    .selectFrom('ChargeRecord')
    .innerJoin('ChargeOrder', 'ChargeOrder.ChargeRecordId', 'ChargeRecord.Id')
    .selectAll('ChargeRecord')
    .select(['ChargeOrder.Id as OrderId', 'ChargeOrder.ChargeType'])
    .where('ChargeRecord.AreaId', '=', areaId)
    .where('ChargeRecord.EndAt', 'is', null)
    .where('ChargeOrder.ChargeType', '=', 3)
    .$if(skip.length > 0, (q) => q.where('ChargeRecord.ChargeEquipmentId', 'not in', skip))
    .orderBy('ChargeRecord.Id')
    .executeTakeFirstOrThrow();
  return record;
}

const sessionRow = (h: Harness, id: number) =>
  h.db.kysely.selectFrom('ChargeRecord').selectAll().where('Id', '=', id).executeTakeFirstOrThrow();
const orderRow = (h: Harness, id: number) =>
  h.db.kysely.selectFrom('ChargeOrder').selectAll().where('Id', '=', id).executeTakeFirstOrThrow();
const outagesOf = (h: Harness, socketId: number) =>
  h.db.kysely
    .selectFrom('ForcedOutageRecord')
    .selectAll()
    .where('ChargeEquipmentId', '=', socketId)
    .execute();

/**
 * A device that accepts the power-off and reports its stop at once, as a quick charge point does: the session
 * ends through the device-session close path (with the stop reason Gatehouse asked for) before the answer
 * "sent" is written, so the record already reads "power cut" (a stop that comes later: ocpp-power.test.ts).
 */
function stoppingDevice(h: () => Harness, commands: PowerOffCommand[] = []): ChargerGateway {
  return {
    async powerOff(command) {
      commands.push(command);
      if (command.chargeRecordId !== null) {
        const row = await sessionRow(h(), command.chargeRecordId);
        await closeDeviceSession(
          {
            db: h().db,
            clock: h().clock,
            lang: 'en',
            actor: deviceActor(command.hostId, command.serialNumber),
            areaId: row.AreaId,
          },
          {
            recordId: row.Id,
            socketId: row.ChargeEquipmentId,
            endAt: h().clock.now(),
            meterStopWh: (row.MeterStartWh ?? 0) + row.EnergyWh,
            stopReason: 1,
          },
        );
        return { outcome: 'sent' };
      }
      return { outcome: 'cut' };
    },
  };
}

describeEachDb('garage forced power-off', (h) => {
  let admin = '';
  let user = '';
  // A stand-in charger gateway on the app's seams (what its contexts carry), the app's own put back after.
  let own: ChargerGateway | undefined;
  const installChargerGateway = (gateway: ChargerGateway) => (h().platform.seams.chargers = gateway);
  afterEach(() => {
    h().platform.seams.chargers = own;
  });
  beforeAll(async () => {
    own = h().platform.seams.chargers;
    ({ admin, user } = await garageTokens(h()));
  });

  it('ends the session and settles its order exactly once when sent twice at the same time', async () => {
    installChargerGateway(stoppingDevice(h));
    h().clock.advance(47 * 60_000);
    const session = await runningSession(h());
    const order = await orderRow(h(), session.OrderId);
    const expected = estimateSession(tariffOf(order), session, h().clock.now()).AmountCents;
    const body = {
      ChargeEquipmentId: session.ChargeEquipmentId,
      ChargeRecordId: session.Id,
      Reason: '电池异常发热',
    };

    const replies = await Promise.all([
      call<Outage>(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', { token: user, area: 1, body }),
      call<Outage>(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', { token: admin, area: 1, body }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = replies.find((r) => r.status === 409)!;
    // The other is already cutting it (or has: the session ended).
    expect(['该次充电的断电指令正在执行中', '该次充电已经结束，无需重复断电']).toContain(refused.msg);
    const done = replies.find((r) => r.status === 200)!.data;
    expect(done).toMatchObject({
      ChargeEquipmentId: session.ChargeEquipmentId,
      ChargeRecordId: session.Id,
      ChargeOrderId: session.OrderId,
      OrderNo: order.OrderNo,
      AmountCents: expected,
      Reason: '电池异常发热',
      Result: 1,
      ResultReason: null,
    });
    expect(done.HostName).not.toBe('');

    const ended = await sessionRow(h(), session.Id);
    expect(ended).toMatchObject({ EndAt: h().clock.now(), StopReason: 3 });
    const settled = await orderRow(h(), session.OrderId);
    // The final price is the live estimate's function at the cut, with the energy measured so far.
    expect(settled).toMatchObject({ AmountCents: expected, SettledAt: h().clock.now() });
    expect(settled.PaymentState).toBe(expected === 0 ? 1 : 0);
    expect(await outagesOf(h(), session.ChargeEquipmentId)).toHaveLength(1);
    // The socket's state is the device's to report.
    const audits = await auditRows(h(), 'ChargeEquipment', session.ChargeEquipmentId);
    expect(audits.filter((a) => a.Action === 'forcedPowerOff')).toHaveLength(1);
    expect(audits.filter((a) => a.Action === 'forcedPowerOff.result')).toHaveLength(1);
    expect((await auditRows(h(), 'ChargeOrder', session.OrderId)).map((a) => a.Action)).toEqual(
      expected === 0 ? ['settle', 'payment.system'] : ['settle'],
    );

    // Sent again later: still refused, still one record.
    const again = await call(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: user,
      area: 1,
      body,
    });
    expect(again.status).toBe(409);
    expect(await outagesOf(h(), session.ChargeEquipmentId)).toHaveLength(1);
    expect(await orderRow(h(), session.OrderId)).toEqual(settled);
  });

  it('not sent (no device link, or not connected): recorded with the reason, the session keeps running', async () => {
    const session = await runningSession(h());
    const body = { ChargeEquipmentId: session.ChargeEquipmentId, Reason: '插座冒烟' };
    const replies = await Promise.all(
      [user, admin].map((token) =>
        call<Outage>(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', { token, area: 1, body }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    for (const reply of replies) {
      expect(reply.data.Result).toBe(0);
      expect(['noDeviceLink', 'notConnected']).toContain(reply.data.ResultReason);
      expect(reply.data.ResultText).toMatch(/^已记录，未下发：/);
    }
    const rows = await outagesOf(h(), session.ChargeEquipmentId);
    expect(rows).toHaveLength(2);
    // Honest states: nothing cut, nothing settled, the claim released for a later try.
    const still = await sessionRow(h(), session.Id);
    expect(still).toMatchObject({ EndAt: null, StopReason: null, StopRequest: null });
    expect((await orderRow(h(), session.OrderId)).SettledAt).toBeNull();
    const audits = await auditRows(h(), 'ChargeOrder', session.OrderId);
    expect(audits.filter((a) => a.Action === 'settle')).toHaveLength(0);
    const en = await call<Outage>(h().app, 'GET', `/api/ForcedOutageRecord/${rows[0]!.Id}`, {
      token: user,
      area: 1,
      lang: 'en',
    });
    expect(en.data.ResultText).toMatch(/^Recorded, not sent: the host/);
  });

  it('records a cut on a socket with nothing running (a stuck relay) and leaves its state alone', async () => {
    const idle = await h()
      .db.kysely.selectFrom('ChargeEquipment')
      .select(['Id', 'State'])
      .where('AreaId', '=', 1)
      .where('State', '=', 9)
      .executeTakeFirst();
    const socket =
      idle ??
      (await h()
        .db.kysely.selectFrom('ChargeEquipment')
        .select(['Id', 'State'])
        .where('AreaId', '=', 1)
        .where('State', '=', 0)
        .executeTakeFirstOrThrow());
    const reply = await call<Outage>(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: user,
      area: 1,
      body: { ChargeEquipmentId: socket.Id, Reason: '继电器粘连，现场断电' },
    });
    expect(reply.status).toBe(200);
    expect(reply.data).toMatchObject({
      ChargeRecordId: null,
      ChargeOrderId: null,
      AmountCents: null,
      UserName: 'bikeuser',
    });
    const after = await h()
      .db.kysely.selectFrom('ChargeEquipment')
      .select('State')
      .where('Id', '=', socket.Id)
      .executeTakeFirstOrThrow();
    expect(after.State).toBe(socket.State);
  });

  it('sends the command through an installed gateway after the commit and records its answer', async () => {
    const commands: PowerOffCommand[] = [];
    const device = stoppingDevice(h, commands);
    installChargerGateway({
      powerOff: async (command) =>
        commands.length === 0 ? device.powerOff(command) : { outcome: 'failed', reason: 'timeout' },
    });
    const first = await runningSession(h());
    const ok = await call<Outage>(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: admin,
      area: 1,
      body: { ChargeEquipmentId: first.ChargeEquipmentId, ChargeRecordId: first.Id, Reason: '远程断电' },
    });
    expect(ok.data.Result).toBe(1);
    const host = await h()
      .db.kysely.selectFrom('ChargeEquipment')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select(['ChargeHost.Id', 'ChargeHost.SerialNumber', 'ChargeEquipment.PortNumber'])
      .where('ChargeEquipment.Id', '=', first.ChargeEquipmentId)
      .executeTakeFirstOrThrow();
    expect(commands[0]).toMatchObject({
      hostId: host.Id,
      serialNumber: host.SerialNumber,
      portNumber: host.PortNumber,
      chargeRecordId: first.Id,
    });
    const second = await runningSession(h(), 1, [first.ChargeEquipmentId]);
    const failed = await call<Outage>(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: admin,
      area: 1,
      body: { ChargeEquipmentId: second.ChargeEquipmentId, Reason: '远程断电' },
    });
    expect(failed.data).toMatchObject({ Result: 2, ResultReason: 'timeout' });
    // No answer: nothing says the power is off, so the session runs on and may be cut again.
    expect(await sessionRow(h(), second.Id)).toMatchObject({
      EndAt: null,
      StopReason: null,
      StopRequest: null,
    });
    expect((await sessionRow(h(), first.Id)).StopReason).toBe(3);
  });

  it('shows the cut in the grid, the records list and the order list', async () => {
    installChargerGateway(stoppingDevice(h));
    const session = await runningSession(h());
    const before = await call<{ Sockets: GridSocket[] }>(h().app, 'GET', '/api/ChargeEquipment/Grid', {
      token: user,
      area: 1,
      query: {
        ChargeHostId: (
          await h()
            .db.kysely.selectFrom('ChargeEquipment')
            .select('ChargeHostId')
            .where('Id', '=', session.ChargeEquipmentId)
            .executeTakeFirstOrThrow()
        ).ChargeHostId,
      },
    });
    const cell = before.data.Sockets.find((s) => s.Id === session.ChargeEquipmentId)!;
    expect(cell.Session?.ChargeRecordId).toBe(session.Id);
    const estimate = cell.Session!.EstimatedCents;

    const cut = await call<Outage>(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: user,
      area: 1,
      body: { ChargeEquipmentId: session.ChargeEquipmentId, ChargeRecordId: session.Id, Reason: '超时占用' },
    });
    expect(cut.status).toBe(200);
    // Same instant, same energy: the settled price is the estimate the grid showed.
    expect(cut.data.AmountCents).toBe(estimate);

    const list = await call<{ Items: Outage[] }>(h().app, 'GET', '/api/ForcedOutageRecord', {
      token: user,
      area: 1,
      query: { ChargeEquipmentId: session.ChargeEquipmentId },
    });
    expect(list.data.Items.map((o) => o.Id)).toContain(cut.data.Id);
    const orders = await call<{ Items: { Id: number; Forced: boolean; Estimated: boolean }[] }>(
      h().app,
      'GET',
      '/api/ChargeOrder',
      { token: user, area: 1, query: { Forced: true, ChargeEquipmentId: session.ChargeEquipmentId } },
    );
    expect(orders.data.Items.find((o) => o.Id === session.OrderId)).toMatchObject({
      Forced: true,
      Estimated: false,
    });
  });

  it('refuses a reasonless cut (400), a socket of another area (404) and a session of another socket (404)', async () => {
    const session = await runningSession(h());
    const noReason = await call(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: user,
      area: 1,
      body: { ChargeEquipmentId: session.ChargeEquipmentId, Reason: ' ' },
    });
    expect(noReason.status).toBe(400);
    const foreign = await runningSession(h(), 2);
    const crossArea = await call(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: admin,
      area: 1,
      body: { ChargeEquipmentId: foreign.ChargeEquipmentId, Reason: '跨区域' },
    });
    expect(crossArea.status).toBe(404);
    const other = await runningSession(h(), 1, [session.ChargeEquipmentId]);
    const mismatch = await call(h().app, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      token: admin,
      area: 1,
      body: { ChargeEquipmentId: session.ChargeEquipmentId, ChargeRecordId: other.Id, Reason: '错配' },
    });
    expect(mismatch.status).toBe(404);
    expect((await sessionRow(h(), session.Id)).EndAt).toBeNull();
    expect((await sessionRow(h(), other.Id)).EndAt).toBeNull();
    expect((await sessionRow(h(), foreign.Id)).EndAt).toBeNull();
  });

  it('refuses a socket or a session id written as text ("123"): 400 on that field, nothing cut or recorded', async () => {
    const commands: PowerOffCommand[] = [];
    installChargerGateway(stoppingDevice(h, commands));
    const session = await runningSession(h());
    const before = await outagesOf(h(), session.ChargeEquipmentId);
    for (const body of [
      { ChargeEquipmentId: String(session.ChargeEquipmentId), Reason: '文本编号' },
      {
        ChargeEquipmentId: session.ChargeEquipmentId,
        ChargeRecordId: String(session.Id),
        Reason: '文本编号',
      },
    ]) {
      const reply = await call<{ Errors: { Field: string }[] }>(
        h().app,
        'POST',
        '/api/ChargeEquipment/ForcedPowerOff',
        { token: admin, area: 1, body },
      );
      expect(reply.status, JSON.stringify(body)).toBe(400);
      const field = typeof body.ChargeEquipmentId === 'string' ? 'ChargeEquipmentId' : 'ChargeRecordId';
      expect(reply.data.Errors.map((e) => e.Field)).toEqual([field]);
    }
    expect(commands).toEqual([]);
    expect(await outagesOf(h(), session.ChargeEquipmentId)).toEqual(before);
    expect((await sessionRow(h(), session.Id)).EndAt).toBeNull();
  });
});
