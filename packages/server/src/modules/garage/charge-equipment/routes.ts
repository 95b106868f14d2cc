import type { chargeEquipmentSession } from '@gatehouse/shared';
import {
  DISABLED_PORT_STATE,
  IDLE_PORT_STATE,
  chargePortState,
  disabledFlag,
  durationMinutes,
  enumLabel,
  findEnumItem,
  portStateGroup,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  PORT_STATE_GROUPS,
  chargeEquipmentItem,
  gridSocket,
  chargeEquipmentGrid,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { defineRoute } from '../../../platform/route.ts';
import { id, queryBool } from '../../../platform/schemas.ts';
import { iso, optionalText } from '../common.ts';
import { syncAvailability } from '../charge-host/commands.ts';
import { hostLink, isHostRowOnline, offlineSocketWhere, shownState } from '../liveness.ts';
import { orderAmount } from '../pricing.ts';

type Session = z.infer<typeof chargeEquipmentSession>;

type Item = z.infer<typeof chargeEquipmentItem>;

/** Running sessions of these sockets, keyed by socket id. */
export async function openSessions(
  db: Kysely<Database>,
  socketIds: number[],
  now: number,
): Promise<Map<number, Session>> {
  const out = new Map<number, Session>();
  if (socketIds.length === 0) return out;
  const rows = await db
    .selectFrom('ChargeRecord')
    .leftJoin('ChargeOrder', 'ChargeOrder.ChargeRecordId', 'ChargeRecord.Id')
    .select([
      'ChargeRecord.Id',
      'ChargeRecord.ChargeEquipmentId',
      'ChargeRecord.CardNumber',
      'ChargeRecord.StartAt',
      'ChargeRecord.EnergyWh',
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
    .where('ChargeRecord.ChargeEquipmentId', 'in', socketIds)
    .where('ChargeRecord.EndAt', 'is', null)
    .execute();
  for (const r of rows) {
    const usage = { StartAt: r.StartAt, EndAt: null, EnergyWh: r.EnergyWh };
    const priced =
      r.OrderId === null
        ? null
        : orderAmount(
            {
              ChargeType: r.ChargeType!,
              TemporaryChargeType: r.TemporaryChargeType!,
              UnitPriceCents: r.UnitPriceCents!,
              TimeUnit: r.TimeUnit,
              FreeMinutes: r.FreeMinutes!,
              CapCents: r.CapCents,
              AmountCents: r.AmountCents,
            },
            usage,
            now,
          );
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

function toItem(row: Record<string, unknown>): Item {
  const { ChargingSystemType, OcppOnline, ...rest } = row;
  const base = rowMapper<Item>({ instants: ['CreatedAt', 'UpdatedAt', 'StateChangedAt'] })(rest);
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

async function enrich(ctx: AreaContext, items: Item[]): Promise<Item[]> {
  const sessions = await openSessions(
    ctx.db.kysely,
    items.map((i) => i.Id),
    ctx.clock.now(),
  );
  return items.map((i) => ({ ...i, Session: sessions.get(i.Id) ?? null }));
}

const socketQuery = (db: Kysely<Database>) =>
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
    ]);

/** The port number must exist on the host: 1…PortCount. */
async function assertPortOnHost(trx: Kysely<Database>, ctx: AreaContext, hostId: number, port: number) {
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
      const running = await trx
        .selectFrom('ChargeRecord')
        .select('Id')
        .where('ChargeEquipmentId', '=', socketId)
        .where('EndAt', 'is', null)
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

/** One host's sockets in port order, coloured by state, with their running sessions: the grid view. */
export async function socketGrid(
  ctx: AreaContext,
  hostId: number,
): Promise<z.infer<typeof chargeEquipmentGrid>> {
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
  const sockets = await enrich(ctx, rows.map(toItem));
  const counts = { idle: 0, occupied: 0, fault: 0, disabled: 0, offline: 0 };
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
    },
    Sockets: sockets.map((s) => gridSocket.parse(s)),
    Counts: counts,
  };
}

export const chargeEquipmentRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/ChargeEquipment/Grid',
    summary: "One host's sockets coloured by state, with running sessions and live estimates",
    tag: 'Garage',
    access: BICYCLE_ANY,
    area: true,
    query: z.object({ ChargeHostId: id }),
    response: chargeEquipmentGrid,
    handler: ({ query }, ctx) => socketGrid(ctx, query.ChargeHostId),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/ChargeEquipment/SetStatus',
    summary: 'Enable or disable a socket (disabled sockets are in state 12)',
    tag: 'Garage',
    access: BICYCLE_ADMIN,
    area: true,
    query: z.object({ Id: id, Disabled: queryBool }),
    async handler({ query }, ctx) {
      await setSocketStatus(ctx, query.Id, query.Disabled);
      await syncAvailability(ctx, query.Id, query.Disabled);
      return null;
    },
  }),
  ...defineResource({
    name: 'ChargeEquipment',
    table: 'ChargeEquipment',
    tag: 'Garage',
    area: true,
    read: BICYCLE_ANY,
    write: BICYCLE_ADMIN,
    item: chargeEquipmentItem,
    query: socketQuery,
    toItem,
    enrich,
    filters: {
      ChargeHostId: filter.id('ChargeEquipment.ChargeHostId'),
      ParkAreaId: filter.id('ChargeHost.ParkAreaId'),
      State: filter.oneOf('ChargeEquipment.State', chargePortState),
      StateGroup: {
        schema: z.enum(PORT_STATE_GROUPS),
        where: (eb, group: (typeof PORT_STATE_GROUPS)[number]) => {
          // Sockets of an offline charge point are in the offline group only, whatever they stored.
          if (group === 'offline') return offlineSocketWhere(eb);
          const states = chargePortState.items.map((i) => i.value).filter((v) => portStateGroup(v) === group);
          return eb.and([eb('ChargeEquipment.State', 'in', states), eb.not(offlineSocketWhere(eb))]);
        },
      },
      Disabled: filter.flag('ChargeEquipment.Disabled'),
      Keyword: filter.keyword(['ChargeHost.Name', 'ChargeHost.SerialNumber']),
    },
    sorts: {
      Host: 'ChargeHost.Name',
      PortNumber: 'ChargeEquipment.PortNumber',
      State: 'ChargeEquipment.State',
      StateChangedAt: 'ChargeEquipment.StateChangedAt',
    },
    timestamps: true,
    unique: [{ fields: ['ChargeHostId', 'PortNumber'], key: 'garage.error.portTaken' }],
    create: {
      body: z.strictObject({
        ChargeHostId: id,
        PortNumber: z.number().int().min(1),
        Remark: optionalText(200),
      }),
      async values(input, ctx, trx) {
        await assertPortOnHost(trx, ctx, input.ChargeHostId, input.PortNumber);
        return {
          ChargeHostId: input.ChargeHostId,
          PortNumber: input.PortNumber,
          State: IDLE_PORT_STATE,
          StateChangedAt: ctx.clock.now(),
          Remark: input.Remark || null,
        };
      },
    },
    update: {
      body: z.strictObject({ Id: id, PortNumber: z.number().int().min(1), Remark: optionalText(200) }),
      /** The host, state and status are not edited here (state comes from the device, status from SetStatus). */
      async values(input, ctx, trx, existing) {
        await assertPortOnHost(trx, ctx, existing.ChargeHostId as number, input.PortNumber);
        return {
          PortNumber: input.PortNumber,
          ...(input.Remark !== undefined ? { Remark: input.Remark || null } : {}),
        };
      },
    },
    remove: {
      check: (ctx, row, trx) => assertNoDependents('ChargeEquipment', trx, row.Id as number, ctx.lang),
    },
    export: {
      titleKey: 'garage.title.chargeEquipment',
      columns: [
        { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
        { key: 'HostName', labelKey: 'garage.field.HostName', width: 24 },
        { key: 'HostSerialNumber', labelKey: 'garage.field.SerialNumber', width: 20 },
        { key: 'PortNumber', labelKey: 'garage.field.PortNumber', kind: 'number' },
        {
          key: 'State',
          labelKey: 'garage.field.State',
          width: 20,
          label: (v, lang) => enumLabel(lang, chargePortState, v),
        },
        { key: 'StateChangedAt', labelKey: 'garage.field.StateChangedAt', kind: 'instant' },
        {
          key: 'Disabled',
          labelKey: 'garage.field.Status',
          label: (v, lang) => enumLabel(lang, disabledFlag, v),
        },
        { key: 'Remark', labelKey: 'garage.field.Remark', width: 30 },
      ],
    },
  }),
];
