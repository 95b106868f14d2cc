import { ParkAreaApi, disabledFlag, enumLabel, type ParkAreaItem } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { zoneOfRuleCondition } from '../charge-rule/service.ts';
import { changedZone, linkNewZone, newZone, parkAreaItem, parkAreaQuery, withOccupancy } from './service.ts';

/** Parking zones (spec screen parkArea). */
export const parkAreaRoutes = implementResource(ParkAreaApi, {
  table: 'ParkArea',
  query: parkAreaQuery,
  toItem: parkAreaItem,
  enrich: withOccupancy,
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
    columns: [
      { key: 'Name', labelKey: 'garage.field.ZoneName', width: 24 },
      { key: 'Capacity', labelKey: 'garage.field.Capacity', kind: 'number' },
      { key: 'Location', labelKey: 'garage.field.Location', width: 30 },
      {
        key: 'ChargeRules',
        labelKey: 'garage.field.ChargeRules',
        width: 40,
        label: (rules: ParkAreaItem['ChargeRules']) => rules.map((r) => r.Name).join(', '),
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
