import type { QueryClient, QueryKey } from '@tanstack/react-query';
import {
  chargePortState,
  durationMinutes,
  findEnumItem,
  portStateGroup,
  type ChargeEquipmentGrid,
  type ChargeEquipmentItem,
  type ChargeEquipmentSession,
  type ChargeOrderItem,
  type ChargeRecordItem,
  type HubEventOf,
  type HubEventType,
} from '@gatehouse/shared';
import type { Page } from '../../components/list-page/index.ts';

/**
 * What the area's hub says about chargers (docs/chargers.md, "Live"; published by the server's
 * gateways/ocpp/live.ts in the contract's casing), and what each event changes on the garage screens.
 */
export const GARAGE_EVENTS = [
  'SocketState',
  'HostOnline',
  'SessionStarted',
  'SessionMeter',
  'SessionEnded',
  'PortFault',
  'PowerOffConfirmed',
  'ZoneEmergency',
  'HeatAlarm',
] as const satisfies readonly HubEventType[];
export type GarageEvent = (typeof GARAGE_EVENTS)[number];
export type GarageMessage = HubEventOf<GarageEvent>;

/** The socket grid of a host (`[...GRID_KEY, hostId]`), the dashboard's figures and its charts. */
export const GRID_KEY: QueryKey = ['garage.grid'];
export const DASHBOARD_KEY: QueryKey = ['garage.dashboard'];
export const DAILY_KEY: QueryKey = ['garage.dashboard.daily'];
/** The area's zones under emergency stop (the banner on the garage screens). */
export const EMERGENCY_KEY: QueryKey = ['garage.emergencyStops'];
const list = (resource: string): QueryKey => ['list', resource];

/** What counts sockets by state: the host and zone lists and the dashboard. */
const SOCKET_COUNTS = [list('ChargeHost'), list('ParkArea'), DASHBOARD_KEY];
const SESSIONS = [
  GRID_KEY,
  list('ChargeEquipment'),
  list('ChargeRecord'),
  list('ChargeOrder'),
  DASHBOARD_KEY,
  DAILY_KEY,
];

/**
 * The queries each event makes stale: they reload (those on screen at once, the others when next shown),
 * keeping the filters, sort and page the operator chose. What an event carries whole is applied in place
 * instead: a socket's new state on the grid (`patchSocketState`), a meter reading wherever its session shows
 * (`patchMeter`, every few seconds per session).
 */
export const STALE_AFTER: Record<GarageEvent, readonly QueryKey[]> = {
  // The grid tile changes in place; the socket list reloads (its filters may no longer hold the row), and
  // whatever counts sockets by state.
  SocketState: [list('ChargeEquipment'), ...SOCKET_COUNTS],
  // A host that comes or goes changes its presence and every socket's shown state (255 while away).
  HostOnline: [GRID_KEY, list('ChargeEquipment'), ...SOCKET_COUNTS],
  SessionStarted: SESSIONS,
  // The end also turns a pending power-off into "power cut" (its record) and settles the order.
  SessionEnded: [...SESSIONS, list('ForcedOutageRecord')],
  PortFault: [DASHBOARD_KEY],
  SessionMeter: [],
  // A power-off the charger accepted is confirmed: its record reads "power cut" now.
  PowerOffConfirmed: [list('ForcedOutageRecord')],
  // A zone stopped, its commands answered, or released: the banners, the zone's row, and the sockets and
  // sessions its commands change.
  ZoneEmergency: [EMERGENCY_KEY, list('ParkArea'), ...SESSIONS],
  // A host entered or left heat alarm: its tag on the host list, the banner and tiles of its grid.
  HeatAlarm: [GRID_KEY, list('ChargeHost')],
};

/** The server's time of an event (ms), or now when it is unreadable. */
const eventTime = (at: string) => {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? Date.now() : ms;
};

/** A grid with a socket's new state applied, and its group counts again; the same object when not its socket. */
export function gridWithState(
  grid: ChargeEquipmentGrid,
  event: HubEventOf<'SocketState'>,
): ChargeEquipmentGrid {
  const socket = grid.Sockets.find((s) => s.Id === event.SocketId);
  if (!socket || socket.State === event.State) return grid;
  const Sockets = grid.Sockets.map((s) =>
    s.Id === event.SocketId
      ? {
          ...s,
          State: event.State,
          StateColor: findEnumItem(chargePortState, event.State)?.color ?? null,
          StateGroup: portStateGroup(event.State),
          StateChangedAt: new Date(eventTime(event.At)).toISOString(),
        }
      : s,
  );
  const Counts = { idle: 0, occupied: 0, fault: 0, disabled: 0, offline: 0 };
  for (const s of Sockets) Counts[s.StateGroup] += 1;
  return { ...grid, Sockets, Counts };
}

/** Applies a socket's new state to the cached grids (its tile, the legend's counts). Nothing is fetched. */
export function patchSocketState(client: QueryClient, event: HubEventOf<'SocketState'>): void {
  client.setQueriesData<ChargeEquipmentGrid>({ queryKey: GRID_KEY }, (grid) =>
    grid ? gridWithState(grid, event) : grid,
  );
}

/** The running session with the reading applied (the same object when the reading is not about it). */
function meteredSession<S extends ChargeEquipmentSession | null>(
  session: S,
  reading: HubEventOf<'SessionMeter'>,
): S {
  if (!session || session.ChargeRecordId !== reading.RecordId) return session;
  const start = Date.parse(session.StartAt);
  return {
    ...session,
    // A late reading never lowers the energy (the server keeps the highest too).
    EnergyWh: Math.max(session.EnergyWh, reading.EnergyWh),
    EstimatedCents: reading.EstimatedCents ?? session.EstimatedCents,
    DurationMinutes: durationMinutes(start, Math.max(eventTime(reading.At), start)),
  };
}

/** A running record or order row with the reading applied. */
function meteredRow<T extends ChargeRecordItem | ChargeOrderItem>(
  row: T,
  recordId: number,
  reading: HubEventOf<'SessionMeter'>,
): T {
  if (recordId !== reading.RecordId || !row.Open) return row;
  const start = Date.parse(row.StartAt);
  return {
    ...row,
    EnergyWh: Math.max(row.EnergyWh, reading.EnergyWh),
    ...(reading.EstimatedCents !== null ? { AmountCents: reading.EstimatedCents } : {}),
    DurationMinutes: durationMinutes(start, Math.max(eventTime(reading.At), start)),
  };
}

function patchPages<T>(client: QueryClient, key: QueryKey, patch: (item: T) => T): void {
  client.setQueriesData<Page<T>>({ queryKey: key }, (page) => {
    if (!page) return page;
    let changed = false;
    const Items = page.Items.map((item) => {
      const next = patch(item);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? { ...page, Items } : page;
  });
}

/**
 * Applies a meter reading to every cached view of its session: the grid tile, the socket list, the charging
 * records and orders (energy, running estimate, minutes). Nothing is fetched.
 */
export function patchMeter(client: QueryClient, reading: HubEventOf<'SessionMeter'>): void {
  client.setQueriesData<ChargeEquipmentGrid>({ queryKey: GRID_KEY }, (grid) => {
    if (!grid?.Sockets.some((s) => s.Session?.ChargeRecordId === reading.RecordId)) return grid;
    return {
      ...grid,
      Sockets: grid.Sockets.map((s) => ({ ...s, Session: meteredSession(s.Session, reading) })),
    };
  });
  patchPages<ChargeEquipmentItem>(client, list('ChargeEquipment'), (row) => {
    const Session = meteredSession(row.Session, reading);
    return Session === row.Session ? row : { ...row, Session };
  });
  patchPages<ChargeRecordItem>(client, list('ChargeRecord'), (row) => meteredRow(row, row.Id, reading));
  patchPages<ChargeOrderItem>(client, list('ChargeOrder'), (row) =>
    meteredRow(row, row.ChargeRecordId, reading),
  );
}

/** How long invalidations gather before the affected queries reload: a burst of reports is one reload. */
export const RELOAD_BATCH_MS = 300;

/**
 * Turns the hub's garage events into query updates: what an event carries whole applied at once, everything
 * else gathered for `RELOAD_BATCH_MS` and invalidated once per key.
 */
export class GarageLiveUpdates {
  private pending = new Map<string, QueryKey>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: QueryClient,
    private readonly batchMs = RELOAD_BATCH_MS,
  ) {}

  handle(event: GarageMessage): void {
    if (event.Type === 'SessionMeter') patchMeter(this.client, event);
    if (event.Type === 'SocketState') patchSocketState(this.client, event);
    const keys = STALE_AFTER[event.Type];
    if (!keys?.length) return;
    for (const key of keys) this.pending.set(JSON.stringify(key), key);
    this.timer ??= setTimeout(() => this.flush(), this.batchMs);
  }

  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const keys = [...this.pending.values()];
    this.pending.clear();
    for (const queryKey of keys) void this.client.invalidateQueries({ queryKey });
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
