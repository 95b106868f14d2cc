import {
  HOST_CONNECTION_FIELDS,
  MAX_HOST_PORTS,
  chargingSystemType,
  disabledFlag,
  enumLabel,
  isHostOnline,
  portStateGroup,
  upperAlnum,
  url,
  zodRule,
  type ConnectionField,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  chargeHostItem,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { AppError } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { enumNumber, id } from '../../../platform/schemas.ts';
import { assertInArea, optionalText } from '../common.ts';
import { hostLink, shownState } from '../liveness.ts';

type Item = z.infer<typeof chargeHostItem>;

const fields = {
  SerialNumber: z.string().trim().min(4).max(32).superRefine(zodRule(upperAlnum)),
  Name: z.string().trim().min(1).max(50),
  ParkAreaId: id,
  PortCount: z.number().int().min(1).max(MAX_HOST_PORTS),
  ChargingSystemType: enumNumber(chargingSystemType),
  Endpoint: optionalText(200),
  Account: optionalText(100),
  Password: z.string().max(200).nullable().optional(),
  Remark: optionalText(200),
};
const createBody = z.strictObject(fields);
type Fields = z.output<typeof createBody>;

const CONNECTION: ConnectionField[] = ['Endpoint', 'Account', 'Password'];

/**
 * The connection columns for the host's charging system type (shared HOST_CONNECTION_FIELDS). On update an
 * absent field keeps its value, so a form that never shows the password does not erase it; fields the type
 * does not use are cleared.
 */
function connection(input: Fields, existing?: Record<string, unknown>) {
  const spec = HOST_CONNECTION_FIELDS[input.ChargingSystemType]!;
  const errors: { Field: string; Key: string }[] = [];
  const out: Record<ConnectionField, string | null> = { Endpoint: null, Account: null, Password: null };
  for (const field of CONNECTION) {
    const given = input[field];
    const need = spec[field].need;
    if (need === 'none') {
      if (given) errors.push({ Field: field, Key: 'garage.validation.connectionNotUsed' });
      continue;
    }
    const value = given === undefined ? ((existing?.[field] as string | null) ?? null) : given || null;
    if (need === 'required' && !value) errors.push({ Field: field, Key: 'validation.required' });
    else if (value && spec[field].url && url(value)) errors.push({ Field: field, Key: 'validation.url' });
    out[field] = value;
  }
  if (errors.length) throw new AppError(400, 'error.validation', undefined, { Errors: errors });
  return out;
}

async function assertSerialFree(db: Kysely<Database>, serial: string, exceptId?: number) {
  let query = db.selectFrom('ChargeHost').select('Id').where('SerialNumber', '=', serial);
  if (exceptId !== undefined) query = query.where('Id', '!=', exceptId);
  // Serials are unique across areas: the device layer finds a host by it before knowing its area.
  if (await query.executeTakeFirst()) throw new AppError(409, 'garage.error.serialTaken');
}

async function enrich(ctx: AreaContext, items: Item[]): Promise<Item[]> {
  const sockets = await ctx.db.kysely
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select((eb) => [
      'ChargeEquipment.ChargeHostId',
      'ChargeEquipment.State',
      'ChargeEquipment.Disabled',
      'ChargeHost.ChargingSystemType',
      'ChargeHost.OcppOnline',
      eb.fn.countAll().as('n'),
    ])
    .where(
      'ChargeEquipment.ChargeHostId',
      'in',
      items.map((i) => i.Id),
    )
    .groupBy([
      'ChargeEquipment.ChargeHostId',
      'ChargeEquipment.State',
      'ChargeEquipment.Disabled',
      'ChargeHost.ChargingSystemType',
      'ChargeHost.OcppOnline',
    ])
    .execute();
  const now = ctx.clock.now();
  return items.map((host) => {
    const counts = { idle: 0, occupied: 0, fault: 0, disabled: 0, offline: 0 };
    for (const s of sockets.filter((s) => s.ChargeHostId === host.Id))
      counts[portStateGroup(shownState(s))] += Number(s.n);
    return {
      ...host,
      Online: host.LiveLink
        ? host.Online
        : isHostOnline(host.LastSeenAt === null ? null : Date.parse(host.LastSeenAt), now),
      SocketCount: counts.idle + counts.occupied + counts.fault + counts.disabled + counts.offline,
      SocketsOccupied: counts.occupied,
      SocketsFault: counts.fault,
    };
  });
}

/** Charging hosts (spec screen chargeHost); creating one creates its sockets 1…PortCount. */
export const chargeHostRoutes = defineResource({
  name: 'ChargeHost',
  table: 'ChargeHost',
  tag: 'Garage',
  area: true,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  item: chargeHostItem,
  query: (db) =>
    db
      .selectFrom('ChargeHost')
      .innerJoin('ParkArea', 'ParkArea.Id', 'ChargeHost.ParkAreaId')
      .select([
        'ChargeHost.Id',
        'ChargeHost.SerialNumber',
        'ChargeHost.Name',
        'ChargeHost.ParkAreaId',
        'ParkArea.Name as ZoneName',
        'ChargeHost.PortCount',
        'ChargeHost.ChargingSystemType',
        'ChargeHost.Endpoint',
        'ChargeHost.Account',
        'ChargeHost.Password',
        'ChargeHost.Remark',
        'ChargeHost.Disabled',
        'ChargeHost.LastSeenAt',
        'ChargeHost.OcppOnline',
        'ChargeHost.OcppOfflineAt',
        'ChargeHost.OcppBootInfo',
        'ChargeHost.CreatedAt',
        'ChargeHost.UpdatedAt',
      ]),
  toItem: (row) => {
    const { OcppOnline, OcppOfflineAt, OcppBootInfo, ...fields } = row as Record<string, unknown>;
    const { Password, ...rest } = rowMapper<Item & { Password: string | null }>({
      instants: ['CreatedAt', 'UpdatedAt', 'LastSeenAt'],
    })(fields);
    return {
      ...rest,
      HasPassword: Password !== null,
      ...hostLink({
        ChargingSystemType: rest.ChargingSystemType,
        OcppOnline: OcppOnline as number,
        OcppOfflineAt: OcppOfflineAt as number | null,
        OcppBootInfo: OcppBootInfo as string | null,
      }),
      // Set by enrich (it knows the clock).
      Online: OcppOnline === 1,
      SocketCount: 0,
      SocketsOccupied: 0,
      SocketsFault: 0,
    };
  },
  enrich,
  filters: {
    Keyword: filter.keyword(['ChargeHost.Name', 'ChargeHost.SerialNumber']),
    ParkAreaId: filter.id('ChargeHost.ParkAreaId'),
    ChargingSystemType: filter.oneOf('ChargeHost.ChargingSystemType', chargingSystemType),
    Disabled: filter.flag('ChargeHost.Disabled'),
  },
  sorts: {
    Name: 'ChargeHost.Name',
    SerialNumber: 'ChargeHost.SerialNumber',
    ZoneName: 'ParkArea.Name',
    LastSeenAt: 'ChargeHost.LastSeenAt',
    CreatedAt: 'ChargeHost.CreatedAt',
  },
  timestamps: true,
  unique: [{ fields: ['Name'], key: 'garage.error.hostNameTaken' }],
  create: {
    body: createBody,
    async values(input, ctx, trx) {
      await assertInArea(trx, 'ParkArea', input.ParkAreaId, ctx.areaId, 'ParkAreaId', 'error.notFound');
      await assertSerialFree(trx, input.SerialNumber);
      return {
        SerialNumber: input.SerialNumber,
        Name: input.Name,
        ParkAreaId: input.ParkAreaId,
        PortCount: input.PortCount,
        ChargingSystemType: input.ChargingSystemType,
        Remark: input.Remark || null,
        LastSeenAt: null,
        ...connection(input),
      };
    },
    async after(input, ctx, trx, hostId) {
      const now = ctx.clock.now();
      await trx
        .insertInto('ChargeEquipment')
        .values(
          Array.from({ length: input.PortCount }, (_, i) => ({
            AreaId: ctx.areaId,
            ChargeHostId: hostId,
            PortNumber: i + 1,
            State: 0,
            StateChangedAt: now,
            Remark: null,
            CreatedAt: now,
            UpdatedAt: now,
          })),
        )
        .execute();
    },
  },
  update: {
    body: z.strictObject({ Id: id, ...fields }),
    /** Sockets are not added or removed here; the port count may not drop below a socket's port number. */
    async values(input, ctx, trx, existing) {
      await assertInArea(trx, 'ParkArea', input.ParkAreaId, ctx.areaId, 'ParkAreaId', 'error.notFound');
      await assertSerialFree(trx, input.SerialNumber, input.Id);
      const highest = await trx
        .selectFrom('ChargeEquipment')
        .select((eb) => eb.fn.max('PortNumber').as('max'))
        .where('ChargeHostId', '=', input.Id)
        .executeTakeFirst();
      const max = Number(highest?.max ?? 0);
      if (input.PortCount < max) throw new AppError(409, 'garage.error.portCountBelowSockets', { max });
      return {
        SerialNumber: input.SerialNumber,
        Name: input.Name,
        ParkAreaId: input.ParkAreaId,
        PortCount: input.PortCount,
        ChargingSystemType: input.ChargingSystemType,
        ...(input.Remark !== undefined ? { Remark: input.Remark || null } : {}),
        ...connection(input, existing),
      };
    },
  },
  remove: { check: (ctx, row, trx) => assertNoDependents('ChargeHost', trx, row.Id as number, ctx.lang) },
  status: {},
  export: {
    titleKey: 'garage.title.chargeHost',
    columns: [
      { key: 'SerialNumber', labelKey: 'garage.field.SerialNumber', width: 20 },
      { key: 'Name', labelKey: 'garage.field.HostName', width: 24 },
      { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
      { key: 'PortCount', labelKey: 'garage.field.PortCount', kind: 'number' },
      {
        key: 'ChargingSystemType',
        labelKey: 'garage.field.ChargingSystemType',
        width: 24,
        label: (v, lang) => enumLabel(lang, chargingSystemType, v),
      },
      { key: 'Endpoint', labelKey: 'garage.field.Endpoint', width: 36 },
      { key: 'SocketsOccupied', labelKey: 'garage.field.SocketsOccupied', kind: 'number' },
      { key: 'SocketsFault', labelKey: 'garage.field.SocketsFault', kind: 'number' },
      { key: 'LastSeenAt', labelKey: 'garage.field.LastSeenAt', kind: 'instant' },
      {
        key: 'Disabled',
        labelKey: 'garage.field.Status',
        label: (v, lang) => enumLabel(lang, disabledFlag, v),
      },
    ],
  },
});
