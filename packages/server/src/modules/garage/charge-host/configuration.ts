import type { ChargerConfiguration, ConfigurationKeyReport } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';

/**
 * A charger's configuration as Gatehouse last set it (docs/chargers.md, "Configured by Gatehouse"): what the
 * gateway's configuration pass read, wanted and was answered, one row per host (ChargeHostConfiguration),
 * replaced by the next pass. The pass itself speaks OCPP (gateways/ocpp/configuration.ts); this keeps its
 * result, so every instance shows it whichever one holds the charge point.
 */

/** A pass as the gateway reports it: protocol-free, instants in epoch milliseconds. */
export interface ConfigurationPass {
  at: number;
  trigger: 'boot' | 'operator';
  profiles: string[] | null;
  readError: string | null;
  keys: ConfigurationKeyReport[];
}

/** Stores a host's latest pass over the one before (device actor on a boot, the operator's on "configure"). */
export async function storeChargerConfiguration(
  ctx: AreaContext,
  hostId: number,
  pass: ConfigurationPass,
): Promise<void> {
  const row = {
    CheckedAt: pass.at,
    Trigger: pass.trigger,
    Profiles: pass.profiles === null ? null : JSON.stringify(pass.profiles),
    ReadError: pass.readError,
    Keys: JSON.stringify(pass.keys),
  };
  // The host must be of this area: a device context names its own, an operator's was checked by the route.
  const host = await ctx.db.kysely
    .selectFrom('ChargeHost')
    .select('Id')
    .where('Id', '=', hostId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!host) return;
  await ctx.db.kysely
    .insertInto('ChargeHostConfiguration')
    .values({ ChargeHostId: hostId, ...row })
    .onConflict((oc) => oc.column('ChargeHostId').doUpdateSet(row))
    .execute();
}

/** The latest pass of each host named (absent: none yet), as the API shows it. */
export async function chargerConfigurations(
  db: Kysely<Database>,
  hostIds: number[],
): Promise<Map<number, ChargerConfiguration>> {
  const found = new Map<number, ChargerConfiguration>();
  if (hostIds.length === 0) return found;
  const rows = await db
    .selectFrom('ChargeHostConfiguration')
    .selectAll()
    .where('ChargeHostId', 'in', hostIds)
    .execute();
  for (const row of rows) {
    found.set(row.ChargeHostId, {
      At: new Date(Number(row.CheckedAt)).toISOString(),
      Trigger: row.Trigger === 'operator' ? 'operator' : 'boot',
      Profiles: row.Profiles === null ? null : (JSON.parse(row.Profiles) as string[]),
      ReadError: row.ReadError,
      Keys: JSON.parse(row.Keys) as ConfigurationKeyReport[],
    });
  }
  return found;
}
