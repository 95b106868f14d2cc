import { ParkOrderApi } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { isOpen } from '../charge-record/places.ts';
import { orderActionRoutes, paymentExportColumns } from '../common/orders.ts';
import { parkOrderById, parkOrderView } from './service.ts';

const { Close, Refund, CancelRefund, RetryRefund, ...resource } = ParkOrderApi;

/** Temporary parking orders (spec screen parkorderRecords): list, detail, export and the payment actions. */
export const parkOrderRoutes = [
  ...orderActionRoutes('ParkOrder', { Close, Refund, CancelRefund, RetryRefund }, parkOrderById),
  ...implementResource(resource, {
    ...parkOrderView,
    where: {
      OrderNo: match.like('ParkOrder.OrderNo'),
      Plate: match.like('ParkOrder.Plate'),
      CardNumber: match.like('ParkOrder.CardNumber'),
      Keyword: match.keyword(['ParkOrder.Plate', 'ParkOrder.CardNumber', 'ParkOrder.OrderNo']),
      ParkAreaId: match.equals('ParkOrder.ParkAreaId'),
      ChargeRuleId: match.equals('ParkOrder.ChargeRuleId'),
      VehicleId: match.equals('ParkOrder.VehicleId'),
      PaymentState: match.equals('ParkOrder.PaymentState'),
      ChargeType: match.equals('ParkOrder.ChargeType'),
      Inside: isOpen('ParkOrder.ExitAt'),
    },
    sorts: {
      EntryAt: 'ParkOrder.EntryAt',
      ExitAt: 'ParkOrder.ExitAt',
      AmountCents: 'ParkOrder.AmountCents',
      PaymentState: 'ParkOrder.PaymentState',
    },
    defaultOrder: 'desc',
    timeRange: {
      column: 'ParkOrder.EntryAt',
      requiredForExport: true,
      retention: 'ParkOrderRetentionMonths',
    },
    // Pages and counts on ParkOrder alone; the zone's and rule's names joined for the page's rows only.
    pageOnTable: { dayCounted: true },
    export: {
      titleKey: 'garage.title.parkorderRecords',
      columns: [
        ...exportColumns('garage.field', {
          OrderNo: 24,
          Plate: 12,
          CardNumber: 14,
          ZoneName: 20,
          EntryAt: 'instant',
          ExitAt: 'instant',
          DurationMinutes: 'number',
          RuleName: 20,
          AmountCents: { header: 'Fee', kind: 'money' },
        }),
        ...paymentExportColumns(),
      ],
    },
  }),
];
