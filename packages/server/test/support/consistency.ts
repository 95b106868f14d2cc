// What the operator's overview screens show, recomputed from the record lists as the API returns them, figure by
// figure (issue 27, "a consistency check that cannot be fooled by one screen"). Each disagreement is one message
// that names the screen, the figure, what the screen shows and what the lists give.
import type { FastifyInstance } from 'fastify';
import {
  AccessControlDashboardApi,
  CardUserLinkChannelApi,
  ChargeEquipmentApi,
  ChargeHostApi,
  ChargeOrderApi,
  ChargeRecordApi,
  COLLECTED_STATES,
  DoorAlarmApi,
  DoorMonitorApi,
  DoorOpeningRecordApi,
  ForcedOutageRecordApi,
  GarageDashboardApi,
  ParkAreaApi,
  ParkOrderApi,
  AccessControlDeviceApi,
  PAGE_SIZE_MAX,
  addLocalDays,
  portStateGroup,
  startOfLocalDay,
  type AccessControlDeviceItem,
  type AccessControlSummary,
  type CardUserLinkChannelItem,
  type ChargeEquipmentGrid,
  type ChargeEquipmentItem,
  type ChargeHostItem,
  type ChargeOrderItem,
  type ChargeRecordItem,
  type DeviceStatusCount,
  type DoorAlarmItem,
  type DoorMonitorReply,
  type DoorOpeningRecordItem,
  type ForcedOutageRecordItem,
  type GarageSummary,
  type ParkAreaItem,
  type ParkOrderItem,
} from '@gatehouse/shared';
import { call } from './client.ts';

/** An operator's read access to the API of one area (fastify.inject, bearer token). */
export class OperatorApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly token: string,
    private readonly area: number,
  ) {}

  async get<T>(path: string, query: Record<string, string | number | boolean> = {}): Promise<T> {
    const reply = await call<T>(this.app, 'GET', path, {
      token: this.token,
      area: this.area,
      lang: 'en',
      query,
    });
    if (reply.status !== 200)
      throw new Error(`GET ${path} ${JSON.stringify(query)}: ${reply.status} ${reply.msg}`);
    return reply.data;
  }

  async post<T>(path: string, body: unknown): Promise<{ status: number; msg: string; data: T }> {
    return call<T>(this.app, 'POST', path, { token: this.token, area: this.area, lang: 'en', body });
  }

  /** Every item of a list, page by page (newest first where the list orders so). */
  async all<T>(path: string, query: Record<string, string | number | boolean> = {}): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const data = await this.get<{ Items: T[]; Total: number; TotalCapped?: boolean }>(path, {
        ...query,
        PageIndex: page,
        PageSize: PAGE_SIZE_MAX,
      });
      items.push(...data.Items);
      if (data.Items.length < PAGE_SIZE_MAX) return items;
      if (page > 500) throw new Error(`GET ${path}: more than 50,000 items`);
    }
  }
}

/** The screens as one read shows them. */
export interface Screens {
  access: AccessControlSummary;
  garage: GarageSummary;
  monitor: DoorMonitorReply;
  grids: ChargeEquipmentGrid[];
}

/** The record lists (and the device lists they refer to) as one read returns them. */
export interface Lists {
  now: number;
  zone: string;
  devices: AccessControlDeviceItem[];
  pending: CardUserLinkChannelItem[];
  deviceCounts: DeviceStatusCount[];
  /** Door-opening records of the last week (newest first): the feed's window and the alarm window within it. */
  swipes: DoorOpeningRecordItem[];
  alarms: DoorAlarmItem[];
  sockets: ChargeEquipmentItem[];
  hosts: ChargeHostItem[];
  zones: ParkAreaItem[];
  inside: ParkOrderItem[];
  openSessions: ChargeRecordItem[];
  /** Every session of the hosts whose grids are compared. */
  hostSessions: ChargeRecordItem[];
  hostOrders: ChargeOrderItem[];
  hostPowerOffs: ForcedOutageRecordItem[];
  todaySessions: ChargeRecordItem[];
  todayOrders: ChargeOrderItem[];
  todayParkOrders: ParkOrderItem[];
}

const DAY_MS = 86_400_000;
/** What the dashboard calls doors in alarm: alarms of the last day (docs/access-control.md, "Dashboard"). */
const ALARM_WINDOW_MS = DAY_MS;
/** Record types and door reasons (docs/devices.md, "Record"). */
const RECORD = { swipe: 1, door: 2, alarm: 3 } as const;
const DOOR_REASON = { opened: 23, closed: 24, heldOpen: 37, forced: 38 } as const;
/** doorLiveState */
const DOOR_STATE = {
  unknown: 0,
  closed: 1,
  open: 2,
  unlocked: 3,
  heldOpen: 4,
  forced: 5,
  offline: 6,
} as const;
const PENDING_SYNC = [1, 2, -1];
/** The dashboard lists this many doors in alarm and alarms to acknowledge; the monitor this many events and alarms. */
const DASHBOARD_LISTED = 5;
const MONITOR_EVENTS = 30;
const MONITOR_ALARMS = 50;

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (text: string) => Date.parse(text);

export async function readScreens(api: OperatorApi, hostIds: number[]): Promise<Screens> {
  return {
    access: await api.get<AccessControlSummary>(AccessControlDashboardApi.summary.path),
    garage: await api.get<GarageSummary>(GarageDashboardApi.summary.path),
    monitor: await api.get<DoorMonitorReply>(DoorMonitorApi.state.path),
    grids: await Promise.all(
      hostIds.map((id) => api.get<ChargeEquipmentGrid>(ChargeEquipmentApi.grid.path, { ChargeHostId: id })),
    ),
  };
}

export async function readLists(
  api: OperatorApi,
  now: number,
  zone: string,
  hostIds: number[],
): Promise<Lists> {
  const today = startOfLocalDay(now, zone);
  const tomorrow = addLocalDays(today, 1, zone);
  const day = { StartTime: iso(today), EndTime: iso(tomorrow) };
  const pending: CardUserLinkChannelItem[] = [];
  // Pending deletion (-1) cannot be asked of the list: its filter takes digits only (400 for "-1"), so that
  // status is counted from DeviceStatusCounts instead (checkAccessSummary).
  for (const status of PENDING_SYNC.filter((s) => s > 0))
    pending.push(
      ...(await api.all<CardUserLinkChannelItem>(CardUserLinkChannelApi.list.path, { IssueStatus: status })),
    );
  const hostSessions: ChargeRecordItem[] = [];
  const hostOrders: ChargeOrderItem[] = [];
  const hostPowerOffs: ForcedOutageRecordItem[] = [];
  for (const id of hostIds) {
    hostSessions.push(...(await api.all<ChargeRecordItem>(ChargeRecordApi.list.path, { ChargeHostId: id })));
    hostOrders.push(...(await api.all<ChargeOrderItem>(ChargeOrderApi.list.path, { ChargeHostId: id })));
    hostPowerOffs.push(
      ...(await api.all<ForcedOutageRecordItem>(ForcedOutageRecordApi.list.path, { ChargeHostId: id })),
    );
  }
  return {
    now,
    zone,
    devices: await api.all<AccessControlDeviceItem>(AccessControlDeviceApi.list.path),
    pending,
    deviceCounts: await api.get<DeviceStatusCount[]>(CardUserLinkChannelApi.deviceStatusCounts.path),
    swipes: await api.all<DoorOpeningRecordItem>(DoorOpeningRecordApi.list.path, {
      StartTime: iso(now - 7 * DAY_MS),
    }),
    alarms: await api.all<DoorAlarmItem>(DoorAlarmApi.list.path, {
      SortField: 'RaisedAt',
      SortOrder: 'desc',
    }),
    sockets: await api.all<ChargeEquipmentItem>(ChargeEquipmentApi.list.path),
    hosts: await api.all<ChargeHostItem>(ChargeHostApi.list.path),
    zones: await api.all<ParkAreaItem>(ParkAreaApi.list.path),
    inside: await api.all<ParkOrderItem>(ParkOrderApi.list.path, { Inside: true }),
    openSessions: await api.all<ChargeRecordItem>(ChargeRecordApi.list.path, { Open: true }),
    hostSessions,
    hostOrders,
    hostPowerOffs,
    todaySessions: await api.all<ChargeRecordItem>(ChargeRecordApi.list.path, day),
    todayOrders: await api.all<ChargeOrderItem>(ChargeOrderApi.list.path, day),
    todayParkOrders: await api.all<ParkOrderItem>(ParkOrderApi.list.path, day),
  };
}

/** Collects "screen › figure: shows X, the lists give Y" messages. */
class Findings {
  readonly messages: string[] = [];
  constructor(private readonly where: string) {}

  same(figure: string, shown: unknown, fromLists: unknown, rule: string): void {
    const a = canonical(shown);
    const b = canonical(fromLists);
    if (a !== b)
      this.messages.push(`[${this.where}] ${figure}: the screen shows ${a}, the lists give ${b} (${rule})`);
  }

  fail(figure: string, text: string): void {
    this.messages.push(`[${this.where}] ${figure}: ${text}`);
  }
}

/** JSON with object keys in order: the same figures read the same whatever order their fields came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

const doorKey = (deviceId: number, door: number) => `${deviceId}:${door}`;

/** Records in the order the doors lived them: by time, then by id (the order they were stored). */
const chronological = (a: DoorOpeningRecordItem, b: DoorOpeningRecordItem) =>
  ms(a.At) - ms(b.At) || a.Id - b.Id;

/**
 * Doors in alarm, from the record list: per door its newest alarm record of the last day, unless the door
 * reported closed after it (a door-closed record of the same door, later in time).
 */
export function doorsInAlarm(lists: Lists): DoorOpeningRecordItem[] {
  const recent = lists.swipes.filter((r) => ms(r.At) >= lists.now - ALARM_WINDOW_MS).sort(chronological);
  const alarm = new Map<string, DoorOpeningRecordItem>();
  for (const r of recent) {
    const key = doorKey(r.DeviceId, r.DoorNumber);
    if (r.EventType === RECORD.alarm) alarm.set(key, r);
    else if (r.EventType === RECORD.door && r.EventReason === DOOR_REASON.closed) alarm.delete(key);
  }
  return [...alarm.values()].sort((a, b) => chronological(b, a));
}

/** The access-control overview, figure by figure. */
function checkAccessSummary(f: Findings, s: AccessControlSummary, lists: Lists): void {
  f.same('access dashboard › TimeZone', s.TimeZone, lists.zone, "the area's zone");
  const wg = lists.devices.filter((d) => d.Protocol === 0 && !d.Disabled);
  f.same(
    'access dashboard › Controllers',
    s.Controllers,
    {
      Total: wg.length,
      Online: wg.filter((d) => d.Online === true).length,
      Offline: wg.filter((d) => d.Online === false).length,
      Unknown: wg.filter((d) => d.Online === null).length,
      Syncing: wg.filter((d) => d.SyncState === 'running').length,
    },
    'enabled WG controllers of the device list by Online and SyncState',
  );
  const today = startOfLocalDay(lists.now, lists.zone);
  const tomorrow = addLocalDays(today, 1, lists.zone);
  const swipesToday = lists.swipes.filter(
    (r) => ms(r.At) >= today && ms(r.At) < tomorrow && (r.EventType === null || r.EventType === RECORD.swipe),
  );
  f.same(
    'access dashboard › Today',
    s.Today,
    {
      Granted: swipesToday.filter((r) => r.Result).length,
      Denied: swipesToday.filter((r) => !r.Result).length,
    },
    "card swipes (EventType null or 1) of the record list in the area's local day, by Result",
  );
  f.same(
    'access dashboard › Authorizations',
    s.Authorizations,
    {
      Pending: lists.pending.length + lists.deviceCounts.reduce((sum, d) => sum + (d.Counts['-1'] ?? 0), 0),
      Failing: lists.deviceCounts.reduce((sum, d) => sum + d.Failing, 0),
    },
    'authorisation list with IssueStatus 1 or 2, plus pending deletions and Failing summed over DeviceStatusCounts',
  );
  const inAlarm = doorsInAlarm(lists);
  f.same(
    'access dashboard › Alarms.Open (doors in alarm)',
    s.Alarms.Open,
    inAlarm.length,
    'doors whose newest alarm record of the last 24 h no door-closed record (24) followed',
  );
  f.same(
    'access dashboard › Alarms.Items',
    s.Alarms.Items.map((a) => ({
      Id: a.Id,
      Door: doorKey(a.DeviceId, a.DoorNumber),
      EventReason: a.EventReason,
    })),
    inAlarm
      .slice(0, DASHBOARD_LISTED)
      .map((a) => ({ Id: a.Id, Door: doorKey(a.DeviceId, a.DoorNumber), EventReason: a.EventReason })),
    'the newest five of those doors, with their alarm record',
  );
  const waiting = lists.alarms.filter((a) => a.State === 0);
  f.same(
    'access dashboard › OpenAlarms.Count',
    s.OpenAlarms.Count,
    waiting.length,
    'alarm list with State 0 (not acknowledged)',
  );
  f.same(
    'access dashboard › OpenAlarms.Items',
    s.OpenAlarms.Items,
    waiting.slice(0, DASHBOARD_LISTED),
    'the newest five of the alarm list with State 0',
  );
}

/** What the record list says of a door's state: its newest door-sensor or door-alarm record. */
function doorStateFromRecords(lists: Lists, deviceId: number, door: number): number | undefined {
  const said = lists.swipes
    .filter(
      (r) =>
        r.DeviceId === deviceId &&
        r.DoorNumber === door &&
        ((r.EventType === RECORD.door &&
          (r.EventReason === DOOR_REASON.opened || r.EventReason === DOOR_REASON.closed)) ||
          (r.EventType === RECORD.alarm &&
            (r.EventReason === DOOR_REASON.forced || r.EventReason === DOOR_REASON.heldOpen))),
    )
    .sort(chronological)
    .at(-1);
  if (!said) return undefined;
  if (said.EventReason === DOOR_REASON.forced) return DOOR_STATE.forced;
  if (said.EventReason === DOOR_REASON.heldOpen) return DOOR_STATE.heldOpen;
  return said.EventReason === DOOR_REASON.opened ? DOOR_STATE.open : DOOR_STATE.closed;
}

/** The door monitor: each door of the watched controllers, the latest events, the alarms waiting. */
function checkMonitor(
  f: Findings,
  m: DoorMonitorReply,
  s: AccessControlSummary,
  lists: Lists,
  watched: number[],
): void {
  const inAlarm = new Set(doorsInAlarm(lists).map((a) => doorKey(a.DeviceId, a.DoorNumber)));
  for (const d of m.Doors) {
    const key = doorKey(d.DeviceId, d.DoorNumber);
    const alarmShown = d.State === DOOR_STATE.forced || d.State === DOOR_STATE.heldOpen;
    const onDashboard = s.Alarms.Items.some((a) => doorKey(a.DeviceId, a.DoorNumber) === key);
    if (s.Alarms.Open <= DASHBOARD_LISTED && alarmShown !== onDashboard)
      f.fail(
        `door monitor › door ${key} vs access dashboard › Alarms`,
        `the monitor shows state ${d.State}, the dashboard ${onDashboard ? 'lists' : 'does not list'} the door in alarm`,
      );
    if (!watched.includes(d.DeviceId)) continue;
    const fromRecords = doorStateFromRecords(lists, d.DeviceId, d.DoorNumber);
    // A closed door whose lock relay is still energised (a swipe or button a moment ago) shows unlocked: the
    // relay is reported by the status, not by a record.
    const shownState = d.State === DOOR_STATE.unlocked && d.Open === false ? DOOR_STATE.closed : d.State;
    if (fromRecords !== undefined)
      f.same(
        `door monitor › door ${key} State`,
        shownState,
        fromRecords,
        "the door's newest sensor or alarm record (23 open, 24 closed, 37 held open, 38 forced)",
      );
    f.same(
      `door monitor › door ${key} in alarm`,
      alarmShown,
      inAlarm.has(key),
      'the door has an alarm record of the last 24 h that no door-closed record followed',
    );
  }
  const feed = lists.swipes.slice(0, MONITOR_EVENTS);
  f.same(
    'door monitor › Events (ids, newest first)',
    m.Events.map((e) => e.Id),
    feed.map((e) => e.Id),
    'the newest 30 records of the record list',
  );
  const byId = new Map(feed.map((r) => [r.Id, r]));
  for (const e of m.Events) {
    const r = byId.get(e.Id);
    if (!r) continue;
    f.same(
      `door monitor › Events › record ${e.Id} (what happened)`,
      {
        EventType: e.EventType,
        EventReason: e.EventReason,
        Reason: e.Reason,
        Result: e.Result,
        CardNumber: e.CardNumber,
        HolderName: e.HolderName,
        DoorNumber: e.DoorNumber,
        At: e.At,
      },
      {
        EventType: r.EventType,
        EventReason: r.EventReason,
        Reason: r.Reason,
        Result: r.Result,
        CardNumber: r.CardNumber,
        HolderName: r.HolderName,
        DoorNumber: r.DoorNumber,
        At: r.At,
      },
      'the same record in the record list',
    );
  }
  f.same(
    'door monitor › OpenAlarms',
    m.OpenAlarms,
    lists.alarms.filter((a) => a.State === 0).slice(0, MONITOR_ALARMS),
    'the alarm list with State 0, newest first',
  );
}

/** The garage overview, figure by figure. */
function checkGarageSummary(f: Findings, g: GarageSummary, lists: Lists): void {
  f.same('garage dashboard › TimeZone', g.TimeZone, lists.zone, "the area's zone");
  const byState = new Map<number, number>();
  for (const s of lists.sockets) byState.set(s.State, (byState.get(s.State) ?? 0) + 1);
  const group = (name: string) => lists.sockets.filter((s) => portStateGroup(s.State) === name).length;
  f.same(
    'garage dashboard › Sockets (groups)',
    {
      Total: g.Sockets.Total,
      Idle: g.Sockets.Idle,
      Occupied: g.Sockets.Occupied,
      Fault: g.Sockets.Fault,
      Disabled: g.Sockets.Disabled,
      Offline: g.Sockets.Offline,
    },
    {
      Total: lists.sockets.length,
      Idle: group('idle'),
      Occupied: group('occupied'),
      Fault: group('fault'),
      Disabled: group('disabled'),
      Offline: group('offline'),
    },
    'the socket list by state group',
  );
  f.same(
    'garage dashboard › Sockets.ByState',
    g.Sockets.ByState.filter((b) => b.Count > 0).map((b) => [b.State, b.Count]),
    [...byState].sort((a, b) => a[0] - b[0]).map(([state, n]) => [state, n]),
    'the socket list counted by State',
  );
  f.same(
    'garage dashboard › Hosts',
    g.Hosts,
    { Total: lists.hosts.length, Online: lists.hosts.filter((h) => h.Online).length },
    'the host list by Online',
  );
  f.same(
    'garage dashboard › Zones',
    g.Zones,
    {
      Total: lists.zones.length,
      Capacity: lists.zones.reduce((sum, z) => sum + z.Capacity, 0),
      Parked: lists.inside.filter((o) => o.ExitAt === null).length,
    },
    'the zone list; parking orders inside (no exit)',
  );
  const shown = new Map(lists.sockets.map((s) => [s.Id, s.State]));
  const offline = lists.openSessions.filter((r) => shown.get(r.ChargeEquipmentId) === 255).length;
  f.same(
    'garage dashboard › OpenSessions (charging now)',
    { OpenSessions: g.OpenSessions, OpenSessionsOffline: g.OpenSessionsOffline },
    { OpenSessions: lists.openSessions.length - offline, OpenSessionsOffline: offline },
    'open sessions of the session list, apart from those on a socket shown offline (255)',
  );
  const collected = (COLLECTED_STATES as readonly number[]).slice();
  f.same(
    'garage dashboard › Today',
    g.Today,
    {
      Sessions: lists.todaySessions.length,
      EnergyWh: lists.todaySessions.reduce((sum, r) => sum + r.EnergyWh, 0),
      ChargingRevenueCents: lists.todayOrders
        .filter((o) => collected.includes(o.PaymentState))
        .reduce((sum, o) => sum + o.AmountCents, 0),
      ParkOrders: lists.todayParkOrders.length,
      ParkingRevenueCents: lists.todayParkOrders
        .filter((o) => collected.includes(o.PaymentState))
        .reduce((sum, o) => sum + o.AmountCents, 0),
    },
    "sessions started, orders made and parking entries of the area's local day (collected payments only)",
  );
}

/** A host's socket grid: each socket's state and running session, and the session lists of that host. */
function checkGrid(f: Findings, grid: ChargeEquipmentGrid, lists: Lists): void {
  const host = lists.hosts.find((h) => h.Id === grid.Host.Id);
  f.same(`socket grid ${grid.Host.Name} › Host.Online`, grid.Host.Online, host?.Online, 'the host list');
  const counts: Record<string, number> = { idle: 0, occupied: 0, fault: 0, disabled: 0, offline: 0 };
  for (const socket of grid.Sockets) {
    const name = `socket grid ${grid.Host.Name} › port ${socket.PortNumber}`;
    counts[portStateGroup(socket.State)]!++;
    const listed = lists.sockets.find((s) => s.Id === socket.Id);
    f.same(`${name} State`, socket.State, listed?.State, 'the socket list');
    const open = lists.hostSessions.filter((r) => r.ChargeEquipmentId === socket.Id && r.Open);
    if (open.length > 1)
      f.fail(`${name} sessions`, `${open.length} sessions open at once: ${open.map((r) => r.Id).join(', ')}`);
    const order = open[0] && lists.hostOrders.find((o) => o.ChargeRecordId === open[0]!.Id);
    f.same(
      `${name} Session`,
      socket.Session && {
        ChargeRecordId: socket.Session.ChargeRecordId,
        ChargeOrderId: socket.Session.ChargeOrderId,
        OrderNo: socket.Session.OrderNo,
        CardNumber: socket.Session.CardNumber,
        StartAt: socket.Session.StartAt,
        EnergyWh: socket.Session.EnergyWh,
        DurationMinutes: socket.Session.DurationMinutes,
        EstimatedCents: socket.Session.EstimatedCents,
      },
      open[0]
        ? {
            ChargeRecordId: open[0].Id,
            ChargeOrderId: order?.Id ?? null,
            OrderNo: order?.OrderNo ?? null,
            CardNumber: open[0].CardNumber,
            StartAt: open[0].StartAt,
            EnergyWh: open[0].EnergyWh,
            DurationMinutes: open[0].DurationMinutes,
            EstimatedCents: order?.AmountCents ?? null,
          }
        : null,
      "the open session of the session list at this socket, its order and the order's running estimate",
    );
    if (open[0] && [0, 255].includes(socket.State))
      f.fail(`${name} State`, `shows ${socket.State} while session ${open[0].Id} is open on it`);
  }
  const shownCounts = { offline: 0, ...grid.Counts };
  f.same(
    `socket grid ${grid.Host.Name} › Counts`,
    shownCounts,
    counts,
    "the grid's own sockets by state group",
  );
  for (const r of lists.hostSessions) {
    f.same(
      `session ${r.Id} › Open`,
      r.Open,
      r.EndAt === null,
      'a session is open exactly while it has no end',
    );
    const order = lists.hostOrders.find((o) => o.ChargeRecordId === r.Id);
    if (!order) {
      f.fail(`session ${r.Id} › order`, 'no charge order in the order list');
      continue;
    }
    f.same(
      `charge order ${order.OrderNo} › session`,
      { Open: order.Open, EndAt: order.EndAt, StopReason: order.StopReason, Estimated: order.Estimated },
      { Open: r.Open, EndAt: r.EndAt, StopReason: r.StopReason, Estimated: r.Open },
      'its session in the session list; estimated exactly while it runs',
    );
  }
  for (const p of lists.hostPowerOffs) {
    const session = lists.hostSessions.find((r) => r.Id === p.ChargeRecordId);
    if (p.Result === 1 && session)
      f.same(
        `power-off ${p.Id} (power cut) › its session`,
        { Open: session.Open, StopReason: session.StopReason },
        { Open: false, StopReason: 3 },
        'a power cut ended its session as a forced power-off',
      );
    if (p.Result === 3 && session)
      f.same(
        `power-off ${p.Id} (sent) › its session`,
        session.Open,
        true,
        'sent, not confirmed: the session runs',
      );
    const order = lists.hostOrders.find((o) => o.ChargeRecordId === p.ChargeRecordId);
    if (p.Result === 1 && order)
      f.same(`power-off ${p.Id} › order Forced`, order.Forced, true, 'the order list');
  }
}

/** Every comparison of one checkpoint; empty when every screen agrees with the lists. */
export function compare(where: string, screens: Screens, lists: Lists, watchedDevices: number[]): string[] {
  const f = new Findings(where);
  checkAccessSummary(f, screens.access, lists);
  checkMonitor(f, screens.monitor, screens.access, lists, watchedDevices);
  checkGarageSummary(f, screens.garage, lists);
  for (const grid of screens.grids) checkGrid(f, grid, lists);
  return f.messages;
}

/**
 * Screens and lists read while nothing moves: the screens are read before and after the lists, and the read is
 * taken when both screen reads are the same (a background pass that lands in between is read again).
 */
export async function settledRead(
  api: OperatorApi,
  now: () => number,
  zone: string,
  hostIds: number[],
  tries = 20,
): Promise<{ screens: Screens; lists: Lists }> {
  for (let i = 0; i < tries; i++) {
    const before = await readScreens(api, hostIds);
    const lists = await readLists(api, now(), zone, hostIds);
    const after = await readScreens(api, hostIds);
    if (JSON.stringify(before) === JSON.stringify(after)) return { screens: after, lists };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the screens kept changing while the lists were read (${tries} tries)`);
}
