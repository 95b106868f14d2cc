import { MonthlyPassApi, chargeType, timeUnit } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
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
      columns: exportColumns('garage.field', {
        Plate: 12,
        OwnerName: 'text',
        RuleName: 20,
        ChargeType: { enum: chargeType, width: 20 },
        StartAt: 'instant',
        EndAt: 'instant',
        Units: 'number',
        TimeUnit: { enum: timeUnit },
        AmountCents: { header: 'Amount', kind: 'money' },
        UserName: { header: 'Operator' },
      }),
    },
  }),
];
