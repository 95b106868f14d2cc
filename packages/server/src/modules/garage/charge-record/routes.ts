import { ChargeRecordApi, chargeStopReason, enumLabel } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { isOpen, placeConditions, sessionExportColumns } from './places.ts';
import { chargeRecordItem, chargeRecordQuery, withPlacesAndOrders } from './service.ts';

/** Charging records (spec screen chargeRecords): sessions as measured, read-only. */
export const chargeRecordRoutes = implementResource(ChargeRecordApi, {
  table: 'ChargeRecord',
  query: chargeRecordQuery,
  toItem: chargeRecordItem,
  enrich: withPlacesAndOrders,
  where: {
    CardNumber: match.like('ChargeRecord.CardNumber'),
    ...placeConditions('ChargeRecord.ChargeEquipmentId'),
    StopReason: match.equals('ChargeRecord.StopReason'),
    Open: isOpen('ChargeRecord.EndAt'),
  },
  sorts: { StartAt: 'ChargeRecord.StartAt', EndAt: 'ChargeRecord.EndAt', EnergyWh: 'ChargeRecord.EnergyWh' },
  defaultOrder: 'desc',
  timeRange: {
    column: 'ChargeRecord.StartAt',
    requiredForExport: true,
    retention: 'ChargeRecordRetentionMonths',
  },
  // Pages chosen on the index of (AreaId, StartAt, Id) alone; one socket or host starts from its sockets.
  pageOnTable: { dayCounted: true },
  narrowFilters: ['ChargeEquipmentId', 'ChargeHostId'],
  export: {
    titleKey: 'garage.title.chargeRecords',
    columns: [
      ...sessionExportColumns(),
      { key: 'DurationMinutes', labelKey: 'garage.field.DurationMinutes', kind: 'number' },
      { key: 'EnergyWh', labelKey: 'garage.field.EnergyKWh', kind: 'energy' },
      {
        key: 'StopReason',
        labelKey: 'garage.field.StopReason',
        width: 20,
        label: (v, lang) => enumLabel(lang, chargeStopReason, v),
      },
      { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
      { key: 'AmountCents', labelKey: 'garage.field.Amount', kind: 'money' },
    ],
  },
});
