import {
  ChargeOrderApi,
  chargeStopReason,
  priceLinePhrase,
  translate,
  type PriceLineItem,
} from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
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
        ...exportColumns('garage.field', {
          OrderNo: 24,
        }),
        ...sessionExportColumns(),
        ...exportColumns('garage.field', {
          RuleName: 20,
          DurationMinutes: 'number',
          EnergyWh: { header: 'EnergyKWh', kind: 'energy' },
          AmountCents: { header: 'Amount', kind: 'money' },
          // The itemised order in one cell, a line a phrase ("Period 22:00–08:00: 0.540 kWh × ¥0.60 / kWh =
          // ¥0.32"), as the order's detail lists them; empty when it cannot be told.
          Lines: {
            header: 'PriceLines',
            width: 60,
            label: (lines: PriceLineItem[] | null, lang) =>
              (lines ?? [])
                .map((line) => priceLinePhrase(line, (key, params) => translate(lang, key, params)))
                .join('; '),
          },
          StopReason: { enum: chargeStopReason, width: 20 },
        }),
        ...paymentExportColumns(),
      ],
    },
  }),
];
