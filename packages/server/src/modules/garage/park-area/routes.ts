import {
  disabledFlag,
  enumLabel,
  portStateGroup,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  parkAreaItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { id } from '../../../platform/schemas.ts';
import { columns, optionalText } from '../common.ts';
import { shownState } from '../liveness.ts';
import { assertNoRuleConflicts, idsInArea, setZoneRules } from '../charge-rule/service.ts';

type Item = z.infer<typeof parkAreaItem>;

const fields = {
  Name: z.string().trim().min(1).max(50),
  Capacity: z.number().int().min(0).max(100_000),
  Location: optionalText(100),
  Remark: optionalText(200),
  ChargeRuleIds: z.array(id).max(50).optional(),
};

/** Occupancy per zone, live: sockets by state group through their hosts, and vehicles inside. */
async function enrich(ctx: AreaContext, items: Item[]): Promise<Item[]> {
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
    k
      .selectFrom('ChargeEquipment')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select((eb) => [
        'ChargeHost.ParkAreaId',
        'ChargeEquipment.State',
        'ChargeEquipment.Disabled',
        'ChargeHost.ChargingSystemType',
        'ChargeHost.OcppOnline',
        eb.fn.countAll().as('n'),
      ])
      .where('ChargeHost.ParkAreaId', 'in', ids)
      .groupBy([
        'ChargeHost.ParkAreaId',
        'ChargeEquipment.State',
        'ChargeEquipment.Disabled',
        'ChargeHost.ChargingSystemType',
        'ChargeHost.OcppOnline',
      ])
      .execute(),
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
  return items.map((zone) => {
    const rules = links
      .filter((l) => l.ParkAreaId === zone.Id)
      .map((l) => ({ Id: l.Id, Name: l.Name, ChargeType: l.ChargeType, Disabled: l.Disabled === 1 }));
    const counts = { idle: 0, occupied: 0, fault: 0, disabled: 0, offline: 0 };
    for (const s of sockets.filter((s) => s.ParkAreaId === zone.Id))
      counts[portStateGroup(shownState(s))] += Number(s.n);
    return {
      ...zone,
      ChargeRuleIds: rules.map((r) => r.Id),
      ChargeRules: rules,
      HostCount: Number(hosts.find((h) => h.ParkAreaId === zone.Id)?.n ?? 0),
      SocketsTotal: counts.idle + counts.occupied + counts.fault + counts.disabled + counts.offline,
      SocketsOccupied: counts.occupied,
      SocketsIdle: counts.idle,
      SocketsFault: counts.fault,
      SocketsDisabled: counts.disabled,
      ParkedCount: Number(parked.find((p) => p.ParkAreaId === zone.Id)?.n ?? 0),
    };
  });
}

/** Parking zones (spec screen parkArea). */
export const parkAreaRoutes = defineResource({
  name: 'ParkArea',
  table: 'ParkArea',
  tag: 'Garage',
  area: true,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  item: parkAreaItem,
  query: (db) =>
    db
      .selectFrom('ParkArea')
      .select([
        'ParkArea.Id',
        'ParkArea.Name',
        'ParkArea.Capacity',
        'ParkArea.Location',
        'ParkArea.Remark',
        'ParkArea.Disabled',
        'ParkArea.CreatedAt',
        'ParkArea.UpdatedAt',
      ]),
  toItem: (row) => ({
    ...rowMapper<Item>({})(row),
    ChargeRuleIds: [],
    ChargeRules: [],
    HostCount: 0,
    SocketsTotal: 0,
    SocketsOccupied: 0,
    SocketsIdle: 0,
    SocketsFault: 0,
    SocketsDisabled: 0,
    ParkedCount: 0,
  }),
  enrich,
  filters: {
    Name: filter.like('ParkArea.Name'),
    Disabled: filter.flag('ParkArea.Disabled'),
    ChargeRuleId: {
      schema: id,
      where: (eb, ruleId: number) =>
        eb(
          'ParkArea.Id',
          'in',
          eb
            .selectFrom('ParkAreaChargeRule')
            .select('ParkAreaChargeRule.ParkAreaId')
            .where('ParkAreaChargeRule.ChargeRuleId', '=', ruleId),
        ),
    },
  },
  sorts: { Name: 'ParkArea.Name', Capacity: 'ParkArea.Capacity', CreatedAt: 'ParkArea.CreatedAt' },
  timestamps: true,
  unique: [{ fields: ['Name'], key: 'garage.error.zoneNameTaken' }],
  create: {
    body: z.strictObject(fields),
    values: (input) => ({ Location: null, Remark: null, ...columns(input, ['ChargeRuleIds']) }),
    async after(input, ctx, trx, zoneId) {
      const ruleIds = await idsInArea(
        trx,
        'ChargeRule',
        input.ChargeRuleIds ?? [],
        ctx.areaId,
        'ChargeRuleIds',
      );
      await setZoneRules(trx, zoneId, ruleIds);
      await assertNoRuleConflicts(trx, ctx, [zoneId]);
    },
  },
  update: {
    body: z.strictObject({ Id: id, ...fields }),
    /** ChargeRuleIds, when present, replaces the zone's rules; absent leaves them. */
    async values(input, ctx, trx) {
      if (input.ChargeRuleIds !== undefined) {
        const ruleIds = await idsInArea(trx, 'ChargeRule', input.ChargeRuleIds, ctx.areaId, 'ChargeRuleIds');
        await setZoneRules(trx, input.Id, ruleIds);
        await assertNoRuleConflicts(trx, ctx, [input.Id]);
      }
      return columns(input, ['Id', 'ChargeRuleIds']);
    },
  },
  remove: { check: (ctx, row, trx) => assertNoDependents('ParkArea', trx, row.Id as number, ctx.lang) },
  status: {},
  export: {
    titleKey: 'garage.title.parkArea',
    columns: [
      { key: 'Name', labelKey: 'garage.field.ZoneName', width: 24 },
      { key: 'Capacity', labelKey: 'garage.field.Capacity', kind: 'number' },
      { key: 'Location', labelKey: 'garage.field.Location', width: 30 },
      {
        key: 'ChargeRules',
        labelKey: 'garage.field.ChargeRules',
        width: 40,
        label: (rules: Item['ChargeRules']) => rules.map((r) => r.Name).join(', '),
      },
      { key: 'HostCount', labelKey: 'garage.field.HostCount', kind: 'number' },
      { key: 'SocketsTotal', labelKey: 'garage.field.SocketsTotal', kind: 'number' },
      { key: 'SocketsOccupied', labelKey: 'garage.field.SocketsOccupied', kind: 'number' },
      { key: 'ParkedCount', labelKey: 'garage.field.ParkedCount', kind: 'number' },
      {
        key: 'Disabled',
        labelKey: 'garage.field.Status',
        label: (v, lang) => enumLabel(lang, disabledFlag, v),
      },
      { key: 'Remark', labelKey: 'garage.field.Remark', width: 30 },
    ],
  },
});
