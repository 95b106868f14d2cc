/**
 * The records of bench/volume.ts, day by day over all areas (so ids grow with time, as in a real database): `rows`
 * swipe records with their per-day counts, `rows` charging sessions with their orders (and a forced power-off
 * record for each session stopped that way), and one parking order for every five sessions. Deterministic (fixed
 * PRNG seeds): the same rows on SQLite and PostgreSQL for the same end of data (`now`).
 *
 * Shapes follow the demo seeders: rush hours in the site's time (Asia/Shanghai), a few failed swipes with their
 * reasons (unknown card, door not granted, holder disabled, validity over), sessions put on a free socket of a
 * (popular) zone and at most one still running per socket, prices from the shared tariff engine, payment states by
 * age. Swipe records carry exactly the columns recordSwipe writes (no ring index), and DoorOpeningRecordDay holds
 * what recordSwipe would have counted: swipes per area, UTC day (floor(At / 86,400,000)), device and result.
 */
import { priceSession } from '@gatehouse/shared';
import { prng, type Random } from '../packages/server/src/demo/random.ts';
import {
  DAY,
  HOUR,
  MINUTE,
  dayStart,
  localDay,
  open,
  type Area,
  type Holder,
  type Rule,
} from './volume-areas.ts';
import type { Sink, TableSink, Value } from './volume-sink.ts';

const OUTAGE_REASONS = [
  '电池异常发热，紧急断电',
  '用户电话要求结束充电',
  '插座冒烟，安全断电',
  '巡检发现线缆破损',
];
const REFUND_REASONS = ['插座故障导致提前断电', '用户重复支付', '计费异常，用户投诉', '物业协商退款'];
const CLOSE_REASONS = ['设备故障，免收费用', '工作人员测试订单', '用户投诉已协商免单'];
const STOP_REASONS = [
  [1, 62],
  [2, 20],
  [3, 6],
  [4, 7],
  [5, 5],
] as const;
const RECENT_STATES = [
  [0, 60],
  [5, 15],
  [2, 25],
] as const;
const SETTLED_STATES = [
  [2, 84],
  [0, 4],
  [4, 2],
  [1, 2],
  [6, 1],
  [3, 1.5],
  [9, 1],
  [7, 3],
  [8, 1],
  [10, 0.5],
] as const;
const PAID = new Set([2, 3, 7, 8, 9, 10]);
const REFUNDED = new Set([3, 7, 8, 9, 10]);

/** Index into cumulative weights (binary search). */
function pickWeighted(r: Random, cumulative: Float64Array): number {
  const x = r.next() * cumulative[cumulative.length - 1]!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const dateKeys = new Map<number, string>();
function dateKey(ms: number): string {
  const day = localDay(ms);
  let key = dateKeys.get(day);
  if (key === undefined) {
    key = new Date(day * DAY).toISOString().slice(0, 10).replaceAll('-', '');
    dateKeys.set(day, key);
  }
  return key;
}

/** Minutes into the local day: morning and evening rush for doors, evening for charging, daytime for parking. */
const swipeMinute = (r: Random) => {
  const u = r.next();
  if (u < 0.3) return r.int(7 * 60, 9 * 60 + 30);
  if (u < 0.6) return r.int(17 * 60, 20 * 60);
  if (u < 0.95) return r.int(6 * 60, 23 * 60);
  return r.int(0, 24 * 60 - 1);
};
const sessionMinute = (r: Random) => {
  const u = r.next();
  if (u < 0.4) return r.int(18 * 60, 23 * 60);
  if (u < 0.55) return r.int(7 * 60, 9 * 60);
  if (u < 0.9) return r.int(9 * 60, 18 * 60);
  return r.int(0, 24 * 60 - 1);
};
const parkMinute = (r: Random) => {
  const u = r.next();
  if (u < 0.35) return r.int(7 * 60, 10 * 60);
  if (u < 0.65) return r.int(17 * 60, 20 * 60);
  return r.int(6 * 60, 23 * 60);
};

/** Instants of one local day (not after `now`), sorted. */
function times(r: Random, day: number, count: number, minute: (r: Random) => number, now: number): number[] {
  const start = dayStart(day);
  const out: number[] = new Array(count);
  for (let i = 0; i < count; i++) {
    let at = start + minute(r) * MINUTE + r.int(0, 59_999);
    for (let k = 0; at > now && k < 4; k++) at = start + minute(r) * MINUTE + r.int(0, 59_999);
    if (at > now) at = start + Math.floor(r.next() * (now - start));
    out[i] = at;
  }
  return out.sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------------------
// The bulk rows, day by day over all areas.

interface Swipe {
  at: number;
  area: number;
  row: Value[];
}

interface SessionRow {
  at: number;
  area: Area;
  socket: number;
  card: string | null;
  endAt: number | null;
  energy: number;
  stop: number | null;
  rule: Rule;
}

export interface Progress {
  (done: { swipes: number; sessions: number; parkOrders: number; day: number; days: number }): void;
}

export async function seedBulk(
  sink: Sink,
  areas: Area[],
  now: number,
  admin: { id: number; name: string },
  progress: Progress,
): Promise<Record<string, number>> {
  const r = prng(7_2026_11);
  const w = {
    swipe: open(sink, 'DoorOpeningRecord'),
    day: open(sink, 'DoorOpeningRecordDay'),
    record: open(sink, 'ChargeRecord'),
    order: open(sink, 'ChargeOrder'),
    outage: open(sink, 'ForcedOutageRecord'),
    park: open(sink, 'ParkOrder'),
  };
  const ids = { swipe: 0, day: 0, session: 0, outage: 0, park: 0 };
  // Per-day counts by UTC day; a UTC day is complete once the local day after it has been generated.
  const dayCounts = new Map<number, Map<string, number>>();
  const flushDays = (before: number) => {
    for (const [day, counts] of [...dayCounts].sort((a, b) => a[0] - b[0])) {
      if (day >= before) break;
      for (const [key, count] of counts) {
        const [area, device, result] = key.split(':').map(Number) as [number, number, number];
        w.day.row([area, day, device, result, count]);
        ids.day++;
      }
      dayCounts.delete(day);
    }
  };

  const today = localDay(now);
  const firstDay = Math.min(...areas.map((a) => a.firstDay));
  for (let day = firstDay; day <= today; day++) {
    const swipes: Swipe[] = [];
    const sessions: SessionRow[] = [];
    const parks: { at: number; row: Value[] }[] = [];
    for (const area of areas) {
      const k = day - area.firstDay;
      if (k < 0) continue;
      for (const at of times(r, day, area.perDay.swipes[k]!, swipeMinute, now))
        swipes.push(swipe(r, area, at));
      for (const at of times(r, day, area.perDay.sessions[k]!, sessionMinute, now))
        sessions.push(session(r, area, at, now));
      for (const at of times(r, day, area.perDay.parks[k]!, parkMinute, now))
        parks.push({ at, row: parkOrder(r, area, at, now) });
    }

    swipes.sort((a, b) => a.at - b.at);
    for (const s of swipes) {
      s.row[0] = ++ids.swipe;
      w.swipe.row(s.row);
      const utcDay = Math.floor(s.at / DAY);
      let counts = dayCounts.get(utcDay);
      if (!counts) dayCounts.set(utcDay, (counts = new Map()));
      const key = `${s.area}:${s.row[6] as number}:${s.row[12] as number}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    flushDays(Math.floor(dayStart(day + 1) / DAY));

    sessions.sort((a, b) => a.at - b.at);
    for (const s of sessions) writeSession(r, w, s, ++ids.session, () => ++ids.outage, admin, now);

    parks.sort((a, b) => a.at - b.at);
    for (const p of parks) {
      const id = ++ids.park;
      p.row[0] = id;
      p.row[3] = `PK${dateKey(p.at)}${String(id).padStart(8, '0')}`;
      w.park.row(p.row);
    }
    progress({
      swipes: ids.swipe,
      sessions: ids.session,
      parkOrders: ids.park,
      day: day - firstDay + 1,
      days: today - firstDay + 1,
    });
    await sink.pause();
  }
  flushDays(Infinity);
  return {
    DoorOpeningRecord: ids.swipe,
    DoorOpeningRecordDay: ids.day,
    ChargeRecord: ids.session,
    ChargeOrder: ids.session,
    ForcedOutageRecord: ids.outage,
    ParkOrder: ids.park,
  };
}

/** A swipe as recordSwipe would store it: holder and names copied, channel by door and direction. */
function swipe(r: Random, area: Area, at: number): Swipe {
  const u = r.next();
  let holder: Holder | undefined;
  for (let k = 0; k < 5 && u >= 0.02; k++) {
    const h = area.holders[pickWeighted(r, area.holderWeights)]!;
    if (h.createdAt <= at) {
      holder = h;
      break;
    }
  }
  if (!holder) {
    // A card nobody registered here.
    const c = r.pick(area.channels);
    const card = String(r.int(90_000_000, 99_999_999)).padStart(10, '0');
    return {
      at,
      area: area.id,
      row: [
        0,
        area.id,
        at,
        card,
        null,
        null,
        c.deviceId,
        c.deviceName,
        c.id,
        c.name,
        c.door,
        c.direction,
        0,
        2,
      ],
    };
  }
  const stray = u < 0.035;
  const c = stray ? r.pick(area.channels) : r.pick(holder.channels);
  let reason = stray && !holder.channels.includes(c) ? 4 : 1;
  if (reason === 1 && holder.disabledAt !== null && at >= holder.disabledAt) reason = 6;
  else if (reason === 1 && at > holder.validTo) reason = 5;
  const card = holder.cards.length > 1 ? r.pick(holder.cards) : holder.cards[0]!;
  return {
    at,
    area: area.id,
    row: [
      0,
      area.id,
      at,
      card,
      holder.id,
      holder.name,
      c.deviceId,
      c.deviceName,
      c.id,
      c.name,
      c.door,
      c.direction,
      reason === 1 ? 1 : 0,
      reason,
    ],
  };
}

/** A charging session on a free socket of a (popular) zone; at most one runs on a socket now. */
function session(r: Random, area: Area, at: number, now: number): SessionRow {
  const zone = area.zones[pickWeighted(r, area.zoneWeights)]!;
  let socket = r.pick(zone.sockets);
  for (let k = 0; k < 12 && socket.busyUntil > at; k++) {
    const other = r.pick(zone.sockets);
    if (other.busyUntil < socket.busyUntil) socket = other;
  }
  const minutes = r.next() < 0.08 ? r.int(1, 9) : r.int(30, 240) + Math.floor(r.int(0, 360) * r.next());
  let endAt: number | null = at + minutes * MINUTE + r.int(0, 59_999);
  if (endAt > now) {
    if (!socket.open) {
      socket.open = true;
      endAt = null;
    } else endAt = Math.max(at, now - r.int(1, 30) * MINUTE);
  }
  socket.busyUntil = endAt === null ? Infinity : Math.max(socket.busyUntil, endAt);
  const battery = r.int(480, 1440);
  const watts = r.int(150, 420);
  const energy = Math.min(battery, Math.round((watts * ((endAt ?? now) - at)) / HOUR));
  const stop = endAt === null ? null : energy >= battery ? 0 : r.weighted(STOP_REASONS);
  const holder = area.holders[pickWeighted(r, area.holderWeights)]!;
  return {
    at,
    area,
    socket: socket.id,
    card: r.chance(0.92) ? holder.cards[0]! : null,
    endAt,
    energy,
    stop,
    rule: r.chance(0.05) ? area.monthCharge : zone.chargeRule,
  };
}

function payment(r: Random, amount: number, endAt: number, now: number) {
  const state = amount === 0 ? 1 : r.weighted(now - endAt < 30 * MINUTE ? RECENT_STATES : SETTLED_STATES);
  const paidAt = PAID.has(state) ? endAt + r.int(1, 30) * MINUTE : null;
  return {
    state,
    paidAt,
    refund: REFUNDED.has(state) ? r.pick(REFUND_REASONS) : null,
    close: state === 1 && amount !== 0 ? r.pick(CLOSE_REASONS) : null,
    updatedAt: paidAt ?? endAt,
  };
}

function writeSession(
  r: Random,
  w: Record<'record' | 'order' | 'outage', TableSink>,
  s: SessionRow,
  id: number,
  outageId: () => number,
  admin: { id: number; name: string },
  now: number,
): void {
  const tf = s.rule.tariff;
  w.record.row([id, s.area.id, s.socket, s.card, s.at, s.endAt, s.energy, s.stop]);
  const orderNo = `CD${dateKey(s.at)}${String(id).padStart(8, '0')}`;
  const terms = [
    tf.ChargeType,
    tf.TemporaryChargeType,
    tf.UnitPriceCents,
    tf.TimeUnit,
    tf.FreeMinutes,
    tf.CapCents,
  ];
  if (s.endAt === null) {
    w.order.row([
      id,
      s.area.id,
      id,
      s.socket,
      orderNo,
      s.rule.id,
      ...terms,
      null,
      0,
      null,
      null,
      null,
      s.at,
      s.at,
      null,
    ]);
    return;
  }
  const amount = priceSession(tf, { StartAt: s.at, EndAt: s.endAt, EnergyWh: s.energy }).AmountCents;
  const p = payment(r, amount, s.endAt, now);
  w.order.row([
    id,
    s.area.id,
    id,
    s.socket,
    orderNo,
    s.rule.id,
    ...terms,
    amount,
    p.state,
    p.paidAt,
    p.refund,
    p.close,
    p.updatedAt,
    s.at,
    s.endAt,
  ]);
  if (s.stop === 3)
    w.outage.row([
      outageId(),
      s.area.id,
      s.socket,
      id,
      id,
      r.pick(OUTAGE_REASONS),
      1,
      admin.id,
      admin.name,
      s.endAt,
    ]);
}

/** A parking stay (id and order number given when written, in time order). */
function parkOrder(r: Random, area: Area, at: number, now: number): Value[] {
  const zone = r.pick(area.zones);
  const who = r.chance(0.15) ? { plate: null, vehicleId: null } : r.pick(area.plates);
  const card = who.plate === null ? (r.pick(area.holders).cards[0] ?? null) : null;
  const minutes = r.weighted([
    [r.int(2, 30), 20],
    [r.int(30, 300), 60],
    [r.int(300, 900), 20],
  ] as const);
  const exitAt = at + minutes * MINUTE + r.int(0, 59) * 1000;
  const tf = zone.parkRule.tariff;
  const terms = [
    tf.ChargeType,
    tf.TemporaryChargeType,
    tf.UnitPriceCents,
    tf.TimeUnit,
    tf.FreeMinutes,
    tf.CapCents,
  ];
  const head = [0, area.id, zone.id, '', who.plate, card, who.vehicleId, at];
  if (exitAt > now) return [...head, null, zone.parkRule.id, ...terms, null, 0, null, null, null, at];
  const amount = priceSession(tf, { StartAt: at, EndAt: exitAt }).AmountCents;
  const p = payment(r, amount, exitAt, now);
  return [
    ...head,
    exitAt,
    zone.parkRule.id,
    ...terms,
    amount,
    p.state,
    p.paidAt,
    p.refund,
    p.close,
    p.updatedAt,
  ];
}
