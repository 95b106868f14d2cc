import {
  changeType,
  enumLabel,
  nation,
  translate,
  ACCESS_CONTROL_ANY,
  changeRecordItem,
  renewalRecordItem,
} from '@gatehouse/shared';
import type { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import { TAG } from '../common.ts';
import { type FieldChange } from '../card-user/change-log.ts';

type ChangeItem = z.infer<typeof changeRecordItem>;

type RenewalItem = z.infer<typeof renewalRecordItem>;

export const changeRecordRoutes = defineResource({
  name: 'ChangeRecord',
  table: 'ChangeRecord',
  tag: TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  item: changeRecordItem,
  query: (db) =>
    db
      .selectFrom('ChangeRecord')
      .select(['Id', 'CardUserId', 'HolderName', 'ChangeType', 'Detail', 'OperatorName', 'At']),
  toItem: ({ Detail, ...row }) => ({
    ...rowMapper<ChangeItem>({ instants: ['At'] })(row),
    Changes: Detail ? (JSON.parse(Detail as string) as FieldChange[]) : [],
  }),
  /** Nations are kept as ids and shown in the reader's language. */
  async enrich(ctx, items) {
    const label = (v: string | null) => (v === null ? null : enumLabel(ctx.lang, nation, Number(v)));
    return items.map((i) => ({
      ...i,
      Changes: i.Changes.map((c) =>
        c.Field === 'Nation' ? { ...c, Before: label(c.Before), After: label(c.After) } : c,
      ),
    }));
  },
  filters: {
    ChangeType: filter.oneOf('ChangeRecord.ChangeType', changeType),
    CardUserId: filter.id('ChangeRecord.CardUserId'),
    Keyword: filter.keyword(['ChangeRecord.HolderName', 'ChangeRecord.OperatorName']),
  },
  sorts: { At: 'ChangeRecord.At' },
  defaultOrder: 'desc',
  timeRange: { column: 'ChangeRecord.At', requiredForExport: true },
  export: {
    titleKey: 'accessControl.title.changeRecord',
    columns: [
      { key: 'At', labelKey: 'accessControl.field.At', kind: 'instant' },
      { key: 'HolderName', labelKey: 'accessControl.field.HolderName' },
      {
        key: 'ChangeType',
        labelKey: 'accessControl.field.ChangeType',
        label: (v, lang) => enumLabel(lang, changeType, v),
      },
      {
        key: 'Changes',
        labelKey: 'accessControl.field.Detail',
        width: 60,
        label: (v: FieldChange[], lang) =>
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

export const renewalRecordRoutes = defineResource({
  name: 'RenewalRecord',
  table: 'RenewalRecord',
  tag: TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  item: renewalRecordItem,
  query: (db) =>
    db
      .selectFrom('RenewalRecord')
      .select(['Id', 'CardUserId', 'HolderName', 'OldValidTo', 'NewValidTo', 'Remark', 'OperatorName', 'At']),
  toItem: rowMapper<RenewalItem>({ instants: ['OldValidTo', 'NewValidTo', 'At'] }),
  filters: {
    CardUserId: filter.id('RenewalRecord.CardUserId'),
    Keyword: filter.keyword([
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
