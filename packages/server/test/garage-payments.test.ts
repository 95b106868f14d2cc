import { PAYMENT_TRANSITIONS, paymentState } from '@gatehouse/shared';
import { beforeAll, expect, it } from 'vitest';
import { applyChannelEvent, type OrderKind } from '../src/modules/garage/index.ts';
import { AppError } from '../src/platform/errors.ts';
import {
  auditRows,
  channelContext,
  garageTokens,
  insertChargeOrder,
  insertParkOrder,
  paymentStateOf,
} from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb, type Harness } from './support/harness.ts';

interface OrderReply {
  Id: number;
  PaymentState: number;
  RefundReason: string | null;
  CloseReason: string | null;
  Actions: string[];
}

const KINDS: OrderKind[] = ['ChargeOrder', 'ParkOrder'];
const STATES = paymentState.items.map((i) => i.value);

async function orderIn(h: Harness, kind: OrderKind, state: number, extra: { amount?: number } = {}) {
  return kind === 'ChargeOrder'
    ? (await insertChargeOrder(h, { areaId: 1, state, ...extra })).orderId
    : insertParkOrder(h, { areaId: 1, state, ...extra });
}

describeEachDb('garage payment states', (h) => {
  let admin = '';
  let user = '';
  beforeAll(async () => {
    ({ admin, user } = await garageTokens(h()));
  });

  for (const kind of KINDS) {
    for (const t of PAYMENT_TRANSITIONS) {
      it(`${kind}: ${t.from} → ${t.to} by the ${t.actor}${t.action ? ` (${t.action})` : ''} is allowed and audited`, async () => {
        const id = await orderIn(h(), kind, t.from);
        if (t.actor === 'operator') {
          const reply = await call<OrderReply>(h().app, 'POST', `/api/${kind}/${t.action}`, {
            token: admin,
            area: 1,
            body: { Id: id, ...(t.action === 'RetryRefund' ? {} : { Reason: `测试${t.action}` }) },
          });
          expect(reply.status, reply.msg).toBe(200);
          expect(reply.data.PaymentState).toBe(t.to);
        } else if (t.actor === 'channel') {
          await applyChannelEvent(channelContext(h(), 1), kind, id, t.to);
        } else {
          // The system's only transition: an order settled at 0 is closed (forced power-off test covers it end to end).
          expect([t.from, t.to]).toEqual([0, 1]);
          return;
        }
        const row = await paymentStateOf(h(), kind, id);
        expect(row.PaymentState).toBe(t.to);
        if (t.action === 'Refund') expect(row.RefundReason).toBe('测试Refund');
        if (t.action === 'Close') expect(row.CloseReason).toBe('测试Close');
        if (t.to === 2) expect(row.PaidAt).toBe(h().clock.now());
        const audits = await auditRows(h(), kind, id);
        expect(audits).toHaveLength(1);
        expect(audits[0]!.Action).toBe(`payment.${t.action ?? t.actor}`);
        expect(JSON.parse(audits[0]!.Before!)).toEqual({ PaymentState: t.from });
        expect(JSON.parse(audits[0]!.After!)).toMatchObject({ PaymentState: t.to });
      });
    }
  }

  it('refuses every operator action the state does not allow: 409, nothing changed, nothing audited', async () => {
    const actions = ['Close', 'Refund', 'CancelRefund', 'RetryRefund'] as const;
    let refused = 0;
    for (const kind of KINDS) {
      for (const state of STATES) {
        for (const action of actions) {
          if (PAYMENT_TRANSITIONS.some((t) => t.from === state && t.action === action)) continue;
          const id = await orderIn(h(), kind, state);
          const before = await paymentStateOf(h(), kind, id);
          const reply = await call(h().app, 'POST', `/api/${kind}/${action}`, {
            token: admin,
            area: 1,
            body: { Id: id, ...(action === 'RetryRefund' ? {} : { Reason: '非法操作' }) },
          });
          expect(reply.status, `${kind} ${state} ${action}`).toBe(409);
          expect(await paymentStateOf(h(), kind, id)).toEqual(before);
          expect(await auditRows(h(), kind, id)).toEqual([]);
          refused += 1;
        }
      }
    }
    expect(refused).toBeGreaterThan(60);
  });

  it('names the state and the action in the 409 message, in the caller language', async () => {
    const id = await orderIn(h(), 'ChargeOrder', 7);
    const zh = await call(h().app, 'POST', '/api/ChargeOrder/Refund', {
      token: admin,
      area: 1,
      body: { Id: id, Reason: '再次退款' },
    });
    expect(zh.msg).toBe('订单当前状态为「退款成功」，不能退款');
    const en = await call(h().app, 'POST', '/api/ChargeOrder/Close', {
      token: admin,
      area: 1,
      lang: 'en',
      body: { Id: id },
    });
    expect(en.msg).toBe('The order is "Refund succeeded": Close order is not possible');
  });

  it('refuses channel events off the table (409) and leaves the order as it was', async () => {
    for (const [from, to] of [
      [0, 2],
      [2, 0],
      [1, 5],
      [7, 9],
      [3, 7],
      [6, 0],
    ] as const) {
      const id = await orderIn(h(), 'ParkOrder', from);
      const error = await applyChannelEvent(channelContext(h(), 1), 'ParkOrder', id, to).catch(
        (e: unknown) => e,
      );
      expect(error, `${from} → ${to}`).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(409);
      expect((await paymentStateOf(h(), 'ParkOrder', id)).PaymentState).toBe(from);
    }
  });

  it('lets exactly one of two concurrent refunds of the same order through', async () => {
    for (const kind of KINDS) {
      const id = await orderIn(h(), kind, 2);
      const replies = await Promise.all(
        ['第一次', '第二次'].map((Reason) =>
          call<OrderReply>(h().app, 'POST', `/api/${kind}/Refund`, {
            token: admin,
            area: 1,
            body: { Id: id, Reason },
          }),
        ),
      );
      expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = replies.find((r) => r.status === 200)!;
      const row = await paymentStateOf(h(), kind, id);
      expect(row.PaymentState).toBe(3);
      expect(row.RefundReason).toBe(winner.data.RefundReason);
      expect(await auditRows(h(), kind, id)).toHaveLength(1);
    }
  });

  it('needs a reason to refund, and refunds nothing of a free order', async () => {
    const id = await orderIn(h(), 'ChargeOrder', 2);
    for (const body of [{ Id: id }, { Id: id, Reason: '   ' }]) {
      const reply = await call(h().app, 'POST', '/api/ChargeOrder/Refund', { token: admin, area: 1, body });
      expect(reply.status).toBe(400);
    }
    expect((await paymentStateOf(h(), 'ChargeOrder', id)).PaymentState).toBe(2);
    const free = await orderIn(h(), 'ChargeOrder', 2, { amount: 0 });
    const reply = await call(h().app, 'POST', '/api/ChargeOrder/Refund', {
      token: admin,
      area: 1,
      body: { Id: free, Reason: '零元' },
    });
    expect(reply.status).toBe(409);
    expect(reply.msg).toBe('订单金额为 0，无需退款');
  });

  it('acts on no order still running (409), neither operator nor channel', async () => {
    const { orderId } = await insertChargeOrder(h(), { areaId: 1, state: 0, settled: false });
    const close = await call(h().app, 'POST', '/api/ChargeOrder/Close', {
      token: admin,
      area: 1,
      body: { Id: orderId },
    });
    expect(close.status).toBe(409);
    expect(close.msg).toBe('订单尚未结束，暂不能处理支付');
    await expect(applyChannelEvent(channelContext(h(), 1), 'ChargeOrder', orderId, 5)).rejects.toMatchObject({
      status: 409,
    });
    const inside = await insertParkOrder(h(), { areaId: 1, state: 0, inside: true });
    const park = await call(h().app, 'POST', '/api/ParkOrder/Close', {
      token: admin,
      area: 1,
      body: { Id: inside },
    });
    expect(park.status).toBe(409);
  });

  it('gives the User code the close action only; refunds need the Admin code', async () => {
    const unpaid = await orderIn(h(), 'ChargeOrder', 0);
    const paid = await orderIn(h(), 'ChargeOrder', 2);
    const asUser = await call<OrderReply>(h().app, 'GET', `/api/ChargeOrder/${paid}`, {
      token: user,
      area: 1,
    });
    expect(asUser.data.Actions).toEqual([]);
    const unpaidAsUser = await call<OrderReply>(h().app, 'GET', `/api/ChargeOrder/${unpaid}`, {
      token: user,
      area: 1,
    });
    expect(unpaidAsUser.data.Actions).toEqual(['Close']);
    const asAdmin = await call<OrderReply>(h().app, 'GET', `/api/ChargeOrder/${paid}`, {
      token: admin,
      area: 1,
    });
    expect(asAdmin.data.Actions).toEqual(['Refund']);

    const refund = await call(h().app, 'POST', '/api/ChargeOrder/Refund', {
      token: user,
      area: 1,
      body: { Id: paid, Reason: '操作员退款' },
    });
    expect(refund.status).toBe(403);
    expect((await paymentStateOf(h(), 'ChargeOrder', paid)).PaymentState).toBe(2);
    const close = await call<OrderReply>(h().app, 'POST', '/api/ChargeOrder/Close', {
      token: user,
      area: 1,
      body: { Id: unpaid, Reason: '设备故障免单' },
    });
    expect(close.status).toBe(200);
    expect(close.data).toMatchObject({ PaymentState: 1, CloseReason: '设备故障免单', Actions: [] });
  });

  it('does not reach an order of another area (404), even for an admin of both areas', async () => {
    const foreign = (await insertChargeOrder(h(), { areaId: 2, state: 2 })).orderId;
    const reply = await call(h().app, 'POST', '/api/ChargeOrder/Refund', {
      token: admin,
      area: 1,
      body: { Id: foreign, Reason: '跨区域' },
    });
    expect(reply.status).toBe(404);
    expect((await paymentStateOf(h(), 'ChargeOrder', foreign)).PaymentState).toBe(2);
  });
});
