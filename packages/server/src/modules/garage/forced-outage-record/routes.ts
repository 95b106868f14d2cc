import { ForcedOutageRecordApi, forcedOutageResult } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
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
      columns: exportColumns('garage.field', {
        At: 'instant',
        ZoneName: 20,
        HostName: 24,
        PortNumber: 'number',
        OrderNo: 24,
        CardNumber: 14,
        AmountCents: { header: 'Amount', kind: 'money' },
        Reason: 36,
        Result: { enum: forcedOutageResult, width: 24 },
        // Why it was not sent or failed, in the exporter's language (the view's enrich).
        ResultText: { header: 'ResultReason', width: 36 },
        UserName: { header: 'Operator' },
      }),
    },
  }),
];
