import {
  ChangeRecordApi,
  RenewalRecordApi,
  changeType,
  translate,
  type HolderFieldChange,
} from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import {
  changeRecordQuery,
  renewalRecordQuery,
  toChangeItem,
  toRenewalItem,
  withNationLabels,
} from './service.ts';

/** Change records of card holders: read-only, newest first, exported with a time range. */
export const changeRecordRoutes = implementResource(ChangeRecordApi, {
  table: 'ChangeRecord',
  query: changeRecordQuery,
  toItem: toChangeItem,
  enrich: withNationLabels,
  where: {
    ChangeType: match.equals('ChangeRecord.ChangeType'),
    CardUserId: match.equals('ChangeRecord.CardUserId'),
    Keyword: match.keyword(['ChangeRecord.HolderName', 'ChangeRecord.OperatorName']),
  },
  sorts: { At: 'ChangeRecord.At' },
  defaultOrder: 'desc',
  timeRange: { column: 'ChangeRecord.At', requiredForExport: true },
  export: {
    titleKey: 'accessControl.title.changeRecord',
    columns: exportColumns('accessControl.field', {
      At: 'instant',
      HolderName: 'text',
      ChangeType: { enum: changeType },
      Changes: {
        header: 'Detail',
        width: 60,
        label: (v: HolderFieldChange[], lang) =>
          v
            .map(
              (c) =>
                `${translate(lang, `accessControl.field.${c.Field}`)}: ${c.Before ?? '-'} → ${c.After ?? '-'}`,
            )
            .join('; '),
      },
      OperatorName: { header: 'Operator' },
    }),
  },
});

/** Renewal records: every extension of a holder's validity, read-only, newest first. */
export const renewalRecordRoutes = implementResource(RenewalRecordApi, {
  table: 'RenewalRecord',
  query: renewalRecordQuery,
  toItem: toRenewalItem,
  where: {
    CardUserId: match.equals('RenewalRecord.CardUserId'),
    Keyword: match.keyword([
      'RenewalRecord.HolderName',
      'RenewalRecord.OperatorName',
      'RenewalRecord.Remark',
    ]),
  },
  sorts: { At: 'RenewalRecord.At' },
  defaultOrder: 'desc',
  timeRange: { column: 'RenewalRecord.At', requiredForExport: true },
  export: {
    titleKey: 'accessControl.title.renewalRecord',
    columns: exportColumns('accessControl.field', {
      At: 'instant',
      HolderName: 'text',
      OldValidTo: 'instant',
      NewValidTo: 'instant',
      Remark: 24,
      OperatorName: { header: 'Operator' },
    }),
  },
});
