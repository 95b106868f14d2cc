import {
  POWER_OFF_RESULT,
  STOP_REASON,
  assertDigest,
  digestEnergyWh,
  priceSession,
  type MeterDigest,
} from '@gatehouse/shared';
import { expect, it } from 'vitest';
import { tariffOf, usageOf } from '../src/modules/garage/index.ts';
import { describeEachDb } from './support/harness.ts';

/*
 * The demo's history is one the product could have written (issue 27, item 4): the seeded database is read
 * whole and every charging session, order and power-off record is checked against the product's own rules
 * (docs/garage.md, docs/chargers.md). A seeder that invents a history the product cannot make (a power-off
 * "not sent" that nevertheless ended its session by forced power-off) fails here.
 */

/** Payment states in which money was collected (PaidAt set) and the refund states (a refund reason given). */
const PAID = new Set([2, 3, 7, 8, 9, 10]);
const REFUND = new Set([3, 7, 8, 9, 10]);
/** A charger gives an answer only to a host the charging API drives (docs/chargers.md, "Forced power-off"). */
const CHARGING_API = 2;
const NOT_SENT_REASONS = ['notConnected', 'noDeviceLink'];
const FAILED_REASONS = ['refused', 'timeout', 'error'];

describeEachDb('garage demo: every seeded record is one the product could write', (h) => {
  it('sessions, orders and power-off records follow the product rules', async () => {
    const k = h().db.kysely;
    const sessions = await k
      .selectFrom('ChargeRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select([
        'ChargeRecord.Id',
        'ChargeRecord.AreaId',
        'ChargeRecord.ChargeEquipmentId',
        'ChargeRecord.CardNumber',
        'ChargeRecord.StartAt',
        'ChargeRecord.EndAt',
        'ChargeRecord.EnergyWh',
        'ChargeRecord.StopReason',
        'ChargeRecord.MeterStartWh',
        'ChargeRecord.MeterDigest',
        'ChargeRecord.FullAt',
        'ChargeHost.ChargingSystemType',
        'ChargeHost.ParkAreaId',
        'ChargeHost.LastSeenAt',
      ])
      .execute();
    const orders = await k.selectFrom('ChargeOrder').selectAll().execute();
    const outages = await k
      .selectFrom('ForcedOutageRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ForcedOutageRecord.ChargeEquipmentId')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .selectAll('ForcedOutageRecord')
      .select('ChargeHost.ChargingSystemType')
      .execute();
    const rules = await k.selectFrom('ChargeRule').select(['Id', 'ChargeType']).execute();
    const links = await k.selectFrom('ParkAreaChargeRule').selectAll().execute();
    const passes = await k
      .selectFrom('MonthlyPass')
      .innerJoin('Vehicle', 'Vehicle.Id', 'MonthlyPass.VehicleId')
      .innerJoin('ChargeRule', 'ChargeRule.Id', 'MonthlyPass.ChargeRuleId')
      .select([
        'Vehicle.CardNumber',
        'MonthlyPass.AreaId',
        'MonthlyPass.StartAt',
        'MonthlyPass.EndAt',
        'ChargeRule.ChargeType',
      ])
      .execute();
    expect(sessions.length).toBeGreaterThan(100);
    // The demo shows both outcomes an operator meets: power cut by a charger, recorded and not sent.
    expect(outages.filter((o) => o.Result === POWER_OFF_RESULT.cut).length).toBeGreaterThan(0);
    expect(outages.filter((o) => o.Result === POWER_OFF_RESULT.notSent).length).toBeGreaterThan(0);

    const problems: string[] = [];
    /** Settled orders whose price has more than one line (the tariff dimensions at work). */
    let itemised = 0;
    const fail = (what: string) => problems.push(what);
    const orderOf = new Map(orders.map((o) => [o.ChargeRecordId, o]));
    const sessionOf = new Map(sessions.map((s) => [s.Id, s]));
    const ruleType = new Map(rules.map((r) => [r.Id, r.ChargeType]));
    const cutsOf = new Map<number, number>();
    for (const o of outages)
      if (o.Result === POWER_OFF_RESULT.cut && o.ChargeRecordId !== null)
        cutsOf.set(o.ChargeRecordId, (cutsOf.get(o.ChargeRecordId) ?? 0) + 1);

    for (const s of sessions) {
      const at = `session ${s.Id}`;
      const order = orderOf.get(s.Id);
      if (!order) {
        fail(`${at}: no order`);
        continue;
      }
      // A charger's start and stop are messages from it: a charging-API host was heard from after them (its
      // "last seen" is written at most every 30 s).
      if (s.ChargingSystemType === CHARGING_API && s.LastSeenAt !== null) {
        const latest = s.LastSeenAt + 30_000;
        if (s.StartAt > latest || (s.EndAt ?? 0) > latest)
          fail(`${at}: runs on a host not heard from since ${s.LastSeenAt}`);
      }
      // A session and its order: open together, ended together, the order priced by its copied terms.
      if ((s.EndAt === null) !== (s.StopReason === null)) fail(`${at}: end and stop reason disagree`);
      if (s.EndAt !== null && s.EndAt < s.StartAt) fail(`${at}: ends before it starts`);
      if (order.CreatedAt !== s.StartAt)
        fail(`${at}: order created ${order.CreatedAt}, session ${s.StartAt}`);
      if (order.ChargeEquipmentId !== s.ChargeEquipmentId) fail(`${at}: order names another socket`);
      if (s.EndAt === null) {
        if (order.AmountCents !== null || order.SettledAt !== null || order.PaymentState !== 0)
          fail(`${at}: running, its order is settled or paid`);
      } else {
        // Priced as settlement and the order list price it (common/pricing.ts): the terms the order copied,
        // dimensions included, on the session's energy or its device meter and since when the battery was full.
        const price = priceSession(tariffOf(order), usageOf(s, s.EndAt));
        if (order.AmountCents !== price.AmountCents)
          fail(`${at}: amount ${order.AmountCents}, its tariff says ${price.AmountCents}`);
        if (price.Lines.length > 1) itemised += 1;
        if (order.SettledAt !== s.EndAt) fail(`${at}: settled ${order.SettledAt}, ended ${s.EndAt}`);
        // ¥0 is closed by the system at settlement, with no operator reason.
        if (order.AmountCents === 0 && (order.PaymentState !== 1 || order.CloseReason !== null))
          fail(`${at}: a ¥0 order is ${order.PaymentState} (${order.CloseReason})`);
      }
      if (PAID.has(order.PaymentState) !== (order.PaidAt !== null))
        fail(`${at}: payment state ${order.PaymentState} with PaidAt ${order.PaidAt}`);
      if (order.PaidAt !== null && order.SettledAt !== null && order.PaidAt < order.SettledAt)
        fail(`${at}: paid before it was settled`);
      if (REFUND.has(order.PaymentState) && !order.RefundReason) fail(`${at}: a refund without a reason`);
      if (order.CloseReason !== null && order.PaymentState !== 1) fail(`${at}: a close reason, not closed`);
      // The rule: the card's monthly charging pass valid at the start, else the zone's temporary charging rule,
      // linked to the socket's zone.
      const type = order.ChargeRuleId === null ? undefined : ruleType.get(order.ChargeRuleId);
      if (order.ChargeType !== type) fail(`${at}: copied charge type ${order.ChargeType}, rule ${type}`);
      if (!links.some((l) => l.ParkAreaId === s.ParkAreaId && l.ChargeRuleId === order.ChargeRuleId))
        fail(`${at}: priced by a rule its zone does not use`);
      const covered = passes.some(
        (p) =>
          p.AreaId === s.AreaId &&
          p.CardNumber === s.CardNumber &&
          p.ChargeType === 2 &&
          p.StartAt <= s.StartAt &&
          s.StartAt < p.EndAt,
      );
      if ((order.ChargeType === 2) !== covered)
        fail(`${at}: charge type ${order.ChargeType}, a monthly charging pass ${covered ? '' : 'not '}valid`);
      // A device meter is a charger's: only a charging-API host reports one, from its register at the start,
      // inside the session, its energy the session's; the battery full inside the session too.
      if (s.MeterDigest !== null) {
        const digest = JSON.parse(s.MeterDigest) as MeterDigest;
        if (s.ChargingSystemType !== CHARGING_API)
          fail(`${at}: a meter on a host of type ${s.ChargingSystemType}`);
        if (s.MeterStartWh !== digest.First.EnergyWh)
          fail(`${at}: meter start ${s.MeterStartWh}, digest's first reading ${digest.First.EnergyWh}`);
        if (digestEnergyWh(digest) !== s.EnergyWh)
          fail(`${at}: energy ${s.EnergyWh}, its meter ${digestEnergyWh(digest)} Wh`);
        try {
          assertDigest(digest, s.StartAt, s.EndAt ?? h().clock.now(), tariffOf(order).TimeOfDay ?? null);
        } catch (error) {
          fail(`${at}: ${(error as Error).message}`);
        }
      } else if (s.MeterStartWh !== null || s.FullAt !== null)
        fail(`${at}: a meter start or FullAt without a meter`);
      if (s.FullAt !== null && (s.FullAt < s.StartAt || (s.EndAt !== null && s.FullAt > s.EndAt)))
        fail(`${at}: battery full at ${s.FullAt}, outside the session`);
      // Forced power-off ends a session only when the charger confirmed the cut: a "power cut" record names it.
      if (s.StopReason === STOP_REASON.forcedPowerOff && (cutsOf.get(s.Id) ?? 0) !== 1)
        fail(`${at}: ended by forced power-off with ${cutsOf.get(s.Id) ?? 0} "power cut" records`);
    }

    for (const o of outages) {
      const at = `power-off ${o.Id} (result ${o.Result}, ${o.ResultReason})`;
      const s = o.ChargeRecordId === null ? undefined : sessionOf.get(o.ChargeRecordId);
      if (o.ChargeRecordId !== null && !s) fail(`${at}: names no session`);
      if (s && o.ChargeOrderId !== orderOf.get(s.Id)?.Id)
        fail(`${at}: names another order than its session's`);
      if (s && s.ChargeEquipmentId !== o.ChargeEquipmentId) fail(`${at}: its session is on another socket`);
      // Asked while the session ran.
      if (s && (o.At < s.StartAt || (s.EndAt !== null && o.At > s.EndAt))) fail(`${at}: outside its session`);
      if (o.Result === POWER_OFF_RESULT.notSent) {
        if (!NOT_SENT_REASONS.includes(o.ResultReason ?? '')) fail(`${at}: not sent without a reason`);
        if ((o.ResultReason === 'noDeviceLink') !== (o.ChargingSystemType !== CHARGING_API))
          fail(`${at}: "no device link" on a host of type ${o.ChargingSystemType}`);
        // Not sent changes nothing: the session ran on and ended for another reason.
        if (s?.StopReason === STOP_REASON.forcedPowerOff)
          fail(`${at}: its session ended by forced power-off`);
      } else {
        if (o.ChargingSystemType !== CHARGING_API)
          fail(`${at}: a charger answered on a host of type ${o.ChargingSystemType}`);
        if (o.Result === POWER_OFF_RESULT.cut) {
          if (o.ResultReason !== null) fail(`${at}: power cut with a reason`);
          if (s && s.StopReason !== STOP_REASON.forcedPowerOff) fail(`${at}: its session ended otherwise`);
        }
        if (o.Result === POWER_OFF_RESULT.failed && !FAILED_REASONS.includes(o.ResultReason ?? ''))
          fail(`${at}: failed without the charger's reason`);
        if (o.Result === POWER_OFF_RESULT.sent && (o.ResultReason !== 'noConfirmation' || s?.EndAt !== null))
          fail(`${at}: sent, not confirmed, but its session ended`);
      }
    }

    // One socket charges one session at a time, and a card is on one socket at a time.
    const overlaps = (key: (s: (typeof sessions)[number]) => string | number | null, what: string) => {
      const by = new Map<string | number, typeof sessions>();
      for (const s of sessions) {
        const kx = key(s);
        if (kx !== null) by.set(kx, [...(by.get(kx) ?? []), s]);
      }
      for (const [kx, list] of by) {
        list.sort((a, b) => a.StartAt - b.StartAt);
        for (let i = 1; i < list.length; i++) {
          const before = list[i - 1]!;
          if (before.EndAt === null || before.EndAt > list[i]!.StartAt)
            fail(`${what} ${kx}: sessions ${before.Id} and ${list[i]!.Id} overlap`);
        }
      }
    };
    overlaps((s) => s.ChargeEquipmentId, 'socket');
    overlaps((s) => (s.CardNumber === null ? null : `${s.AreaId}:${s.CardNumber}`), 'card');

    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    // The demo shows itemised orders: its power-band rule's (band, service fee, idle fee, cap).
    expect(itemised).toBeGreaterThan(0);
  });
});
