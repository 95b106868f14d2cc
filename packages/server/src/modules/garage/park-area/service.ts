import type { ParkAreaApi, ParkAreaItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { groupCounts, shownStateCounts, socketTotal } from '../charge-equipment/service.ts';
import { assertNoRuleConflicts, idsInArea, setZoneRules } from '../charge-rule/service.ts';
import { columns } from '../common/index.ts';
import { zonePowers } from './power.ts';

type Trx = Kysely<Database>;
type CreateBody = z.output<typeof ParkAreaApi.create.body>;
type UpdateBody = z.output<typeof ParkAreaApi.update.body>;

export const parkAreaQuery = (db: Trx) =>
  db
    .selectFrom('ParkArea')
    .select([
      'ParkArea.Id',
      'ParkArea.Name',
      'ParkArea.Capacity',
      'ParkArea.Location',
      'ParkArea.Remark',
      'ParkArea.Disabled',
      'ParkArea.PowerBudgetW',
      'ParkArea.MaxTemperatureC',
      'ParkArea.CreatedAt',
      'ParkArea.UpdatedAt',
    ]);

const mapRow = rowMapper<ParkAreaItem>({});

export const parkAreaItem = (row: Record<string, unknown>): ParkAreaItem => ({
  ...mapRow(row),
  ChargeRuleIds: [],
  ChargeRules: [],
  HostCount: 0,
  SocketsTotal: 0,
  SocketsOccupied: 0,
  SocketsIdle: 0,
  SocketsFault: 0,
  SocketsDisabled: 0,
  ParkedCount: 0,
  // Set by withOccupancy (it knows the clock: only recent readings are live draw).
  Power: {
    BudgetW: (row.PowerBudgetW as number | null) ?? null,
    DrawW: 0,
    MeteredSockets: 0,
    UnknownSessions: 0,
    State: row.PowerBudgetW === null ? 'none' : 'under',
    OverSince: null,
    LimitedSessions: 0,
  },
  EmergencyStop: null,
});

/** Per page, live: each zone's rules, its sockets by state group through its hosts, and vehicles inside. */
export async function withOccupancy(ctx: AreaContext, items: ParkAreaItem[]): Promise<ParkAreaItem[]> {
  const k = ctx.db.kysely;
  const ids = items.map((i) => i.Id);
  const [links, sockets, hosts, parked] = await Promise.all([
    k
      .selectFrom('ParkAreaChargeRule')
      .innerJoin('ChargeRule', 'ChargeRule.Id', 'ParkAreaChargeRule.ChargeRuleId')
      .select([
        'ParkAreaChargeRule.ParkAreaId',
        'ChargeRule.Id',
        'ChargeRule.Name',
        'ChargeRule.ChargeType',
        'ChargeRule.Disabled',
      ])
      .where('ParkAreaChargeRule.ParkAreaId', 'in', ids)
      .orderBy('ChargeRule.ChargeType')
      .orderBy('ChargeRule.Id')
      .execute(),
    shownStateCounts(k, 'zone', ids),
    k
      .selectFrom('ChargeHost')
      .select((eb) => ['ParkAreaId', eb.fn.countAll().as('n')])
      .where('ParkAreaId', 'in', ids)
      .groupBy('ParkAreaId')
      .execute(),
    k
      .selectFrom('ParkOrder')
      .select((eb) => ['ParkAreaId', eb.fn.countAll().as('n')])
      .where('ParkAreaId', 'in', ids)
      .where('ExitAt', 'is', null)
      .groupBy('ParkAreaId')
      .execute(),
  ]);
  const powers = await zonePowers(k, ids, ctx.clock.now());
  return items.map((zone) => {
    const rules = links
      .filter((l) => l.ParkAreaId === zone.Id)
      .map((l) => ({ Id: l.Id, Name: l.Name, ChargeType: l.ChargeType, Disabled: l.Disabled === 1 }));
    const counts = groupCounts(sockets.get(zone.Id));
    return {
      ...zone,
      ChargeRuleIds: rules.map((r) => r.Id),
      ChargeRules: rules,
      HostCount: Number(hosts.find((h) => h.ParkAreaId === zone.Id)?.n ?? 0),
      SocketsTotal: socketTotal(counts),
      SocketsOccupied: counts.occupied,
      SocketsIdle: counts.idle,
      SocketsOffline: counts.offline,
      SocketsFault: counts.fault,
      SocketsDisabled: counts.disabled,
      ParkedCount: Number(parked.find((p) => p.ParkAreaId === zone.Id)?.n ?? 0),
      Power: powers.get(zone.Id) ?? zone.Power,
    };
  });
}

/** The zone's rules replaced by these (of the area), then the one-rule-per-type check. */
async function linkRules(trx: Trx, ctx: AreaContext, zoneId: number, ruleIds: number[]) {
  await setZoneRules(trx, zoneId, await idsInArea(trx, 'ChargeRule', ruleIds, ctx.areaId, 'ChargeRuleIds'));
  await assertNoRuleConflicts(trx, ctx, [zoneId]);
}

export const newZone = (input: CreateBody) => ({
  Location: null,
  Remark: null,
  ...columns(input, ['ChargeRuleIds']),
});

export const linkNewZone = (input: CreateBody, ctx: AreaContext, trx: Trx, zoneId: number) =>
  linkRules(trx, ctx, zoneId, input.ChargeRuleIds ?? []);

/** ChargeRuleIds, when present, replaces the zone's rules; absent leaves them. */
export async function changedZone(input: UpdateBody, ctx: AreaContext, trx: Trx) {
  if (input.ChargeRuleIds !== undefined) await linkRules(trx, ctx, input.Id, input.ChargeRuleIds);
  return columns(input, ['Id', 'ChargeRuleIds']);
}
