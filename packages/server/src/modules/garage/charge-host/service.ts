import {
  HOST_CONNECTION_FIELDS,
  url,
  type ChargeHostBody,
  type ChargeHostItem,
  type ConnectionField,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import {
  groupCounts,
  insertHostSockets,
  shownStateCounts,
  socketTotal,
} from '../charge-equipment/service.ts';
import { assertInArea } from '../common/index.ts';
import { hostLink } from '../common/liveness.ts';
import { chargerConfigurations } from './configuration.ts';
import { openHeatAlarms } from './heat-alarm.ts';

type Trx = Kysely<Database>;

export const chargeHostQuery = (db: Kysely<Database>) =>
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
      'ChargeHost.MaxPowerW',
      'ChargeHost.CreatedAt',
      'ChargeHost.UpdatedAt',
    ]);

const mapRow = rowMapper<ChargeHostItem & { Password: string | null }>({
  instants: ['CreatedAt', 'UpdatedAt', 'LastSeenAt'],
});

/** A host row as the API shows it: never its password, its live link, its sockets counted per page. */
export function chargeHostItem(row: Record<string, unknown>): ChargeHostItem {
  const { OcppOnline, OcppOfflineAt, OcppBootInfo, ...fields } = row;
  const { Password, ...rest } = mapRow(fields);
  return {
    ...rest,
    HasPassword: Password !== null,
    ...hostLink({
      ChargingSystemType: rest.ChargingSystemType,
      OcppOnline: OcppOnline as number,
      OcppOfflineAt: OcppOfflineAt as number | null,
      OcppBootInfo: OcppBootInfo as string | null,
    }),
    // Set by withPresence (it knows the clock).
    Online: OcppOnline === 1,
    SocketCount: 0,
    SocketsOccupied: 0,
    SocketsFault: 0,
    Configuration: null,
    HeatAlarm: null,
  };
}

/**
 * Per page: whether each host is online now, its sockets by state group, its charger's last configuration, its
 * open heat alarm.
 */
export async function withPresence(ctx: AreaContext, items: ChargeHostItem[]): Promise<ChargeHostItem[]> {
  const ids = items.map((i) => i.Id);
  const states = await shownStateCounts(ctx.db.kysely, 'host', ids);
  const configurations = await chargerConfigurations(
    ctx.db.kysely,
    items.filter((i) => i.LiveLink).map((i) => i.Id),
  );
  const heat = await openHeatAlarms(ctx.db.kysely, ids);
  return items.map((host) => {
    const counts = groupCounts(states.get(host.Id));
    return {
      ...host,
      // Only a charge point's live connection says a host is online (isHostRowOnline): a host no protocol
      // drives is never shown online, whatever it last reported.
      Online: host.LiveLink && host.Online,
      SocketCount: socketTotal(counts),
      SocketsOccupied: counts.occupied,
      SocketsFault: counts.fault,
      Configuration: configurations.get(host.Id) ?? null,
      HeatAlarm: heat.get(host.Id) ?? null,
    };
  });
}

const CONNECTION: ConnectionField[] = ['Endpoint', 'Account', 'Password'];

/**
 * The connection columns for the host's charging system type (shared HOST_CONNECTION_FIELDS). On update an
 * absent field keeps its value, so a form that never shows the password does not erase it; fields the type
 * does not use are cleared.
 */
function connection(input: ChargeHostBody, existing?: Record<string, unknown>) {
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

/** Its zone is in the area, and its serial is free everywhere (the device layer finds a host by it). */
async function assertPlaceAndSerial(trx: Trx, ctx: AreaContext, input: ChargeHostBody, exceptId?: number) {
  await assertInArea(trx, 'ParkArea', input.ParkAreaId, ctx.areaId, 'ParkAreaId', 'error.notFound');
  let query = trx.selectFrom('ChargeHost').select('Id').where('SerialNumber', '=', input.SerialNumber);
  if (exceptId !== undefined) query = query.where('Id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw new AppError(409, 'garage.error.serialTaken');
}

/** The columns a host body sets, the connection checked for its type. */
const hostColumns = (input: ChargeHostBody) => ({
  SerialNumber: input.SerialNumber,
  Name: input.Name,
  ParkAreaId: input.ParkAreaId,
  PortCount: input.PortCount,
  ChargingSystemType: input.ChargingSystemType,
});

export async function newHost(input: ChargeHostBody, ctx: AreaContext, trx: Trx) {
  await assertPlaceAndSerial(trx, ctx, input);
  return {
    ...hostColumns(input),
    Remark: input.Remark || null,
    MaxPowerW: input.MaxPowerW ?? null,
    LastSeenAt: null,
    ...connection(input),
  };
}

/** A new host's sockets: ports 1…PortCount, idle until their device reports (written by charge-equipment). */
export async function addHostSockets(input: ChargeHostBody, ctx: AreaContext, trx: Trx, hostId: number) {
  await insertHostSockets(trx, ctx.areaId, hostId, input.PortCount, ctx.clock.now());
}

/** Sockets are not added or removed here; the port count may not drop below a socket's port number. */
export async function changedHost(
  input: ChargeHostBody & { Id: number },
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  await assertPlaceAndSerial(trx, ctx, input, input.Id);
  const highest = await trx
    .selectFrom('ChargeEquipment')
    .select((eb) => eb.fn.max('PortNumber').as('max'))
    .where('ChargeHostId', '=', input.Id)
    .executeTakeFirst();
  const max = Number(highest?.max ?? 0);
  if (input.PortCount < max) throw new AppError(409, 'garage.error.portCountBelowSockets', { max });
  return {
    ...hostColumns(input),
    ...(input.Remark !== undefined ? { Remark: input.Remark || null } : {}),
    // Absent keeps the host's own power limit (a form without the field does not erase it).
    ...(input.MaxPowerW !== undefined ? { MaxPowerW: input.MaxPowerW } : {}),
    ...connection(input, existing),
  };
}
