import { ParkAreaApi, disabledFlag, type ParkAreaItem } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { zoneOfRuleCondition } from '../charge-rule/service.ts';
import { withEmergencyStops } from './emergency-state.ts';
import { changedZone, linkNewZone, newZone, parkAreaItem, parkAreaQuery, withOccupancy } from './service.ts';

/** Parking zones (spec screen parkArea). */
export const parkAreaRoutes = implementResource(ParkAreaApi, {
  table: 'ParkArea',
  query: parkAreaQuery,
  toItem: parkAreaItem,
  enrich: async (ctx, items) => withEmergencyStops(ctx, await withOccupancy(ctx, items)),
  where: {
    Name: match.like('ParkArea.Name'),
    Disabled: match.flag('ParkArea.Disabled'),
    ChargeRuleId: zoneOfRuleCondition,
  },
  sorts: { Name: 'ParkArea.Name', Capacity: 'ParkArea.Capacity', CreatedAt: 'ParkArea.CreatedAt' },
  timestamps: true,
  unique: [{ fields: ['Name'], key: 'garage.error.zoneNameTaken' }],
  create: { values: newZone, after: linkNewZone },
  update: { values: changedZone },
  remove: { check: (ctx, row, trx) => assertNoDependents('ParkArea', trx, row.Id as number, ctx.lang) },
  status: {},
  export: {
    titleKey: 'garage.title.parkArea',
    columns: exportColumns('garage.field', {
      Name: { header: 'ZoneName', width: 24 },
      Capacity: 'number',
      Location: 30,
      ChargeRules: {
        width: 40,
        label: (rules: ParkAreaItem['ChargeRules']) => rules.map((r) => r.Name).join(', '),
      },
      HostCount: 'number',
      SocketsTotal: 'number',
      SocketsOccupied: 'number',
      // The zone's power budget (W) as set: the live draw against it changes by the second and is no sheet's.
      PowerBudgetW: 'number',
      ParkedCount: 'number',
      Disabled: { header: 'Status', enum: disabledFlag },
      Remark: 30,
    }),
  },
});
