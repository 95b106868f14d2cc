import { ParkOrderApi } from '@gatehouse/shared';
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
        { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
        { key: 'Plate', labelKey: 'garage.field.Plate', width: 12 },
        { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
        { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
        { key: 'EntryAt', labelKey: 'garage.field.EntryAt', kind: 'instant' },
        { key: 'ExitAt', labelKey: 'garage.field.ExitAt', kind: 'instant' },
        { key: 'DurationMinutes', labelKey: 'garage.field.DurationMinutes', kind: 'number' },
        { key: 'RuleName', labelKey: 'garage.field.RuleName', width: 20 },
        { key: 'AmountCents', labelKey: 'garage.field.Fee', kind: 'money' },
        ...paymentExportColumns(),
      ],
    },
  }),
];
