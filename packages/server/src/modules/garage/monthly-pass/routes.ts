import { MonthlyPassApi, chargeType, enumLabel, timeUnit } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { createPass, deletePass, monthlyPassView, renewPass } from './service.ts';

const { sell, renew, deletePass: deleteOp, ...resource } = MonthlyPassApi;

/** Monthly passes: list, sell (both codes), renew (both codes), delete (Admin). */
export const monthlyPassRoutes = [
  route(sell, ({ body }, ctx) => createPass(ctx, body)),
  route(renew, ({ body }, ctx) => renewPass(ctx, body)),
  route(deleteOp, ({ params }, ctx) => deletePass(ctx, params.Id)),
  ...implementResource(resource, {
    ...monthlyPassView,
    where: {
      Plate: match.like('Vehicle.Plate'),
      VehicleId: match.equals('MonthlyPass.VehicleId'),
      ChargeRuleId: match.equals('MonthlyPass.ChargeRuleId'),
      ValidAt: (eb, at) => eb.and([eb('MonthlyPass.StartAt', '<=', at), eb('MonthlyPass.EndAt', '>', at)]),
      EndBefore: match.to('MonthlyPass.EndAt'),
    },
    sorts: { StartAt: 'MonthlyPass.StartAt', EndAt: 'MonthlyPass.EndAt', Plate: 'Vehicle.Plate' },
    defaultOrder: 'desc',
    export: {
      titleKey: 'garage.title.monthlyPass',
      columns: [
        { key: 'Plate', labelKey: 'garage.field.Plate', width: 12 },
        { key: 'OwnerName', labelKey: 'garage.field.OwnerName' },
        { key: 'RuleName', labelKey: 'garage.field.RuleName', width: 20 },
        {
          key: 'ChargeType',
          labelKey: 'garage.field.ChargeType',
          width: 20,
          label: (v, lang) => enumLabel(lang, chargeType, v),
        },
        { key: 'StartAt', labelKey: 'garage.field.StartAt', kind: 'instant' },
        { key: 'EndAt', labelKey: 'garage.field.EndAt', kind: 'instant' },
        { key: 'Units', labelKey: 'garage.field.Units', kind: 'number' },
        {
          key: 'TimeUnit',
          labelKey: 'garage.field.TimeUnit',
          label: (v, lang) => enumLabel(lang, timeUnit, v),
        },
        { key: 'AmountCents', labelKey: 'garage.field.Amount', kind: 'money' },
        { key: 'UserName', labelKey: 'garage.field.Operator' },
      ],
    },
  }),
];
