import { ForcedOutageRecordApi, enumLabel, forcedOutageResult } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { placeConditions } from '../charge-record/places.ts';
import { forcePowerOff, forcedOutageView } from './service.ts';

const { powerOff, ...resource } = ForcedOutageRecordApi;

/** The forced power-off of a socket, and the records of every one (spec screen forcedOutageRecords). */
export const forcedOutageRecordRoutes = [
  route(powerOff, ({ body }, ctx) => forcePowerOff(ctx, body)),
  ...implementResource(resource, {
    ...forcedOutageView,
    where: {
      ...placeConditions('ForcedOutageRecord.ChargeEquipmentId'),
      Result: match.equals('ForcedOutageRecord.Result'),
      UserName: match.like('ForcedOutageRecord.UserName'),
      Keyword: match.keyword(['ForcedOutageRecord.Reason', 'ChargeOrder.OrderNo', 'ChargeRecord.CardNumber']),
    },
    sorts: { At: 'ForcedOutageRecord.At' },
    defaultOrder: 'desc',
    timeRange: {
      column: 'ForcedOutageRecord.At',
      requiredForExport: true,
      retention: 'PowerOffRetentionMonths',
    },
    // Pages and counts on the records alone (the keyword looks at the order and session: the whole query);
    // places, sessions and orders joined for the page's rows only. One socket or host starts from its index.
    pageOnTable: { joinedFilters: ['Keyword'], dayCounted: true },
    narrowFilters: ['ChargeEquipmentId', 'ChargeHostId'],
    export: {
      titleKey: 'garage.title.forcedOutageRecords',
      columns: [
        { key: 'At', labelKey: 'garage.field.At', kind: 'instant' },
        { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
        { key: 'HostName', labelKey: 'garage.field.HostName', width: 24 },
        { key: 'PortNumber', labelKey: 'garage.field.PortNumber', kind: 'number' },
        { key: 'OrderNo', labelKey: 'garage.field.OrderNo', width: 24 },
        { key: 'CardNumber', labelKey: 'garage.field.CardNumber', width: 14 },
        { key: 'AmountCents', labelKey: 'garage.field.Amount', kind: 'money' },
        { key: 'Reason', labelKey: 'garage.field.Reason', width: 36 },
        {
          key: 'Result',
          labelKey: 'garage.field.Result',
          width: 24,
          label: (v, lang) => enumLabel(lang, forcedOutageResult, v),
        },
        // Why it was not sent or failed, in the exporter's language (the view's enrich).
        { key: 'ResultText', labelKey: 'garage.field.ResultReason', width: 36 },
        { key: 'UserName', labelKey: 'garage.field.Operator' },
      ],
    },
  }),
];
