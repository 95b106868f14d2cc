import { ChargeOrderApi, chargeStopReason, enumLabel } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { isOpen, placeConditions, sessionConditions, sessionExportColumns } from '../charge-record/places.ts';
import { orderActionRoutes, paymentExportColumns } from '../common/orders.ts';
import { chargeOrderById, chargeOrderView } from './service.ts';

const { Close, Refund, CancelRefund, RetryRefund, ...resource } = ChargeOrderApi;

/** Charging orders (spec screen chargeorderRecords): list, detail, export and the payment actions. */
export const chargeOrderRoutes = [
  ...orderActionRoutes('ChargeOrder', { Close, Refund, CancelRefund, RetryRefund }, chargeOrderById),
  ...implementResource(resource, {
    ...chargeOrderView,
    where: {
      OrderNo: match.like('ChargeOrder.OrderNo'),
      PaymentState: match.equals('ChargeOrder.PaymentState'),
      ChargeType: match.equals('ChargeOrder.ChargeType'),
      ChargeRuleId: match.equals('ChargeOrder.ChargeRuleId'),
      ChargeRecordId: match.equals('ChargeOrder.ChargeRecordId'),
      Open: isOpen('ChargeOrder.SettledAt'),
      ...sessionConditions('ChargeOrder.ChargeRecordId'),
      // The place from the order's own copy of its socket (its own index), not through its session.
      ...placeConditions('ChargeOrder.ChargeEquipmentId'),
    },
    sorts: {
      StartAt: 'ChargeOrder.CreatedAt',
      AmountCents: 'ChargeOrder.AmountCents',
      PaymentState: 'ChargeOrder.PaymentState',
      UpdatedAt: 'ChargeOrder.UpdatedAt',
    },
    defaultOrder: 'desc',
    timeRange: {
      column: 'ChargeOrder.CreatedAt',
      requiredForExport: true,
      retention: 'ChargeRecordRetentionMonths',
    },
    // Pages chosen on the orders' indexes alone; one session, socket or host starts from its own index.
    pageOnTable: { dayCounted: true },
    narrowFilters: ['ChargeRecordId', 'ChargeEquipmentId', 'ChargeHostId'],
    export: {
      titleKey: 'garage.title.chargeorderRecords',
      columns: [
        { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
        ...sessionExportColumns(),
        { key: 'RuleName', labelKey: 'garage.field.RuleName', width: 20 },
        { key: 'DurationMinutes', labelKey: 'garage.field.DurationMinutes', kind: 'number' },
        { key: 'EnergyWh', labelKey: 'garage.field.EnergyKWh', kind: 'energy' },
        { key: 'AmountCents', labelKey: 'garage.field.Amount', kind: 'money' },
        {
          key: 'StopReason',
          labelKey: 'garage.field.StopReason',
          width: 20,
          label: (v, lang) => enumLabel(lang, chargeStopReason, v),
        },
        ...paymentExportColumns(),
      ],
    },
  }),
];
