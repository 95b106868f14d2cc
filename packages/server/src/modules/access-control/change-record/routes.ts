import { changeType, enumLabel, nation, translate } from '@gatehouse/shared';
import { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import { AC_ALL, TAG } from '../common.ts';
import { HOLDER_FIELDS, type FieldChange } from '../holders/change-log.ts';

/** Change records and renewal records of card holders: read-only lists with exports, newest first. */
const change = z.object({
  Field: z.enum(HOLDER_FIELDS),
  Before: z.string().nullable(),
  After: z.string().nullable(),
});

const changeItem = z.object({
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  ChangeType: z.number(),
  /** Changed fields with display values (labels: accessControl.field.<Field>). */
  Changes: z.array(change),
  OperatorName: z.string(),
  At: z.string(),
});
type ChangeItem = z.infer<typeof changeItem>;

const renewalItem = z.object({
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  OldValidTo: z.string(),
  NewValidTo: z.string(),
  Remark: z.string().nullable(),
  OperatorName: z.string(),
  At: z.string(),
});
type RenewalItem = z.infer<typeof renewalItem>;

export const changeRecordRoutes = defineResource({
  name: 'ChangeRecord',
  table: 'ChangeRecord',
  tag: TAG,
  area: true,
  read: AC_ALL,
  write: AC_ALL,
  item: changeItem,
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
  read: AC_ALL,
  write: AC_ALL,
  item: renewalItem,
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
