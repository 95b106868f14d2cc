import {
  cardToDisplay,
  digestOf,
  localTime,
  passEnd,
  plate,
  pricePass,
  priceSession,
  type MeterSample,
  type Tariff,
  startOfLocalDay,
  type TimeUnitValue,
} from '@gatehouse/shared';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { DemoContext } from './context.ts';
import { prng, type Random } from './random.ts';
import { areaTimeZone } from '../platform/area-zone.ts';
import {
  dimensionColumns,
  usageOf,
  type ChargeOrderTable,
  type ChargeRecordTable,
  type ForcedOutageRecordTable,
  type ParkOrderTable,
} from '../modules/garage/index.ts';
import { inTransaction } from '../db/transaction.ts';
import { hashPassword } from '../platform/auth/passwords.ts';

/**
 * Garage demo: per area its zones (most with a power budget), rules of every type (one priced by power band
 * with a service fee and an idle fee), 20+ hosts of 10 sockets in varied states, vehicles with monthly passes,
 * and (at scale 1) 100,000 charging sessions with their orders and 20,000 parking orders over the last 90 days,
 * every price from the shared tariff engine. Fixed data (zones, hosts, sockets, rules, vehicles, running
 * sessions, vehicles inside) does not depend on the scale.
 */

const FULL_SESSIONS = 100_000;
const FULL_PARK_ORDERS = 20_000;
const DAYS = 90;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface ZoneSeed {
  name: string;
  short: string;
  capacity: number;
  location: string;
  hosts: number;
  /**
   * PowerBudgetW: what the zone's feeder may carry for charging. Three quarters of what its charging-API hosts'
   * sockets could draw at the demo chargers' 400 W (the only ones that report power): the simulated riders, a
   * third of the sockets at 100–400 W, stay under it, and one made to overdraw (the simulator's control API)
   * or an operator lowering it shows a zone at its budget. Null: a zone without one (南区 has no such host).
   */
  budgetW: number | null;
}

interface AreaSeed {
  province: string;
  letter: string;
  endpoint: string;
  zones: ZoneSeed[];
}

const AREAS: AreaSeed[] = [
  {
    province: '浙',
    letter: 'A',
    endpoint: 'hzbj-wuye.cn',
    zones: [
      {
        name: '1号车棚（东门）',
        short: '东门',
        capacity: 120,
        location: '东门岗亭北侧',
        hosts: 4,
        budgetW: 3000,
      },
      {
        name: '2号车棚（西门）',
        short: '西门',
        capacity: 90,
        location: '西门入口右侧',
        hosts: 3,
        budgetW: 6000,
      },
      {
        name: '地下非机动车库 B1',
        short: 'B1',
        capacity: 260,
        location: '5 幢地下一层',
        hosts: 5,
        budgetW: 6000,
      },
      {
        name: '3号车棚（南区）',
        short: '南区',
        capacity: 80,
        location: '南区 12 幢旁',
        hosts: 2,
        budgetW: null,
      },
    ],
  },
  {
    province: '粤',
    letter: 'B',
    endpoint: 'szkjy-park.cn',
    zones: [
      {
        name: 'A 栋车棚',
        short: 'A栋',
        capacity: 150,
        location: 'A 栋东侧架空层',
        hosts: 3,
        budgetW: 6000,
      },
      {
        name: 'B 栋地下车库',
        short: 'B栋',
        capacity: 300,
        location: 'B 栋地下一层',
        hosts: 3,
        budgetW: 3000,
      },
      {
        name: '北门车棚',
        short: '北门',
        capacity: 100,
        location: '园区北门保安亭旁',
        hosts: 2,
        budgetW: 3000,
      },
    ],
  },
];

type RuleKey =
  | 'parkHour'
  | 'parkUse'
  | 'month'
  | 'year'
  | 'monthCharge'
  | 'chargeHour'
  | 'chargeKwh'
  | 'chargeUse'
  | 'chargeBand'
  | 'night';

const RULES: { key: RuleKey; name: string; tariff: Tariff; disabled?: boolean; remark?: string }[] = [
  {
    key: 'parkHour',
    name: '临停按小时计费',
    tariff: t(0, 1, 100, null, 15, 1000),
    remark: '15 分钟内免费，每日封顶 10 元',
  },
  { key: 'parkUse', name: '临停按次收费', tariff: t(0, 3, 200, null, 30, null) },
  { key: 'month', name: '月租停车（月卡）', tariff: t(1, 0, 3000, 2, 0, null) },
  { key: 'year', name: '年租停车（年卡）', tariff: t(1, 0, 30000, 3, 0, null) },
  { key: 'monthCharge', name: '月租停车含充电', tariff: t(2, 0, 6000, 2, 0, null) },
  { key: 'chargeHour', name: '充电按小时计费', tariff: t(3, 1, 50, null, 5, 600) },
  { key: 'chargeKwh', name: '充电按电量计费', tariff: t(3, 2, 120, null, 5, 800) },
  { key: 'chargeUse', name: '充电按次收费', tariff: t(3, 3, 150, null, 5, null) },
  {
    // The tariff dimensions as e-bike garages price (docs/garage.md, "Tariff dimensions"): each started hour at
    // the price of the session's power band, a service fee per order, an idle fee once the battery is full and
    // the plug stays in past the grace, the whole capped. Its orders have several lines.
    key: 'chargeBand',
    name: '充电按功率分档计时',
    tariff: {
      ...t(3, 1, 60, null, 5, 600),
      PowerBands: [
        { UpToW: 200, PriceCents: 40 },
        { UpToW: 400, PriceCents: 60 },
        { UpToW: 800, PriceCents: 90 },
      ],
      ServiceFeeCents: 50,
      IdleFeeCentsPerHour: 100,
      IdleGraceMinutes: 30,
    },
    remark:
      '200 W 以下 0.4 元/小时，400 W 以下 0.6 元/小时，800 W 以下 0.9 元/小时；服务费 0.5 元；充满 30 分钟后占位费 1 元/小时；封顶 6 元',
  },
  {
    key: 'night',
    name: '夜间充电优惠',
    tariff: t(3, 1, 30, null, 0, 300),
    disabled: true,
    remark: '试行结束，已停用',
  },
];

function t(
  ChargeType: number,
  TemporaryChargeType: number,
  UnitPriceCents: number,
  TimeUnit: number | null,
  FreeMinutes: number,
  CapCents: number | null,
): Tariff {
  return { ChargeType, TemporaryChargeType, UnitPriceCents, TimeUnit, FreeMinutes, CapCents } as Tariff;
}

/** Socket states with their share: mostly idle or charging, some faults, a few disabled. */
const SOCKET_STATES: (readonly [number, number])[] = [
  [0, 42],
  [1, 26],
  [2, 5],
  [3, 6],
  [5, 3],
  [11, 2],
  [170, 2],
  [4, 3],
  [6, 1],
  [7, 1],
  [8, 1],
  [9, 1],
  [10, 1],
  [12, 4],
];
/** States with a session running (charging, full but still on, float charge). */
const RUNNING_STATES = new Set([1, 3, 5]);

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈';
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '磊',
  '洋',
  '艳',
  '勇',
  '军',
  '杰',
  '娟',
  '涛',
  '明',
  '超',
  '秀英',
  '丽',
  '强',
  '平',
  '刚',
  '桂英',
  '建华',
  '志强',
  '晓燕',
  '海峰',
  '思远',
  '雨欣',
  '子涵',
  '浩然',
  '一鸣',
];
const REFUND_REASONS = [
  '插座故障导致提前断电',
  '用户重复支付',
  '计费异常，用户投诉',
  '充电未开始即扣费',
  '物业协商退款',
];
const CLOSE_REASONS = ['设备故障，免收费用', '工作人员测试订单', '用户投诉已协商免单', '系统异常订单'];
const OUTAGE_REASONS = [
  '电池异常发热，紧急断电',
  '用户电话要求结束充电',
  '插座冒烟，安全断电',
  '巡检发现线缆破损',
  '超时占用插座，断电挪车',
];
const PLATE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

function personName(rng: Random): string {
  return rng.pick([...SURNAMES]) + rng.pick(GIVEN);
}

/** An ordinary plate of the area's city that passes the shared plate rule. */
function plateOf(rng: Random, area: AreaSeed): string {
  for (;;) {
    const tail = Array.from({ length: 5 }, (_, i) =>
      i < 2 && rng.next() < 0.5 ? rng.pick([...PLATE_CHARS.slice(0, 24)]) : String(rng.int(0, 9)),
    ).join('');
    const p = `${area.province}${area.letter}${tail}`;
    if (plate(p) === null) return p;
  }
}

const dateKeys = new Map<number, string>();

/** Local date text for order numbers, from a fixed offset (the demo zones keep one all year), memoised per day. */
function dateKey(ms: number, offset: number): string {
  const day = Math.floor((ms + offset) / DAY);
  let key = dateKeys.get(day);
  if (key === undefined) {
    key = new Date(day * DAY).toISOString().slice(0, 10).replaceAll('-', '');
    dateKeys.set(day, key);
  }
  return key;
}

// ---------------------------------------------------------------------------------------------------------
// Bulk rows, built in memory, then written by the SQLite or the portable writer.

// The device-link columns (migration 0008) keep their defaults in the demo. A session has a device meter
// (MeterStartWh, MeterDigest, FullAt) where its price reads one (chargerMeter); orders copy their rule's
// dimensions, and their lines are read from their terms and session (none stored, as before migration 0031).
type NewRecord = Omit<ChargeRecordTable, 'Id' | 'StopRequest' | 'StopRequestedAt' | 'EndProvisional'>;
type NewOrder = Omit<ChargeOrderTable, 'Id' | 'ChargeRecordId' | 'PriceLines'>;
type NewOutage = Omit<ForcedOutageRecordTable, 'Id' | 'ChargeRecordId' | 'ChargeOrderId'>;
type NewParkOrder = Omit<ParkOrderTable, 'Id'>;

interface Session {
  record: NewRecord;
  order: NewOrder;
  outage: NewOutage | null;
}

interface Bulk {
  sessions: Session[];
  parkOrders: NewParkOrder[];
}

interface Socket {
  id: number;
  state: number;
  /** Start of the session running now (states 1, 3, 5). */
  runningStart: number | null;
  ruleId: number;
  tariff: Tariff;
  /** Its host is driven by the charging API: only there does a charger answer a power-off. */
  live: boolean;
  /** The last time its host could have reported a start or a stop (a quiet host's last sign of life). */
  heardUntil: number;
  /** The area's time zone: a meter is folded against a rule's time-of-day periods there. */
  timeZone: string;
}

interface Operator {
  id: number;
  name: string;
}

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
const STOP_REASONS = [
  [1, 62],
  [2, 20],
  [3, 6],
  [4, 7],
  [5, 5],
] as const;
/** Without a device link no power-off reaches a charger, so none ends a session (docs/chargers.md). */
const STOP_REASONS_UNLINKED = STOP_REASONS.filter(([reason]) => reason !== 3);
const PAID_STATES = new Set([2, 3, 7, 8, 9, 10]);
const REFUND_STATES = new Set([3, 7, 8, 9, 10]);

/** After a session ends with money to collect: how it stands now, by how long ago it ended. */
function settledState(rng: Random, age: number): number {
  return rng.weighted(age < 30 * MINUTE ? RECENT_STATES : SETTLED_STATES);
}

function paymentColumns(rng: Random, state: number, endAt: number) {
  const PaidAt = PAID_STATES.has(state) ? endAt + rng.int(1, 30) * MINUTE : null;
  return {
    PaymentState: state,
    PaidAt,
    RefundReason: REFUND_STATES.has(state) ? rng.pick(REFUND_REASONS) : null,
    CloseReason: state === 1 ? rng.pick(CLOSE_REASONS) : null,
    UpdatedAt: PaidAt ?? endAt,
  };
}

/** Monthly passes with charging, per card: [start, end) intervals in which charging costs nothing. */
type PassWindows = Map<string, [number, number][]>;

function chargingSessions(
  rng: Random,
  areaId: number,
  sockets: Socket[],
  count: number,
  cards: string[],
  passWindows: PassWindows,
  monthCharge: { id: number; tariff: Tariff },
  operator: Operator,
  now: number,
): Session[] {
  // Time slots first, socket by socket; cards are dealt afterwards in time order (assignCards).
  const slots: { socket: Socket; startAt: number; endAt: number | null }[] = [];
  const from = now - DAYS * DAY;
  for (const [index, socket] of sockets.entries()) {
    const runningStart = socket.runningStart;
    const windowEnd = Math.min(
      runningStart !== null ? runningStart - rng.int(5, 90) * MINUTE : now - rng.int(1, 120) * MINUTE,
      // A host gone quiet reported no start or stop since.
      socket.heardUntil - MINUTE,
    );
    const k = Math.floor(count / sockets.length) + (index < count % sockets.length ? 1 : 0);
    // Durations first, then the idle time spread between them, so sessions at one socket never overlap.
    const durations = Array.from({ length: k }, () =>
      rng.next() < 0.08 ? rng.int(1, 9) : rng.int(30, 240) + rng.int(0, 360) * rng.next(),
    );
    const window = windowEnd - from;
    const busy = durations.reduce((s, d) => s + d * MINUTE, 0);
    const scale = busy > window * 0.85 ? (window * 0.85) / busy : 1;
    const gaps = Array.from({ length: k + 1 }, () => 0.2 + rng.next());
    const gapTotal = gaps.reduce((s, g) => s + g, 0);
    const idle = window - busy * scale;
    let at = from;
    for (let i = 0; i < k; i++) {
      at += Math.floor((gaps[i]! / gapTotal) * idle);
      const startAt = at;
      const endAt = startAt + Math.max(MINUTE / 2, Math.floor(durations[i]! * scale * MINUTE));
      at = endAt;
      slots.push({ socket, startAt, endAt });
    }
    if (runningStart !== null) slots.push({ socket, startAt: runningStart, endAt: null });
  }
  return assignCards(rng, slots, cards).map(({ socket, startAt, endAt, card }) =>
    session(rng, areaId, socket, startAt, endAt, card, passWindows, monthCharge, operator, now),
  );
}

/**
 * Deals a card to every charging slot so that no card charges on two sockets at once (a card is one
 * person's): slots in start order, each taking a random card that is free by then (a running session keeps
 * its card busy for good). A slot that finds no free card is left out rather than double-booked.
 */
export function assignCards<S extends { startAt: number; endAt: number | null }>(
  rng: Pick<Random, 'pick'>,
  slots: readonly S[],
  cards: readonly string[],
): (S & { card: string })[] {
  const busyUntil = new Map<string, number>();
  const free = (card: string, at: number) => (busyUntil.get(card) ?? -Infinity) <= at;
  const out: (S & { card: string })[] = [];
  for (const slot of [...slots].sort((a, b) => a.startAt - b.startAt)) {
    let card: string | undefined;
    for (let tries = 0; tries < 8 && card === undefined; tries++) {
      const candidate = rng.pick(cards);
      if (free(candidate, slot.startAt)) card = candidate;
    }
    card ??= cards.find((c) => free(c, slot.startAt));
    if (card === undefined) continue;
    busyUntil.set(card, slot.endAt ?? Infinity);
    out.push({ ...slot, card });
  }
  return out;
}

function session(
  rng: Random,
  areaId: number,
  socket: Socket,
  startAt: number,
  endAt: number | null,
  card: string,
  passWindows: PassWindows,
  monthCharge: { id: number; tariff: Tariff },
  operator: Operator,
  now: number,
): Session {
  const covered = (passWindows.get(card) ?? []).some(([s, e]) => startAt >= s && startAt < e);
  const { id: ruleId, tariff } = covered ? monthCharge : { id: socket.ruleId, tariff: socket.tariff };
  const { EnergyWh, stop, unsent, energyAt, battery } = sessionEnd(rng, socket, startAt, endAt, now);
  const meter =
    socket.live && readsMeter(tariff)
      ? chargerMeter(startAt, endAt ?? now, endAt !== null, energyAt, battery, tariff, socket.timeZone)
      : NO_METER;
  const { energyWh: metered, ...meterColumns } = meter;
  const record: NewRecord = {
    AreaId: areaId,
    ChargeEquipmentId: socket.id,
    CardNumber: card,
    StartAt: startAt,
    EndAt: endAt,
    // A metered session's energy is its register's at the last reading (a running one's, before now).
    EnergyWh: metered ?? EnergyWh,
    StopReason: stop,
    ...meterColumns,
  };
  const terms = { areaId, socket, ruleId, tariff, startAt };
  if (endAt === null) return { record, order: runningOrder(terms), outage: null };
  // The order's draws come before the power-off's: the demo's data depend on the order of the draws.
  const order = settledOrder(rng, terms, { ...record, EndAt: endAt }, now);
  const outage =
    stop === 3 || unsent ? forcedOutage(rng, areaId, socket, operator, startAt, endAt, unsent) : null;
  return { record, order, outage };
}

/**
 * How a session ends: the energy drawn (a bike's battery of 480–1440 Wh at 150–420 W, full or not) and, once
 * ended, why; `unsent` when an operator's power-off could not reach the charger.
 */
function sessionEnd(rng: Random, socket: Socket, startAt: number, endAt: number | null, now: number) {
  const battery = rng.int(480, 1440);
  const watts = rng.int(150, 420);
  const energyAt = (end: number) => Math.min(battery, Math.round((watts * (end - startAt)) / HOUR));
  const drawn = endAt === null ? null : energyAt(endAt) >= battery ? 0 : rng.weighted(STOP_REASONS);
  // An operator's power-off on a host without a device link is recorded, not sent: the session runs on and
  // ends for a reason of its own (docs/garage.md, "Demo data").
  const unsent = drawn === 3 && !socket.live;
  const stop = unsent ? rng.weighted(STOP_REASONS_UNLINKED) : drawn;
  return { EnergyWh: energyAt(endAt ?? now), stop, unsent, energyAt, battery };
}

/** A session with no device meter: seeded sessions have no charger register (migration 0006) unless metered. */
const NO_METER = { MeterStartWh: null, MeterDigest: null, FullAt: null, energyWh: null };

/** A tariff whose price depends on the meter's readings (power bands, time-of-day periods, the idle fee). */
function readsMeter(tariff: Tariff): boolean {
  return Boolean(tariff.PowerBands?.length || tariff.TimeOfDay?.length || tariff.IdleFeeCentsPerHour);
}

/** How often the demo's chargers send MeterValues (a charger that keeps its own interval). */
const READING_EVERY = 5 * MINUTE;

/**
 * The meter a charging-API charger reports for a session, as the product keeps it (charge-record/meter.ts): the
 * register from 0 at the start (OCPP meterStart), a MeterValues every READING_EVERY on the session's energy
 * curve (sessionEnd's), and for an ended session a last one with the stop's register at its end, folded into the
 * digest; the battery full (FullAt) from the first reading after it filled, the charger reporting no power from
 * then on. So the order's price from this digest is the one settlement and the order list compute.
 */
function chargerMeter(
  startAt: number,
  until: number,
  ended: boolean,
  energyAt: (at: number) => number,
  battery: number,
  tariff: Tariff,
  timeZone: string,
) {
  const samples: MeterSample[] = [{ At: startAt, EnergyWh: 0 }];
  for (let at = startAt + READING_EVERY; at < until; at += READING_EVERY)
    samples.push({ At: at, EnergyWh: energyAt(at) });
  if (ended && until > startAt) samples.push({ At: until, EnergyWh: energyAt(until) });
  const full = samples.find((r) => r.At > startAt && r.EnergyWh >= battery);
  const digest = digestOf(samples, { TimeOfDay: tariff.TimeOfDay ?? null, TimeZone: timeZone });
  return {
    MeterStartWh: 0,
    MeterDigest: JSON.stringify(digest),
    FullAt: full?.At ?? null,
    energyWh: samples[samples.length - 1]!.EnergyWh,
  };
}

/** What a session's order is priced by: the rule in force and its tariff, copied onto the order. */
interface OrderTerms {
  areaId: number;
  socket: Socket;
  ruleId: number;
  tariff: Tariff;
  startAt: number;
}

/** The order columns every charging order starts with; the order number is given once all are known. */
function orderHead({ areaId, socket, ruleId, tariff }: OrderTerms) {
  return {
    AreaId: areaId,
    ChargeEquipmentId: socket.id,
    // Numbered once all sessions are known, in time order (see numberOrders).
    OrderNo: '',
    ChargeRuleId: ruleId,
    ChargeType: tariff.ChargeType,
    TemporaryChargeType: tariff.TemporaryChargeType,
    UnitPriceCents: tariff.UnitPriceCents,
    TimeUnit: tariff.TimeUnit,
    FreeMinutes: tariff.FreeMinutes,
    CapCents: tariff.CapCents,
    ...dimensionColumns(tariff),
  };
}

/** The order of a session running now: not priced, not settled. */
function runningOrder(terms: OrderTerms): NewOrder {
  return {
    ...orderHead(terms),
    AmountCents: null,
    PaymentState: 0,
    PaidAt: null,
    RefundReason: null,
    CloseReason: null,
    UpdatedAt: terms.startAt,
    CreatedAt: terms.startAt,
    SettledAt: null,
  };
}

/**
 * The order of an ended session: priced by the shared tariff engine on the session as settlement reads it (its
 * energy, or its meter's digest and since when the battery was full: common/pricing.ts usageOf), settled at its
 * end, paid or not since.
 */
function settledOrder(
  rng: Random,
  terms: OrderTerms,
  session: NewRecord & { EndAt: number },
  now: number,
): NewOrder {
  const endAt = session.EndAt;
  const amount = priceSession(terms.tariff, usageOf(session, endAt)).AmountCents;
  const state = amount === 0 ? 1 : settledState(rng, now - endAt);
  const payment = paymentColumns(rng, state, endAt);
  return {
    ...orderHead(terms),
    AmountCents: amount,
    ...payment,
    // Closed because it cost nothing: no operator reason.
    CloseReason: amount === 0 ? null : payment.CloseReason,
    CreatedAt: terms.startAt,
    SettledAt: endAt,
  };
}

/**
 * An operator's power-off of a session, as the product records it (forced-outage-record/records.ts): on a
 * charging-API host the charger cut the power and its stop report, seconds after the request, ended the
 * session ("power cut"); on any other host the request was recorded, not sent, somewhere in the session.
 */
function forcedOutage(
  rng: Random,
  areaId: number,
  socket: Socket,
  operator: Operator,
  startAt: number,
  endAt: number,
  unsent: boolean,
): NewOutage {
  // The reason is drawn before the instant.
  const Reason = rng.pick(OUTAGE_REASONS);
  return {
    AreaId: areaId,
    ChargeEquipmentId: socket.id,
    Reason,
    UserId: operator.id,
    UserName: operator.name,
    ...(unsent
      ? {
          Result: 0,
          ResultReason: 'noDeviceLink',
          At: startAt + Math.floor(rng.next() * (endAt - startAt)),
        }
      : { Result: 1, ResultReason: null, At: Math.max(startAt, endAt - rng.int(2, 20) * 1000) }),
  };
}

/** Daytime arrivals, stays from a few minutes to a night. Drawn in the order parkOrders always drew them. */
function arrival(rng: Random, todayStart: number, now: number): { entryAt: number; minutes: number } {
  const day = rng.int(0, DAYS - 1);
  const hour = rng.weighted([
    [7, 3],
    [8, 6],
    [9, 5],
    [10, 3],
    [12, 3],
    [14, 3],
    [17, 5],
    [18, 6],
    [19, 4],
    [21, 2],
  ] as const);
  const minutes = rng.weighted([
    [rng.int(2, 30), 20],
    [rng.int(30, 300), 60],
    [rng.int(300, 900), 20],
  ] as const);
  let entryAt = todayStart - day * DAY + hour * HOUR + rng.int(0, 59) * MINUTE;
  if (entryAt + minutes * MINUTE > now) entryAt = now - minutes * MINUTE - rng.int(1, 600) * MINUTE;
  return { entryAt, minutes };
}

function parkOrders(
  rng: Random,
  areaId: number,
  zones: { id: number; ruleId: number; tariff: Tariff }[],
  count: number,
  plates: { plate: string; vehicleId: number | null }[],
  cards: string[],
  now: number,
  todayStart: number,
): NewParkOrder[] {
  const out: NewParkOrder[] = [];
  const add = (zone: (typeof zones)[number], entryAt: number, exitAt: number | null) => {
    const who =
      rng.next() < 0.15 ? { Plate: null, CardNumber: rng.pick(cards), VehicleId: null } : pickPlate();
    const base = {
      AreaId: areaId,
      OrderNo: '',
      ParkAreaId: zone.id,
      ...who,
      EntryAt: entryAt,
      ExitAt: exitAt,
      ChargeRuleId: zone.ruleId,
      ChargeType: zone.tariff.ChargeType,
      TemporaryChargeType: zone.tariff.TemporaryChargeType,
      UnitPriceCents: zone.tariff.UnitPriceCents,
      TimeUnit: zone.tariff.TimeUnit,
      FreeMinutes: zone.tariff.FreeMinutes,
      CapCents: zone.tariff.CapCents,
    };
    if (exitAt === null) {
      out.push({
        ...base,
        AmountCents: null,
        PaymentState: 0,
        PaidAt: null,
        RefundReason: null,
        CloseReason: null,
        UpdatedAt: entryAt,
      });
      return;
    }
    const amount = priceSession(zone.tariff, { StartAt: entryAt, EndAt: exitAt }).AmountCents;
    const payment = paymentColumns(rng, amount === 0 ? 1 : settledState(rng, now - exitAt), exitAt);
    out.push({
      ...base,
      AmountCents: amount,
      ...payment,
      CloseReason: amount === 0 ? null : payment.CloseReason,
    });
  };
  const pickPlate = () => {
    const p = rng.pick(plates);
    return { Plate: p.plate, CardNumber: null, VehicleId: p.vehicleId };
  };
  for (let i = 0; i < count; i++) {
    const zone = zones[i % zones.length]!;
    const { entryAt, minutes } = arrival(rng, todayStart, now);
    add(zone, entryAt, entryAt + minutes * MINUTE + rng.int(0, 59) * 1000);
  }
  // Vehicles inside now, whatever the scale.
  for (const zone of zones) for (let i = 0; i < 6; i++) add(zone, now - rng.int(5, 600) * MINUTE, null);
  return out;
}

/**
 * Order numbers grow with time, as a payment system hands them out: prefix, local date, sequence. Rows are
 * written in that order too, which keeps every time index append-only while seeding.
 */
function numberOrders(bulk: Bulk, offsets: Map<number, number>): void {
  bulk.sessions.sort((x, y) => x.record.StartAt - y.record.StartAt);
  bulk.sessions.forEach((s, i) => {
    s.order.OrderNo = `CD${dateKey(s.record.StartAt, offsets.get(s.record.AreaId)!)}${String(i + 1).padStart(7, '0')}`;
  });
  bulk.parkOrders.sort((x, y) => x.EntryAt - y.EntryAt);
  bulk.parkOrders.forEach((p, i) => {
    p.OrderNo = `PK${dateKey(p.EntryAt, offsets.get(p.AreaId)!)}${String(i + 1).padStart(7, '0')}`;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Writers.

/** Rows per INSERT statement: one statement per 100 rows costs far less than 100 statements. */
const SQLITE_ROWS_PER_INSERT = 100;

/**
 * One transaction of multi-row INSERTs with ids assigned here (records before the orders pointing at them),
 * and a larger page cache while it runs so the indexes are not spilled to the WAL half-built (measured in
 * bench/garage-volume.ts).
 */
function writeSqlite(sqlite: NonNullable<DemoContext['sqlite']>, bulk: Bulk): void {
  const nextId = (table: string) =>
    (sqlite.prepare(`select coalesce(max("Id"), 0) + 1 as n from "${table}"`).get() as { n: number }).n;
  let recordId = nextId('ChargeRecord');
  let orderId = nextId('ChargeOrder');
  // Ids go straight onto the generated rows: copying 200,000 objects costs more than the inserts' bookkeeping.
  const outages: object[] = [];
  for (const s of bulk.sessions) {
    const record = Object.assign(s.record, { Id: recordId++ });
    const order = Object.assign(s.order, { Id: orderId++, ChargeRecordId: record.Id });
    if (s.outage)
      outages.push(Object.assign(s.outage, { ChargeRecordId: record.Id, ChargeOrderId: order.Id }));
  }
  const insertAll = (table: string, rows: object[]) => {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const statement = (count: number) =>
      sqlite.prepare(
        `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array.from(
          { length: count },
          () => `(${columns.map(() => '?').join(', ')})`,
        ).join(', ')}`,
      );
    const full = statement(SQLITE_ROWS_PER_INSERT);
    for (let i = 0; i < rows.length; i += SQLITE_ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + SQLITE_ROWS_PER_INSERT);
      // Plain loops: flatMap over 200,000 rows cost more than the INSERTs themselves.
      const values: unknown[] = new Array(chunk.length * columns.length);
      let v = 0;
      for (const row of chunk as Record<string, unknown>[]) for (const c of columns) values[v++] = row[c];
      (chunk.length === SQLITE_ROWS_PER_INSERT ? full : statement(chunk.length)).run(...values);
    }
  };
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  sqlite.pragma('cache_size = -131072');
  try {
    sqlite.transaction(() => {
      insertAll(
        'ChargeRecord',
        bulk.sessions.map((s) => s.record),
      );
      insertAll(
        'ChargeOrder',
        bulk.sessions.map((s) => s.order),
      );
      insertAll('ForcedOutageRecord', outages);
      insertAll('ParkOrder', bulk.parkOrders);
    })();
  } finally {
    sqlite.pragma(`cache_size = ${cacheSize}`);
  }
}

/** Rows per Kysely insert on PostgreSQL (19 columns × 1000 stays far below its 65,535 parameters). */
const BATCH = 1000;

async function writePortable(k: Kysely<Database>, bulk: Bulk): Promise<void> {
  await inTransaction(k, async (trx) => {
    for (let i = 0; i < bulk.sessions.length; i += BATCH) {
      const batch = bulk.sessions.slice(i, i + BATCH);
      const records = await trx
        .insertInto('ChargeRecord')
        .values(batch.map((s) => s.record))
        .returning(['Id', 'ChargeEquipmentId', 'StartAt'])
        .execute();
      // Matched by socket and start (unique per socket), not by the order rows come back in.
      const recordIds = new Map(records.map((r) => [`${r.ChargeEquipmentId}:${r.StartAt}`, r.Id]));
      const recordOf = (s: Session) => recordIds.get(`${s.record.ChargeEquipmentId}:${s.record.StartAt}`)!;
      const orders = await trx
        .insertInto('ChargeOrder')
        .values(batch.map((s) => ({ ...s.order, ChargeRecordId: recordOf(s) })))
        .returning(['Id', 'ChargeRecordId'])
        .execute();
      const orderIds = new Map(orders.map((o) => [o.ChargeRecordId, o.Id]));
      const outages = batch
        .filter((s) => s.outage)
        .map((s) => ({
          ...s.outage!,
          ChargeRecordId: recordOf(s),
          ChargeOrderId: orderIds.get(recordOf(s))!,
        }));
      if (outages.length) await trx.insertInto('ForcedOutageRecord').values(outages).execute();
    }
    for (let i = 0; i < bulk.parkOrders.length; i += BATCH)
      await trx
        .insertInto('ParkOrder')
        .values(bulk.parkOrders.slice(i, i + BATCH))
        .execute();
  });
  // Fresh statistics, or the planner keeps judging 100,000-row tables by their empty state until autovacuum runs.
  for (const table of ['ChargeRecord', 'ChargeOrder', 'ParkOrder', 'ForcedOutageRecord'])
    await sql`analyze ${sql.table(table)}`.execute(k);
}

// ---------------------------------------------------------------------------------------------------------

/**
 * The OCPP password of every demo host of the charging-API type (40 hexadecimal digits, an AuthorizationKey
 * every charger takes; published like the demo accounts' password). `npm start` runs the charge-point
 * simulator for those hosts with it (demo/charge-points.ts).
 */
export const DEMO_OCPP_KEY = '67617465686f7573652d64656d6f2d6f63707021';

export async function seedGarageDemo(db: Db, ctx: DemoContext): Promise<void> {
  const k = db.kysely;
  // Hashed once: the same key for every demo charge point (hex text is stored as its lower-case self).
  const ocppKeyHash = await hashPassword(DEMO_OCPP_KEY);
  const now = ctx.now;
  const seed: GarageSeed = {
    ctx,
    now,
    rng: prng(20261122),
    stamps: { CreatedAt: now, UpdatedAt: now },
    withRunning: ctx.runningSessions ?? true,
    ocppKeyHash,
    operatorNamed: await demoOperators(k),
    socketTotal: AREAS.reduce((s, a) => s + a.zones.reduce((z, zone) => z + zone.hosts, 0), 0) * 10,
    hosts: { seq: 0 },
  };
  const bulk: Bulk = { sessions: [], parkOrders: [] };
  const offsets = new Map<number, number>();
  await inTransaction(k, async (trx) => {
    for (const [index, area] of AREAS.entries()) {
      const areaId = ctx.areaIds[index];
      if (areaId === undefined) continue;
      const timeZone = await areaTimeZone(trx, areaId);
      offsets.set(areaId, localOffset(now, timeZone));
      await seedArea({ ...seed, trx, index, area, areaId, timeZone }, bulk);
    }
  });

  numberOrders(bulk, offsets);
  if (ctx.sqlite) writeSqlite(ctx.sqlite, bulk);
  else await writePortable(k, bulk);
}

/** What the garage seed shares across its areas. */
interface GarageSeed {
  ctx: DemoContext;
  now: number;
  /** One generator for the whole seed: the data depend on the order of its draws, so every step keeps its order. */
  rng: Random;
  stamps: { CreatedAt: number; UpdatedAt: number };
  /** Seed charging sessions running now (DemoContext.runningSessions). */
  withRunning: boolean;
  /** DEMO_OCPP_KEY, hashed. */
  ocppKeyHash: string;
  /** The operator recorded on an area's power-offs. */
  operatorNamed(name: string): Operator;
  /** Sockets of every area: an area's share of the bulk sessions and parking orders goes by its sockets. */
  socketTotal: number;
  /** Hosts are numbered across the areas (their serial numbers, types and the two quiet ones go by it). */
  hosts: { seq: number };
}

/** One area being seeded, in the seed's transaction. */
interface AreaSeeding extends GarageSeed {
  trx: Kysely<Database>;
  /** The area's place in AREAS and in DemoContext.areaIds. */
  index: number;
  area: AreaSeed;
  areaId: number;
  timeZone: string;
}

type RuleOf = (key: RuleKey) => { id: number; tariff: Tariff };

interface Zone {
  id: number;
  seed: ZoneSeed;
  park: RuleKey;
  charge: RuleKey;
}

/** The demo operators by user name; admin stands in for one that is missing. */
async function demoOperators(k: Kysely<Database>): Promise<(name: string) => Operator> {
  const operators = await k
    .selectFrom('AppUser')
    .select(['Id', 'UserName'])
    .where('UserName', 'in', ['bikeuser', 'bikeadmin', 'admin'])
    .execute();
  return (name) => {
    const u = operators.find((o) => o.UserName === name) ?? operators.find((o) => o.UserName === 'admin')!;
    return { id: u.Id, name: u.UserName };
  };
}

/** The area's offset from UTC at `now` (whole seconds), for the local dates in order numbers (dateKey). */
function localOffset(now: number, timeZone: string): number {
  const local = localTime(now, timeZone);
  return (
    Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second) -
    (now - (now % 1000))
  );
}

/**
 * One area's garage: rules, zones, hosts and sockets, vehicles and passes written now; its charging sessions
 * and parking orders added to `bulk`, written once every area's are known.
 */
async function seedArea(s: AreaSeeding, bulk: Bulk): Promise<void> {
  const { rng, now } = s;
  const rule = await insertRules(s);
  const zones = await insertZones(s, rule);
  const sockets = await insertHosts(s, zones, rule);

  // Vehicles and passes: fixed size; passes from the monthly rules, some renewed, some expired.
  const cards = Array.from({ length: 360 }, () => cardToDisplay(rng.int(1, 0xffffffff)));
  const { plates, passWindows } = await insertVehicles(s, cards, rule);
  for (let v = 0; v < 120; v++) plates.push({ plate: plateOf(rng, s.area), vehicleId: null });

  const operator = s.operatorNamed(s.index === 0 ? 'bikeuser' : 'bikeadmin');
  // The area's share of the full volume, by its sockets, scaled.
  const share = (full: number) =>
    Math.max(1, Math.round(((full * sockets.length) / s.socketTotal) * s.ctx.scale));
  bulk.sessions.push(
    ...chargingSessions(
      rng,
      s.areaId,
      sockets,
      share(FULL_SESSIONS),
      cards,
      passWindows,
      rule('monthCharge'),
      operator,
      now,
    ),
  );
  bulk.parkOrders.push(
    ...parkOrders(
      rng,
      s.areaId,
      zones.map((z) => ({ id: z.id, ruleId: rule(z.park).id, tariff: rule(z.park).tariff })),
      share(FULL_PARK_ORDERS),
      plates,
      cards,
      now,
      startOfLocalDay(now, s.timeZone),
    ),
  );
}

/** Every rule of RULES in the area; returns them by key. */
async function insertRules(s: AreaSeeding): Promise<RuleOf> {
  const rules = new Map<RuleKey, { id: number; tariff: Tariff }>();
  for (const rule of RULES) {
    const { ChargeType, TemporaryChargeType, UnitPriceCents, TimeUnit, FreeMinutes, CapCents } = rule.tariff;
    const row = await s.trx
      .insertInto('ChargeRule')
      .values({
        AreaId: s.areaId,
        Name: rule.name,
        Remark: rule.remark ?? null,
        Disabled: rule.disabled ? 1 : 0,
        ...{ ChargeType, TemporaryChargeType, UnitPriceCents, TimeUnit, FreeMinutes, CapCents },
        // The dimensions as the rule screens store them (JSON lists, null when not used).
        ...dimensionColumns(rule.tariff),
        ...s.stamps,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    rules.set(rule.key, { id: row.Id, tariff: rule.tariff });
  }
  return (key) => rules.get(key)!;
}

/**
 * The demo zones' heat limit (°C): a charger or pack reading above it puts its host in heat alarm. The demo's
 * chargers read 25–35 °C while charging, so only one made to overheat (the simulator's control API,
 * `POST /points/:id/temperature`) trips it.
 */
export const DEMO_MAX_TEMPERATURE_C = 60;

/** The area's zones, each offering a parking rule, a charging rule and the pass rules (the first also 'night'). */
async function insertZones(s: AreaSeeding, rule: RuleOf): Promise<Zone[]> {
  const zones: Zone[] = [];
  for (const [z, seed] of s.area.zones.entries()) {
    const row = await s.trx
      .insertInto('ParkArea')
      .values({
        AreaId: s.areaId,
        Name: seed.name,
        Capacity: seed.capacity,
        Location: seed.location,
        Remark: null,
        MaxTemperatureC: DEMO_MAX_TEMPERATURE_C,
        PowerBudgetW: seed.budgetW,
        ...s.stamps,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    const park: RuleKey = z % 2 === 0 ? 'parkHour' : 'parkUse';
    // Each area's first zone charges by power band; the others by the hour, the kWh or the use.
    const charge: RuleKey =
      z === 0 ? 'chargeBand' : (['chargeHour', 'chargeKwh', 'chargeUse'] as const)[z % 3]!;
    const linked: RuleKey[] = [
      park,
      charge,
      'month',
      'year',
      'monthCharge',
      ...(z === 0 ? (['night'] as const) : []),
    ];
    await s.trx
      .insertInto('ParkAreaChargeRule')
      .values(linked.map((key) => ({ ParkAreaId: row.Id, ChargeRuleId: rule(key).id })))
      .execute();
    zones.push({ id: row.Id, seed, park, charge });
  }
  return zones;
}

/** Each zone's hosts of 10 sockets; returns the sockets, priced by their zone's charging rule. */
async function insertHosts(s: AreaSeeding, zones: Zone[], rule: RuleOf): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (const zone of zones) {
    for (let h = 1; h <= zone.seed.hosts; h++) {
      s.hosts.seq += 1;
      const host = await insertHost(s, zone, h, s.hosts.seq);
      sockets.push(...(await insertSockets(s, host, rule(zone.charge))));
    }
  }
  return sockets;
}

/** A host of a type that goes round by its number, with that type's connection. */
async function insertHost(s: AreaSeeding, zone: Zone, h: number, hostSeq: number) {
  const { now } = s;
  const serial = `ZX24${s.index + 1}${String(hostSeq).padStart(4, '0')}`;
  const type = [2, 2, 1, 0, 3][hostSeq % 5]!;
  const connection = hostConnection(s, type, serial, h, hostSeq);
  // Two hosts have gone quiet: one hours ago, one never reported.
  const lastSeen =
    hostSeq === 6 ? now - 3 * HOUR - 17 * MINUTE : hostSeq === 17 ? null : now - s.rng.int(5, 110) * 1000;
  const host = await s.trx
    .insertInto('ChargeHost')
    .values({
      AreaId: s.areaId,
      ParkAreaId: zone.id,
      SerialNumber: serial,
      Name: `${zone.seed.short} ${h} 号充电主机`,
      PortCount: 10,
      ChargingSystemType: type,
      ...connection,
      OcppPasswordHash: type === 2 ? s.ocppKeyHash : null,
      Remark: null,
      // Only the charging API reports: a host of another type has never been heard from.
      LastSeenAt: type === 2 ? lastSeen : null,
      ...s.stamps,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  // The last time this host could have reported: a quiet charging-API host nothing since its last sign of life.
  const heardUntil = type === 2 && lastSeen !== null ? lastSeen : now;
  return { id: host.Id, type, heardUntil };
}

/** Where and how the platform reaches a host of each type (none for type 0). */
function hostConnection(s: AreaSeeding, type: number, serial: string, h: number, hostSeq: number) {
  if (type === 1)
    return {
      Endpoint: `https://charge.${s.area.endpoint}/login`,
      Account: `op${String(hostSeq).padStart(3, '0')}`,
      Password: 'Demo#Login2026',
    };
  if (type === 2)
    return {
      Endpoint: 'https://api.ev-cloud.example.cn/v2/stations',
      Account: `app-${serial.toLowerCase()}`,
      Password: `sk-${serial.toLowerCase()}-demo`,
    };
  if (type === 3)
    return {
      Endpoint: `modbus-tcp://10.${20 + s.index}.${h}.${10 + hostSeq}:502`,
      Account: null,
      Password: null,
    };
  return { Endpoint: null, Account: null, Password: null };
}

/** A host's 10 sockets in states drawn by their share (SOCKET_STATES), a running one with its session's start. */
async function insertSockets(
  s: AreaSeeding,
  host: { id: number; type: number; heardUntil: number },
  charge: { id: number; tariff: Tariff },
): Promise<Socket[]> {
  const { rng, now } = s;
  const ports = Array.from({ length: 10 }, () => {
    const drawn = rng.weighted(SOCKET_STATES);
    const start = RUNNING_STATES.has(drawn)
      ? Math.min(now - rng.int(8, 330) * MINUTE, host.heardUntil - 8 * MINUTE)
      : null;
    // Without running sessions, a socket drawn as charging is idle (the same draws keep the rest).
    if (!s.withRunning && start !== null) return { State: 0, runningStart: null };
    return { State: drawn, runningStart: start };
  });
  const rows = await s.trx
    .insertInto('ChargeEquipment')
    .values(
      ports.map(({ State, runningStart }, i) => ({
        AreaId: s.areaId,
        ChargeHostId: host.id,
        PortNumber: i + 1,
        State,
        StateChangedAt: runningStart ?? now - rng.int(1, 2880) * MINUTE,
        Disabled: State === 12 ? 1 : 0,
        Remark: State === 12 ? '线路检修，暂停使用' : null,
        ...s.stamps,
      })),
    )
    .returning(['Id', 'State', 'PortNumber'])
    .execute();
  return rows.map((row) => ({
    id: row.Id,
    state: row.State,
    runningStart: ports[row.PortNumber - 1]!.runningStart,
    ruleId: charge.id,
    tariff: charge.tariff,
    live: host.type === 2,
    heardUntil: host.heardUntil,
    timeZone: s.timeZone,
  }));
}

/**
 * The area's vehicles, each with one of `cards`; three in five with passes. Returns the vehicles without a
 * pass (plates the parking orders use) and the charging passes' windows per card.
 */
async function insertVehicles(s: AreaSeeding, cards: string[], rule: RuleOf) {
  const passWindows: PassWindows = new Map();
  const plates: { plate: string; vehicleId: number | null }[] = [];
  const vehicleCount = s.index === 0 ? 80 : 50;
  const seen = new Set<string>();
  for (let v = 0; v < vehicleCount; v++) {
    let p = plateOf(s.rng, s.area);
    while (seen.has(p)) p = plateOf(s.rng, s.area);
    seen.add(p);
    const card = cards[v]!;
    const vehicleId = await insertVehicle(s, p, card);
    if (v % 5 >= 3) {
      plates.push({ plate: p, vehicleId });
      continue;
    }
    const key: RuleKey =
      v % 5 === 0 ? 'month' : v % 5 === 1 ? 'monthCharge' : v % 10 === 2 ? 'year' : 'month';
    await insertPasses(s, vehicleId, key, rule(key), card, passWindows);
  }
  return { plates, passWindows };
}

/** A vehicle with its owner (who holds `card`) and the owner's phone. */
async function insertVehicle(s: AreaSeeding, p: string, card: string): Promise<number> {
  const { rng } = s;
  const owner = personName(rng);
  const vehicle = await s.trx
    .insertInto('Vehicle')
    .values({
      AreaId: s.areaId,
      Plate: p,
      OwnerName: owner,
      Phone: `1${rng.pick(['38', '39', '58', '59', '86', '87', '88'])}${String(rng.int(0, 99_999_999)).padStart(8, '0')}`,
      CardHolderId: null,
      CardHolderName: owner,
      CardId: null,
      CardNumber: card,
      Remark: null,
      ...s.stamps,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  return vehicle.Id;
}

/**
 * A vehicle's passes of one rule, back to back from a start in the past until one reaches past now, each
 * renewing the one before; a pass with charging frees its card's charging while it runs (`passWindows`).
 */
async function insertPasses(
  s: AreaSeeding,
  vehicleId: number,
  key: RuleKey,
  { id: ruleId, tariff }: { id: number; tariff: Tariff },
  card: string,
  passWindows: PassWindows,
): Promise<void> {
  const { rng, now } = s;
  const periods = key === 'year' ? 1 : rng.int(1, 4);
  let start = key === 'year' ? now - rng.int(30, 300) * DAY : now - rng.int(20, 150) * DAY;
  let renewedFrom: number | null = null;
  for (let i = 0; i < periods; i++) {
    const units = key === 'year' ? 1 : rng.pick([1, 1, 3]);
    const end = passEnd(start, tariff.TimeUnit as TimeUnitValue, units, s.timeZone);
    const pass = await s.trx
      .insertInto('MonthlyPass')
      .values({
        AreaId: s.areaId,
        VehicleId: vehicleId,
        ChargeRuleId: ruleId,
        StartAt: start,
        EndAt: end,
        Units: units,
        AmountCents: pricePass(tariff, units),
        RenewedFromId: renewedFrom,
        Remark: null,
        UserName: s.index === 0 ? 'bikeuser' : 'bikeadmin',
        CreatedAt: Math.min(start, now),
        UpdatedAt: Math.min(start, now),
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    if (key === 'monthCharge') passWindows.set(card, [...(passWindows.get(card) ?? []), [start, end]]);
    renewedFrom = pass.Id;
    start = end;
    if (start > now) break;
  }
}
