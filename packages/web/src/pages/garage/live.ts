import type { QueryClient, QueryKey } from '@tanstack/react-query';
import {
  durationMinutes,
  type ChargeEquipmentGrid,
  type ChargeEquipmentItem,
  type ChargeEquipmentSession,
  type ChargeOrderItem,
  type ChargeRecordItem,
} from '@gatehouse/shared';
import type { HubMessage } from '../../core/hub.ts';
import type { Page } from '../../components/list-page/index.ts';

/**
 * What the area's hub says about chargers (docs/chargers.md, "Live"; published by the server's
 * gateways/ocpp/live.ts), and what each event changes on the garage screens.
 */
export const GARAGE_EVENTS = [
  'socketState',
  'hostOnline',
  'sessionStarted',
  'sessionMeter',
  'sessionEnded',
  'portFault',
] as const;
export type GarageEvent = (typeof GARAGE_EVENTS)[number];

const GRID: QueryKey = ['garage.grid'];
const DASHBOARD: QueryKey = ['garage.dashboard'];
const DAILY: QueryKey = ['garage.dashboard.daily'];
const list = (resource: string): QueryKey => ['list', resource];

/** A socket's state shows on the grid, the socket list, the host and zone counts and the dashboard. */
const SOCKET_STATE = [GRID, list('ChargeEquipment'), list('ChargeHost'), list('ParkArea'), DASHBOARD];
const SESSIONS = [GRID, list('ChargeEquipment'), list('ChargeRecord'), list('ChargeOrder'), DASHBOARD, DAILY];

/**
 * The queries each event makes stale: they reload (those on screen at once, the others when next shown),
 * keeping the filters, sort and page the operator chose. Meter readings are patched in place instead
 * (`patchMeter`): they come every few seconds per session and change only the energy and the estimate.
 */
export const STALE_AFTER: Record<GarageEvent, readonly QueryKey[]> = {
  socketState: SOCKET_STATE,
  // A host that comes or goes changes its presence and every socket's shown state (255 while away).
  hostOnline: SOCKET_STATE,
  sessionStarted: SESSIONS,
  // The end also turns a pending power-off into "power cut" (its record) and settles the order.
  sessionEnded: [...SESSIONS, list('ForcedOutageRecord')],
  portFault: [DASHBOARD],
  sessionMeter: [],
};

export interface MeterReading {
  recordId: number;
  socketId: number;
  energyWh: number;
  estimatedCents: number | null;
  /** The server's time of the reading (ms). */
  at: number;
}

/** A `sessionMeter` message as a reading, or null when it is not one. */
export function meterReading(message: HubMessage): MeterReading | null {
  const { recordId, socketId, energyWh, estimatedCents } = message;
  if (message.type !== 'sessionMeter' || typeof recordId !== 'number' || typeof energyWh !== 'number')
    return null;
  const at = Date.parse(message.at);
  return {
    recordId,
    socketId: typeof socketId === 'number' ? socketId : 0,
    energyWh,
    estimatedCents: typeof estimatedCents === 'number' ? estimatedCents : null,
    at: Number.isNaN(at) ? Date.now() : at,
  };
}

/** The running session with the reading applied (the same object when the reading is not about it). */
function meteredSession<S extends ChargeEquipmentSession | null>(session: S, reading: MeterReading): S {
  if (!session || session.ChargeRecordId !== reading.recordId) return session;
  return {
    ...session,
    // A late reading never lowers the energy (the server keeps the highest too).
    EnergyWh: Math.max(session.EnergyWh, reading.energyWh),
    EstimatedCents: reading.estimatedCents ?? session.EstimatedCents,
    DurationMinutes: durationMinutes(
      Date.parse(session.StartAt),
      Math.max(reading.at, Date.parse(session.StartAt)),
    ),
  };
}

/** A running record or order row with the reading applied. */
function meteredRow<T extends ChargeRecordItem | ChargeOrderItem>(
  row: T,
  recordId: number,
  reading: MeterReading,
): T {
  if (recordId !== reading.recordId || !row.Open) return row;
  return {
    ...row,
    EnergyWh: Math.max(row.EnergyWh, reading.energyWh),
    ...(reading.estimatedCents !== null ? { AmountCents: reading.estimatedCents } : {}),
    DurationMinutes: durationMinutes(Date.parse(row.StartAt), Math.max(reading.at, Date.parse(row.StartAt))),
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
export function patchMeter(client: QueryClient, reading: MeterReading): void {
  client.setQueriesData<ChargeEquipmentGrid>({ queryKey: GRID }, (grid) => {
    if (!grid?.Sockets.some((s) => s.Session?.ChargeRecordId === reading.recordId)) return grid;
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
 * Turns the hub's garage events into query updates: meter readings patched at once, everything else
 * gathered for `RELOAD_BATCH_MS` and invalidated once per key.
 */
export class GarageLiveUpdates {
  private pending = new Map<string, QueryKey>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: QueryClient,
    private readonly batchMs = RELOAD_BATCH_MS,
  ) {}

  handle(message: HubMessage): void {
    const reading = meterReading(message);
    if (reading) {
      patchMeter(this.client, reading);
      return;
    }
    const keys = STALE_AFTER[message.type as GarageEvent];
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
