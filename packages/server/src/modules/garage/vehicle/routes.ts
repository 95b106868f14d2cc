import { VehicleApi, disabledFlag, type VehicleItem } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { changedVehicle, newVehicle, vehicleItem, vehicleQuery, withActivePass } from './service.ts';

/** Vehicles by plate, linked to card holders or cards; the everyday desk work of both codes. */
export const vehicleRoutes = implementResource(VehicleApi, {
  table: 'Vehicle',
  query: vehicleQuery,
  toItem: vehicleItem,
  enrich: withActivePass,
  where: {
    Keyword: match.keyword([
      'Vehicle.Plate',
      'Vehicle.OwnerName',
      'Vehicle.Phone',
      'Vehicle.CardNumber',
      'Vehicle.CardHolderName',
    ]),
    Plate: match.like('Vehicle.Plate'),
    CardHolderId: match.equals('Vehicle.CardHolderId'),
    CardId: match.equals('Vehicle.CardId'),
    Disabled: match.flag('Vehicle.Disabled'),
  },
  sorts: { Plate: 'Vehicle.Plate', CreatedAt: 'Vehicle.CreatedAt' },
  timestamps: true,
  unique: [{ fields: ['Plate'], key: 'garage.error.plateTaken' }],
  create: { values: newVehicle },
  update: { values: changedVehicle },
  remove: { check: (ctx, row, trx) => assertNoDependents('Vehicle', trx, row.Id as number, ctx.lang) },
  status: {},
  export: {
    titleKey: 'garage.title.vehicle',
    columns: exportColumns('garage.field', {
      Plate: 12,
      OwnerName: 'text',
      Phone: 'text',
      CardHolderName: 'text',
      CardNumber: 14,
      ActivePass: { width: 24, label: (pass: VehicleItem['ActivePass']) => pass?.RuleName ?? '' },
      Disabled: { header: 'Status', enum: disabledFlag },
      Remark: 30,
    }),
  },
});
