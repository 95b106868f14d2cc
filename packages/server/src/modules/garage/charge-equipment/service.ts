import {
  DISABLED_PORT_STATE,
  IDLE_PORT_STATE,
  chargePortState,
  durationMinutes,
  findEnumItem,
  gridSocket,
  portStateGroup,
  type ChargeEquipmentApi,
  type ChargeEquipmentGrid,
  type ChargeEquipmentItem,
  type ChargeEquipmentSession,
  type PortStateGroup,
} from '@gatehouse/shared';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { syncAvailability } from '../charge-host/commands.ts';
import { socketSessions } from '../charge-record/service.ts';
import { iso } from '../common/index.ts';
import { hostLink, isHostRowOnline, offlineSocketWhere, shownState } from '../common/liveness.ts';
import { openHeatAlarms } from '../charge-host/heat-alarm.ts';
import { orderAmount } from '../common/pricing.ts';
import { zonePowerOf } from '../park-area/power.ts';

type Trx = Kysely<Database>;
type CreateBody = z.output<typeof ChargeEquipmentApi.create.body>;
type UpdateBody = z.output<typeof ChargeEquipmentApi.update.body>;

// ---- socket states: one count for the zone list, the host list, the grid and the dashboard ---------------

export type GroupCounts = Record<PortStateGroup, number>;

export const noSockets = (): GroupCounts => ({ idle: 0, occupied: 0, fault: 0, disabled: 0, offline: 0 });

export const socketTotal = (c: GroupCounts) => c.idle + c.occupied + c.fault + c.disabled + c.offline;

/** Counts per state (the state the API shows) → counts per state group. */
export function groupCounts(byState: ReadonlyMap<number, number> | undefined): GroupCounts {
  const counts = noSockets();
  for (const [state, n] of byState ?? []) counts[portStateGroup(state)] += n;
  return counts;
}

const COUNT_KEYS = {
  zone: 'ChargeHost.ParkAreaId',
  host: 'ChargeEquipment.ChargeHostId',
  area: 'ChargeEquipment.AreaId',
} as const;

/**
 * Sockets by the state the API shows (255 "unknown / offline" for those of a charge point that is away,
 * liveness.ts), counted per zone, per host or per area: key → state → count.
 */
export async function shownStateCounts(
  db: Kysely<Database>,
  by: keyof typeof COUNT_KEYS,
  ids: number[],
): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>();
  if (ids.length === 0) return out;
  const key = COUNT_KEYS[by];
  const rows = await db
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select((eb) => [
      eb.ref(key).as('Key'),
      'ChargeEquipment.State',
      'ChargeEquipment.Disabled',
      'ChargeHost.ChargingSystemType',
      'ChargeHost.OcppOnline',
      eb.fn.countAll().as('n'),
    ])
    .where(key, 'in', ids)
    .groupBy([
      key,
      'ChargeEquipment.State',
      'ChargeEquipment.Disabled',
      'ChargeHost.ChargingSystemType',
      'ChargeHost.OcppOnline',
    ])
    .execute();
  for (const row of rows) {
    const states = out.get(row.Key) ?? new Map<number, number>();
    const state = shownState(row);
    states.set(state, (states.get(state) ?? 0) + Number(row.n));
    out.set(row.Key, states);
  }
  return out;
}

/** SQL: the socket (joined with its host) is in this state group now, as the API shows it. */
export function inStateGroup(
  eb: ExpressionBuilder<Database, 'ChargeEquipment' | 'ChargeHost'>,
  group: PortStateGroup,
) {
  // Sockets of an offline charge point are in the offline group only, whatever they stored.
  if (group === 'offline') return offlineSocketWhere(eb);
  const states = chargePortState.items.map((i) => i.value).filter((v) => portStateGroup(v) === group);
  return eb.and([eb('ChargeEquipment.State', 'in', states), eb.not(offlineSocketWhere(eb))]);
}

// ---- the list, the detail and the grid --------------------------------------------------------------------

/** Running sessions of these sockets with their live estimates, keyed by socket id. */
export async function openSessions(
  db: Kysely<Database>,
  socketIds: number[],
  now: number,
): Promise<Map<number, ChargeEquipmentSession>> {
  const out = new Map<number, ChargeEquipmentSession>();
  if (socketIds.length === 0) return out;
  const rows = await socketSessions(db, { socketIds })
    .leftJoin('ChargeOrder', 'ChargeOrder.ChargeRecordId', 'ChargeRecord.Id')
    .select([
      'ChargeRecord.Id',
      'ChargeRecord.ChargeEquipmentId',
      'ChargeRecord.CardNumber',
      'ChargeRecord.StartAt',
      'ChargeRecord.EnergyWh',
      // The meter and the tariff dimensions the estimate reads (docs/garage.md, "Tariff dimensions").
      'ChargeRecord.MeterDigest',
      'ChargeRecord.FullAt',
      'ChargeOrder.PowerBands',
      'ChargeOrder.TimeOfDay',
      'ChargeOrder.IdleFeeCentsPerHour',
      'ChargeOrder.IdleGraceMinutes',
      'ChargeOrder.ServiceFeeCents',
      'ChargeOrder.Id as OrderId',
      'ChargeOrder.OrderNo',
      'ChargeOrder.ChargeType',
      'ChargeOrder.TemporaryChargeType',
      'ChargeOrder.UnitPriceCents',
      'ChargeOrder.TimeUnit',
      'ChargeOrder.FreeMinutes',
      'ChargeOrder.CapCents',
      'ChargeOrder.AmountCents',
    ])
    .execute();
  for (const r of rows) {
    const usage = {
      StartAt: r.StartAt,
      EndAt: null,
      EnergyWh: r.EnergyWh,
      MeterDigest: r.MeterDigest,
      FullAt: r.FullAt,
    };
    const terms = {
      ChargeType: r.ChargeType!,
      TemporaryChargeType: r.TemporaryChargeType!,
      UnitPriceCents: r.UnitPriceCents!,
      TimeUnit: r.TimeUnit,
      FreeMinutes: r.FreeMinutes!,
      CapCents: r.CapCents,
      PowerBands: r.PowerBands,
      TimeOfDay: r.TimeOfDay,
      IdleFeeCentsPerHour: r.IdleFeeCentsPerHour,
      IdleGraceMinutes: r.IdleGraceMinutes,
      ServiceFeeCents: r.ServiceFeeCents,
      AmountCents: r.AmountCents,
    };
    const priced = r.OrderId === null ? null : orderAmount(terms, usage, now);
    out.set(r.ChargeEquipmentId, {
      ChargeRecordId: r.Id,
      ChargeOrderId: r.OrderId,
      OrderNo: r.OrderNo,
      CardNumber: r.CardNumber,
      StartAt: iso(r.StartAt)!,
      EnergyWh: r.EnergyWh,
      DurationMinutes: priced?.DurationMinutes ?? durationMinutes(r.StartAt, Math.max(now, r.StartAt)),
      EstimatedCents: priced?.AmountCents ?? null,
    });
  }
  return out;
}

const mapRow = rowMapper<ChargeEquipmentItem>({ instants: ['CreatedAt', 'UpdatedAt', 'StateChangedAt'] });

export function chargeEquipmentItem(row: Record<string, unknown>): ChargeEquipmentItem {
  const { ChargingSystemType, OcppOnline, Unknown: _unknown, ...rest } = row;
  const base = mapRow(rest);
  // A socket whose charge point is offline shows "unknown / offline", not its stale state (liveness.ts).
  const state = shownState({
    State: base.State,
    Disabled: base.Disabled,
    ChargingSystemType: ChargingSystemType as number,
    OcppOnline: OcppOnline as number,
  });
  return {
    ...base,
    State: state,
    StateColor: findEnumItem(chargePortState, state)?.color ?? null,
    StateGroup: portStateGroup(state),
    Session: null,
  };
}

/** Per page: each socket's running session. */
export async function withSessions(ctx: AreaContext, items: ChargeEquipmentItem[]) {
  const sessions = await openSessions(
    ctx.db.kysely,
    items.map((i) => i.Id),
    ctx.clock.now(),
  );
  return items.map((i) => ({ ...i, Session: sessions.get(i.Id) ?? null }));
}

export const socketQuery = (db: Kysely<Database>) =>
  db
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ChargeHost.ParkAreaId')
    .select([
      'ChargeEquipment.Id',
      'ChargeEquipment.ChargeHostId',
      'ChargeHost.Name as HostName',
      'ChargeHost.SerialNumber as HostSerialNumber',
      'ChargeHost.ParkAreaId',
      'ParkArea.Name as ZoneName',
      'ChargeEquipment.PortNumber',
      'ChargeEquipment.State',
      'ChargeEquipment.StateChangedAt',
      'ChargeEquipment.Disabled',
      'ChargeEquipment.Remark',
      'ChargeEquipment.CreatedAt',
      'ChargeEquipment.UpdatedAt',
      'ChargeHost.ChargingSystemType',
      'ChargeHost.OcppOnline',
      // 0 while a connected charger reports the socket's state (or the operator disabled it), 1 while it is
      // unknown: the list's first sort, so it opens on the sockets whose state means something (issue 27).
      (eb) => eb.case().when(offlineSocketWhere(eb)).then(1).else(0).end().as('Unknown'),
    ]);

/** One host's sockets in port order, coloured by state, with their running sessions: the grid view. */
export async function socketGrid(ctx: AreaContext, hostId: number): Promise<ChargeEquipmentGrid> {
  const k = ctx.db.kysely;
  const host = await k
    .selectFrom('ChargeHost')
    .innerJoin('ParkArea', 'ParkArea.Id', 'ChargeHost.ParkAreaId')
    .select([
      'ChargeHost.Id',
      'ChargeHost.Name',
      'ChargeHost.SerialNumber',
      'ChargeHost.ParkAreaId',
      'ParkArea.Name as ZoneName',
      'ChargeHost.PortCount',
      'ChargeHost.Disabled',
      'ChargeHost.LastSeenAt',
      'ChargeHost.ChargingSystemType',
      'ChargeHost.OcppOnline',
      'ChargeHost.OcppOfflineAt',
      'ChargeHost.OcppBootInfo',
    ])
    .where('ChargeHost.Id', '=', hostId)
    .where('ChargeHost.AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!host) throw notFound();
  const rows = await socketQuery(k)
    .where('ChargeEquipment.ChargeHostId', '=', hostId)
    .orderBy('ChargeEquipment.PortNumber')
    .execute();
  const sockets = await withSessions(ctx, rows.map(chargeEquipmentItem));
  const counts = noSockets();
  for (const s of sockets) counts[s.StateGroup] += 1;
  const { ChargingSystemType, OcppOnline, OcppOfflineAt, OcppBootInfo, ...shown } = host;
  const link = { ChargingSystemType, OcppOnline, OcppOfflineAt, OcppBootInfo };
  return {
    Host: {
      ...shown,
      Disabled: host.Disabled === 1,
      Online: isHostRowOnline(host, ctx.clock.now()),
      LastSeenAt: iso(host.LastSeenAt),
      ...hostLink(link),
      HeatAlarm: (await openHeatAlarms(k, [hostId])).get(hostId) ?? null,
    },
    Sockets: sockets.map((s) => gridSocket.parse(s)),
    Counts: counts,
    ZonePower: await zonePowerOf(k, host.ParkAreaId, ctx.clock.now()),
  };
}

// ---- writes ------------------------------------------------------------------------------------------------

/** The port number must exist on the host: 1…PortCount. */
async function assertPortOnHost(trx: Trx, ctx: AreaContext, hostId: number, port: number) {
  const host = await trx
    .selectFrom('ChargeHost')
    .select('PortCount')
    .where('Id', '=', hostId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!host) throw fieldError('ChargeHostId', 'error.notFound');
  if (port > host.PortCount)
    throw fieldError('PortNumber', 'garage.validation.portBeyondCount', { count: host.PortCount });
}

/** A socket added to a host, within its port count; idle until its device says otherwise. */
export async function newSocket(input: CreateBody, ctx: AreaContext, trx: Trx) {
  await assertPortOnHost(trx, ctx, input.ChargeHostId, input.PortNumber);
  return {
    ChargeHostId: input.ChargeHostId,
    PortNumber: input.PortNumber,
    State: IDLE_PORT_STATE,
    StateChangedAt: ctx.clock.now(),
    Remark: input.Remark || null,
  };
}

/**
 * A new host's sockets: ports 1…portCount, idle until their device reports. The host's create calls this in
 * its transaction (charge-host), so a host never exists without its sockets.
 */
export async function insertHostSockets(
  trx: Trx,
  areaId: number,
  hostId: number,
  portCount: number,
  now: number,
): Promise<void> {
  await trx
    .insertInto('ChargeEquipment')
    .values(
      Array.from({ length: portCount }, (_, i) => ({
        AreaId: areaId,
        ChargeHostId: hostId,
        PortNumber: i + 1,
        State: IDLE_PORT_STATE,
        StateChangedAt: now,
        Remark: null,
        CreatedAt: now,
        UpdatedAt: now,
      })),
    )
    .execute();
}

/** The port and remark; the host, state and status are not edited here. */
export async function changedSocket(
  input: UpdateBody,
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  await assertPortOnHost(trx, ctx, existing.ChargeHostId as number, input.PortNumber);
  return {
    PortNumber: input.PortNumber,
    ...(input.Remark !== undefined ? { Remark: input.Remark || null } : {}),
  };
}

/**
 * Disabling a socket sets its state to 12 (disabled) and is refused while a session runs there (end it with a
 * forced power-off first); enabling sets it to idle until the device reports otherwise. Asking for the
 * status it already has changes nothing.
 */
export async function setSocketStatus(ctx: AreaContext, socketId: number, disabled: boolean): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('ChargeEquipment')
      .selectAll()
      .where('Id', '=', socketId)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!before) throw notFound();
    if ((before.Disabled === 1) === disabled) return;
    if (disabled) {
      const running = await socketSessions(trx, { socketIds: [socketId] })
        .select('ChargeRecord.Id')
        .executeTakeFirst();
      if (running) throw new AppError(409, 'garage.error.socketBusy');
    }
    const now = ctx.clock.now();
    const values = {
      Disabled: disabled ? 1 : 0,
      State: disabled ? DISABLED_PORT_STATE : IDLE_PORT_STATE,
      StateChangedAt: now,
      UpdatedAt: now,
    };
    await trx.updateTable('ChargeEquipment').set(values).where('Id', '=', socketId).execute();
    await audit(
      ctx,
      {
        action: 'status',
        entity: 'ChargeEquipment',
        entityId: socketId,
        before,
        after: { ...before, ...values },
      },
      trx,
    );
  });
}

/** An operator's enable or disable: the status here, then the charge point told (ChangeAvailability). */
export async function changeSocketStatus(ctx: AreaContext, socketId: number, disabled: boolean) {
  await setSocketStatus(ctx, socketId, disabled);
  await syncAvailability(ctx, socketId, disabled);
}
