/**
 * The areas of bench/volume.ts and what their records point at. 500 areas of very different sizes (Zipf: the
 * largest holds 1/H(500) ≈ 14.7 % of everything, the median one about 0.06 %), each with its own history of 90 days
 * to 2 years up to now, and in each what swipe records and charging sessions point at: controllers and their
 * channels (the busier the site, the more controllers; the first are gates everybody passes), holders with cards
 * and authorisations, charge rules, zones, hosts of 10 sockets, vehicles; shaped like the demo seeders'
 * (modules/access-control/demo.ts, modules/garage/demo.ts). Written through a Sink (bench/volume-sink.ts) with
 * explicit ids; deterministic (a fixed PRNG seed).
 */
import { defaultChannels, doorDirection, enumLabel, plate, translate, type Tariff } from '@gatehouse/shared';
import { prng } from '../packages/server/src/demo/random.ts';
import {
  REGIONS,
  chineseName,
  citizenIdFor,
  mobile,
} from '../packages/server/src/demo/access-control/fixtures.ts';
import { ISSUE } from '../packages/server/src/modules/access-control/index.ts';
import type { Sink, TableSink } from './volume-sink.ts';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Asia/Shanghai, without daylight saving: local day L starts at L × DAY − 8 h. */
const OFFSET = 8 * HOUR;

export const AREAS = 500;

export interface AreaSummary {
  id: number;
  name: string;
  swipes: number;
  sessions: number;
  parkOrders: number;
  days: number;
}

// ---------------------------------------------------------------------------------------------------------
// Plans of the dimension rows.

export interface Channel {
  id: number;
  deviceId: number;
  deviceName: string;
  name: string;
  door: number;
  direction: number;
}

export interface Holder {
  id: number;
  name: string;
  cards: string[];
  channels: Channel[];
  createdAt: number;
  validTo: number;
  disabledAt: number | null;
}

export interface Socket {
  id: number;
  busyUntil: number;
  open: boolean;
}

export interface Zone {
  id: number;
  sockets: Socket[];
  chargeRule: Rule;
  parkRule: Rule;
}

export interface Rule {
  id: number;
  tariff: Tariff;
}

export interface Area extends AreaSummary {
  firstDay: number;
  channels: Channel[];
  holders: Holder[];
  holderWeights: Float64Array;
  zones: Zone[];
  zoneWeights: Float64Array;
  monthCharge: Rule;
  plates: { plate: string; vehicleId: number | null }[];
  perDay: { swipes: Int32Array; sessions: Int32Array; parks: Int32Array };
}

const t = (
  ChargeType: number,
  TemporaryChargeType: number,
  UnitPriceCents: number,
  TimeUnit: number | null,
  FreeMinutes: number,
  CapCents: number | null,
) => ({ ChargeType, TemporaryChargeType, UnitPriceCents, TimeUnit, FreeMinutes, CapCents }) as Tariff;

const RULES = [
  { key: 'parkHour', name: '临停按小时计费', tariff: t(0, 1, 100, null, 15, 1000) },
  { key: 'parkUse', name: '临停按次收费', tariff: t(0, 3, 200, null, 30, null) },
  { key: 'monthCharge', name: '月租停车含充电', tariff: t(2, 0, 6000, 2, 0, null) },
  { key: 'chargeHour', name: '充电按小时计费', tariff: t(3, 1, 50, null, 5, 600) },
  { key: 'chargeKwh', name: '充电按电量计费', tariff: t(3, 2, 120, null, 5, 800) },
  { key: 'chargeUse', name: '充电按次收费', tariff: t(3, 3, 150, null, 5, null) },
] as const;

const CITIES = ['杭州', '深圳', '苏州', '成都', '南京', '宁波', '广州', '武汉'];
const KINDS = ['花园社区', '科技园', '产业园', '学院', '人才公寓', '医院', '商务中心'];
const GATES = ['东门主入口', '南门人行通道', '西门通道', '北门人行通道'];
const PROVINCES = '浙粤苏川京沪鄂湘';
function cumulate(weights: number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => (out[i] = sum += w));
  return out;
}

/** `total` spread over the days in proportion to their weights, exactly (cumulative rounding). */
function spread(total: number, weights: number[]): Int32Array {
  const sum = weights.reduce((s, w) => s + w, 0);
  const out = new Int32Array(weights.length);
  let cum = 0;
  let given = 0;
  weights.forEach((w, i) => {
    cum += w;
    const upTo = Math.round((total * cum) / sum);
    out[i] = upTo - given;
    given = upTo;
  });
  return out;
}

export const localDay = (ms: number) => Math.floor((ms + OFFSET) / DAY);
export const dayStart = (day: number) => day * DAY - OFFSET;

const COLUMNS = {
  AreaInfo: 'Id Name Custom Disabled CreatedAt UpdatedAt',
  AccessControlDevice:
    'Id AreaId SerialNumber Name Protocol Type Ip Port Location Disabled AssignedAt CreatedAt UpdatedAt',
  AccessControlChannel: 'Id AreaId DeviceId DoorNumber Name Direction ReaderType CreatedAt UpdatedAt',
  CardUser: 'Id AreaId Name Phone CitizenId Nation ValidFrom ValidTo Disabled CreatedAt UpdatedAt',
  Card: 'Id AreaId CardNumber CardType CardUserId CreatedAt UpdatedAt',
  CardUserLinkChannel:
    'Id AreaId CardUserId ChannelId DeviceId IssueStatus Revoked SentToDevice SyncedAt CreatedAt UpdatedAt',
  ChargeRule:
    'Id AreaId Name ChargeType TemporaryChargeType UnitPriceCents TimeUnit FreeMinutes CapCents CreatedAt UpdatedAt',
  ParkArea: 'Id AreaId Name Capacity Location CreatedAt UpdatedAt',
  ParkAreaChargeRule: 'ParkAreaId ChargeRuleId',
  ChargeHost:
    'Id AreaId ParkAreaId SerialNumber Name PortCount ChargingSystemType LastSeenAt CreatedAt UpdatedAt',
  ChargeEquipment: 'Id AreaId ChargeHostId PortNumber State StateChangedAt CreatedAt UpdatedAt',
  Vehicle: 'Id AreaId Plate OwnerName Phone CardHolderName CardNumber CreatedAt UpdatedAt',
  DoorOpeningRecord:
    'Id AreaId At CardNumber CardUserId HolderName DeviceId DeviceName ChannelId ChannelName DoorNumber Direction Result Reason',
  DoorOpeningRecordDay: 'AreaId Day DeviceId Result Count',
  ChargeRecord: 'Id AreaId ChargeEquipmentId CardNumber StartAt EndAt EnergyWh StopReason',
  ChargeOrder:
    'Id AreaId ChargeRecordId ChargeEquipmentId OrderNo ChargeRuleId ChargeType TemporaryChargeType UnitPriceCents TimeUnit FreeMinutes CapCents AmountCents PaymentState PaidAt RefundReason CloseReason UpdatedAt CreatedAt SettledAt',
  ForcedOutageRecord:
    'Id AreaId ChargeEquipmentId ChargeRecordId ChargeOrderId Reason Result UserId UserName At',
  ParkOrder:
    'Id AreaId ParkAreaId OrderNo Plate CardNumber VehicleId EntryAt ExitAt ChargeRuleId ChargeType TemporaryChargeType UnitPriceCents TimeUnit FreeMinutes CapCents AmountCents PaymentState PaidAt RefundReason CloseReason UpdatedAt',
} as const;

export type SeededTable = keyof typeof COLUMNS;

/** The tables the bulk rows go to (their secondary indexes are rebuilt after the load). */
export const BULK_TABLES: SeededTable[] = [
  'DoorOpeningRecord',
  'DoorOpeningRecordDay',
  'ChargeRecord',
  'ChargeOrder',
  'ForcedOutageRecord',
  'ParkOrder',
];

/** Tables given explicit ids (their sequences move past them afterwards). */
export const ID_TABLES = (Object.keys(COLUMNS) as SeededTable[]).filter((k) => COLUMNS[k].startsWith('Id '));

export function open(sink: Sink, table: SeededTable): TableSink {
  return sink.table(table, COLUMNS[table].split(' '));
}

/** Areas and everything the records point at; written through `sink`. */
export function planAreas(sink: Sink, rows: number, now: number): Area[] {
  const r = prng(20261126);
  const today = localDay(now);
  // Zipf weights by rank, given to the area ids in a shuffled order (the largest site is not area 1).
  const order = Array.from({ length: AREAS }, (_, i) => i + 1);
  for (let i = order.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const weights = order.map((_, rank) => 1 / (rank + 1));
  const share = (total: number) => spread(total, weights);
  const swipes = share(rows);
  const sessions = share(rows);
  const parks = share(Math.round(rows / 5));

  const w = {
    area: open(sink, 'AreaInfo'),
    device: open(sink, 'AccessControlDevice'),
    channel: open(sink, 'AccessControlChannel'),
    holder: open(sink, 'CardUser'),
    card: open(sink, 'Card'),
    link: open(sink, 'CardUserLinkChannel'),
    rule: open(sink, 'ChargeRule'),
    zone: open(sink, 'ParkArea'),
    zoneRule: open(sink, 'ParkAreaChargeRule'),
    host: open(sink, 'ChargeHost'),
    socket: open(sink, 'ChargeEquipment'),
    vehicle: open(sink, 'Vehicle'),
  };
  const seq = {
    device: 0,
    channel: 0,
    holder: 0,
    card: 0,
    link: 0,
    rule: 0,
    zone: 0,
    host: 0,
    socket: 0,
    vehicle: 0,
  };
  const areas: Area[] = [];

  for (let rank = 0; rank < AREAS; rank++) {
    const id = order[rank]!;
    const days = r.int(90, 730);
    const firstDay = today - days + 1;
    const start = dayStart(firstDay);
    const stamps = (at: number) => [at, at] as const;
    const name = `${CITIES[id % CITIES.length]}${KINDS[id % KINDS.length]} ${String(id).padStart(3, '0')}`;
    w.area.row([id, name, JSON.stringify({ timezone: 'Asia/Shanghai' }), 0, ...stamps(start - 30 * DAY)]);
    const nSwipes = swipes[rank]!;
    const nSessions = sessions[rank]!;

    // Controllers: more for busier sites; the first are gates every holder passes.
    const nDevices = Math.min(40, Math.max(2, Math.round(2 + Math.sqrt(nSwipes / 3000))));
    const nGates = nDevices > 15 ? 3 : nDevices > 6 ? 2 : 1;
    const gates: Channel[][] = [];
    const buildings: Channel[][] = [];
    for (let d = 0; d < nDevices; d++) {
      const deviceId = ++seq.device;
      const type = d < nGates ? 2 : r.pick([1, 2, 2, 3] as const);
      const deviceName =
        d < nGates
          ? GATES[d]!
          : type === 3
            ? `${d - nGates + 1}号地下车库电梯厅`
            : `${d - nGates + 1}号楼单元门`;
      const serial = `${type === 3 ? '4' : String(type)}${String(10_000_000 + deviceId).padStart(8, '0')}`;
      w.device.row([
        deviceId,
        id,
        serial,
        deviceName,
        0,
        type,
        `10.${id % 250}.${d}.${10 + (deviceId % 200)}`,
        60000,
        deviceName,
        0,
        start - 10 * DAY,
        ...stamps(start - 10 * DAY),
      ]);
      const channels = defaultChannels(type).map((c) => {
        const channel: Channel = {
          id: ++seq.channel,
          deviceId,
          deviceName,
          name: translate('zh', 'accessControl.channel.defaultName', {
            door: c.DoorNumber,
            direction: enumLabel('zh', doorDirection, c.Direction),
          }),
          door: c.DoorNumber,
          direction: c.Direction,
        };
        w.channel.row([
          channel.id,
          id,
          deviceId,
          c.DoorNumber,
          channel.name,
          c.Direction,
          3,
          ...stamps(start - 10 * DAY),
        ]);
        return channel;
      });
      (d < nGates ? gates : buildings).push(channels);
    }

    // Holders: about 2.5 swipes a day each; most there from the start, some arriving later.
    const nHolders = Math.min(50_000, Math.max(15, Math.round(nSwipes / days / 2.5)));
    const holders: Holder[] = [];
    const citizenIds = new Set<string>();
    for (let h = 0; h < nHolders; h++) {
      const holderId = ++seq.holder;
      const createdAt = r.chance(0.85) ? start - r.int(1, 300) * DAY : start + r.int(0, days - 1) * DAY;
      const expired = r.chance(0.04);
      const validTo = expired
        ? Math.max(createdAt + 30 * DAY, now - r.int(1, 60) * DAY)
        : Math.max(createdAt + 365 * DAY, now + r.int(20, 900) * DAY);
      const disabledAt = r.chance(0.03)
        ? Math.max(createdAt, start) + Math.floor(r.next() * (now - Math.max(createdAt, start)))
        : null;
      let citizenId: string;
      do {
        const birth = new Date(Date.UTC(r.int(1955, 2004), r.int(0, 11), r.int(1, 28)));
        citizenId = citizenIdFor(REGIONS[id % 2]!, birth, h);
      } while (citizenIds.has(citizenId));
      citizenIds.add(citizenId);
      const holder: Holder = {
        id: holderId,
        name: chineseName(r),
        cards: [],
        channels: [],
        createdAt,
        validTo,
        disabledAt,
      };
      w.holder.row([
        holderId,
        id,
        holder.name,
        mobile(r),
        citizenId,
        1,
        createdAt,
        validTo,
        disabledAt === null ? 0 : 1,
        createdAt,
        disabledAt ?? createdAt,
      ]);
      for (let c = r.chance(0.1) ? 2 : 1; c > 0; c--) {
        const cardId = ++seq.card;
        const number = String(1_000_000_000 + cardId * 7);
        holder.cards.push(number);
        w.card.row([cardId, id, number, r.chance(0.7) ? 3 : 1, holderId, createdAt - DAY, createdAt - DAY]);
      }
      const granted = [...gates, ...(buildings.length ? [buildings[h % buildings.length]!] : [])];
      const status = disabledAt === null ? ISSUE.issueSucceeded : ISSUE.deletionSucceeded;
      for (const device of granted)
        for (const channel of device) {
          w.link.row([
            ++seq.link,
            id,
            holderId,
            channel.id,
            channel.deviceId,
            status,
            0,
            disabledAt === null ? 1 : 0,
            createdAt,
            createdAt,
            disabledAt ?? createdAt,
          ]);
          holder.channels.push(channel);
        }
      holders.push(holder);
    }
    // A stock of cards nobody holds yet.
    for (let c = Math.max(5, Math.round(nHolders * 0.1)); c > 0; c--) {
      const cardId = ++seq.card;
      w.card.row([cardId, id, String(1_000_000_000 + cardId * 7), 1, null, now - 30 * DAY, now - 30 * DAY]);
    }

    // Garage: rules, zones of up to 6 hosts, 10 sockets a host, about 3 sessions a socket a day.
    const rules = new Map<string, Rule>();
    for (const rule of RULES) {
      const ruleId = ++seq.rule;
      const tf = rule.tariff;
      w.rule.row([
        ruleId,
        id,
        rule.name,
        tf.ChargeType,
        tf.TemporaryChargeType,
        tf.UnitPriceCents,
        tf.TimeUnit,
        tf.FreeMinutes,
        tf.CapCents,
        ...stamps(start - 10 * DAY),
      ]);
      rules.set(rule.key, { id: ruleId, tariff: tf });
    }
    const nHosts = Math.max(1, Math.ceil(nSessions / days / 3 / 10));
    const nZones = Math.max(1, Math.ceil(nHosts / 6));
    const zones: Zone[] = [];
    let hostInArea = 0;
    for (let z = 0; z < nZones; z++) {
      const zoneId = ++seq.zone;
      const hosts = Math.ceil(((z + 1) * nHosts) / nZones) - Math.ceil((z * nHosts) / nZones);
      w.zone.row([zoneId, id, `${z + 1}号车棚`, hosts * 30, `${z + 1}号楼旁`, ...stamps(start - 10 * DAY)]);
      const zone: Zone = {
        id: zoneId,
        sockets: [],
        chargeRule: rules.get(['chargeHour', 'chargeKwh', 'chargeUse'][z % 3]!)!,
        parkRule: rules.get(z % 2 ? 'parkUse' : 'parkHour')!,
      };
      for (const rule of [zone.parkRule, zone.chargeRule, rules.get('monthCharge')!])
        w.zoneRule.row([zoneId, rule.id]);
      for (let h = 1; h <= hosts; h++) {
        const hostId = ++seq.host;
        hostInArea++;
        w.host.row([
          hostId,
          id,
          zoneId,
          `ZX${String(hostId).padStart(7, '0')}`,
          `${z + 1}号棚 ${h} 号充电主机`,
          10,
          [0, 1, 3][hostInArea % 3]!,
          now - r.int(5, 110) * 1000,
          ...stamps(start - 10 * DAY),
        ]);
        for (let p = 1; p <= 10; p++) {
          const socketId = ++seq.socket;
          w.socket.row([socketId, id, hostId, p, 0, start - 10 * DAY, ...stamps(start - 10 * DAY)]);
          zone.sockets.push({ id: socketId, busyUntil: 0, open: false });
        }
      }
      zones.push(zone);
    }

    // Vehicles (a few per holder) and the plates seen at the gates.
    const plates: Area['plates'] = [];
    const seen = new Set<string>();
    const province = PROVINCES[id % PROVINCES.length]!;
    const letter = String.fromCharCode(65 + (id % 8));
    const nextPlate = () => {
      for (;;) {
        const p = `${province}${letter}${String(r.int(10_000, 99_999))}`;
        if (!seen.has(p) && plate(p) === null) {
          seen.add(p);
          return p;
        }
      }
    };
    const nVehicles = Math.min(3000, Math.max(5, Math.round(nHolders / 6)));
    for (let v = 0; v < nVehicles; v++) {
      const vehicleId = ++seq.vehicle;
      const owner = holders[v % holders.length]!;
      const p = nextPlate();
      w.vehicle.row([
        vehicleId,
        id,
        p,
        owner.name,
        mobile(r),
        owner.name,
        owner.cards[0] ?? null,
        ...stamps(start),
      ]);
      plates.push({ plate: p, vehicleId });
    }
    for (let v = 0; v < nVehicles * 2; v++) plates.push({ plate: nextPlate(), vehicleId: null });

    // Per-day volumes: weekends quieter (offices much quieter), the site growing, daily noise; today partial.
    const office = r.chance(0.4);
    const dayWeights = (weekend: number) =>
      Array.from({ length: days }, (_, k) => {
        const day = firstDay + k;
        const dow = (day + 4) % 7;
        const base =
          (dow === 0 || dow === 6 ? weekend : 1) * (0.75 + (0.25 * k) / days) * (0.85 + 0.3 * r.next());
        return day === today ? base * Math.max(0.01, (now - dayStart(day)) / DAY) : base;
      });
    const nParks = parks[rank]!;
    areas.push({
      id,
      name,
      swipes: nSwipes,
      sessions: nSessions,
      parkOrders: nParks,
      days,
      firstDay,
      channels: [...gates.flat(), ...buildings.flat()],
      holders,
      holderWeights: cumulate(holders.map(() => 0.25 + 2 * r.next() ** 2)),
      zones,
      zoneWeights: cumulate(zones.map((_, z) => 1 / Math.sqrt(z + 1))),
      monthCharge: rules.get('monthCharge')!,
      plates,
      perDay: {
        swipes: spread(nSwipes, dayWeights(office ? 0.4 : 0.85)),
        sessions: spread(nSessions, dayWeights(office ? 0.5 : 0.9)),
        parks: spread(nParks, dayWeights(office ? 0.5 : 0.9)),
      },
    });
  }
  return areas;
}
