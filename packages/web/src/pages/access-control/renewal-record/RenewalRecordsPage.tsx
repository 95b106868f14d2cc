import type { RenewalRecordItem } from '@gatehouse/shared';
import { ACCESS_CONTROL_ANY, RenewalRecordApi } from '@gatehouse/shared';
import { useTranslation } from 'react-i18next';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { RENEWAL_DEFAULT_DAYS, recordRange } from '../record-range.ts';

type RenewalRow = RenewalRecordItem;

/**
 * Renewal records: every extension of a holder's validity (old and new end, who, when, remark), opening on
 * the last 30 days since extensions are rare.
 */
const config: ListPageConfig<RenewalRow> = {
  api: RenewalRecordApi,
  read: ACCESS_CONTROL_ANY,
  write: [],
  actions: { export: true },
  defaultSort: { field: 'At', order: 'desc' },
  filters: [
    recordRange('accessControl.field.At', RENEWAL_DEFAULT_DAYS),
    {
      name: 'Keyword',
      label: 'adminUi.keyword',
      kind: 'text',
      placeholder: 'acUi.record.renewalKeyword',
      width: 220,
    },
  ],
  columns: [
    { key: 'At', title: 'accessControl.field.At', kind: 'instant', sort: 'At', width: 170 },
    { key: 'HolderName', title: 'accessControl.field.HolderName', width: 110 },
    { key: 'OldValidTo', title: 'accessControl.field.OldValidTo', kind: 'instant', width: 170 },
    { key: 'NewValidTo', title: 'accessControl.field.NewValidTo', kind: 'instant', width: 170 },
    { key: 'Remark', title: 'accessControl.field.Remark', ellipsis: true },
    { key: 'OperatorName', title: 'accessControl.field.Operator', width: 110 },
  ],
};

export default function RenewalRecordsPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.renewalRecords')} />;
}
