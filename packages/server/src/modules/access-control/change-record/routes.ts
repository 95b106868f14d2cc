import {
  ChangeRecordApi,
  RenewalRecordApi,
  changeType,
  translate,
  type HolderFieldChange,
} from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { enumColumn } from '../common.ts';
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
    columns: [
      { key: 'At', labelKey: 'accessControl.field.At', kind: 'instant' },
      { key: 'HolderName', labelKey: 'accessControl.field.HolderName' },
      enumColumn('ChangeType', 'ChangeType', changeType),
      {
        key: 'Changes',
        labelKey: 'accessControl.field.Detail',
        width: 60,
        label: (v: HolderFieldChange[], lang) =>
          v
            .map(
              (c) =>
                `${translate(lang, `accessControl.field.${c.Field}`)}: ${c.Before ?? '-'} → ${c.After ?? '-'}`,
            )
            .join('; '),
      },
      { key: 'OperatorName', labelKey: 'accessControl.field.Operator' },
    ],
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
    columns: [
      { key: 'At', labelKey: 'accessControl.field.At', kind: 'instant' },
      { key: 'HolderName', labelKey: 'accessControl.field.HolderName' },
      { key: 'OldValidTo', labelKey: 'accessControl.field.OldValidTo', kind: 'instant' },
      { key: 'NewValidTo', labelKey: 'accessControl.field.NewValidTo', kind: 'instant' },
      { key: 'Remark', labelKey: 'accessControl.field.Remark', width: 24 },
      { key: 'OperatorName', labelKey: 'accessControl.field.Operator' },
    ],
  },
});
