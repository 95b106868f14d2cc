import type { ChangeRecordItem, HolderFieldChange } from '@gatehouse/shared';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangeRecordApi, changeType, ACCESS_CONTROL_ANY } from '@gatehouse/shared';
import { ListPage, type ListPageConfig, type TKey } from '../../../components/list-page/index.ts';
import { ChangeTypeTag } from '../cells.tsx';
import { recordRange } from '../record-range.ts';
import '../access-control.css';
import { enumFilter } from '../options.ts';

type FieldChange = HolderFieldChange;

type ChangeRow = ChangeRecordItem;

/** A change record's fields, one per line: label, the value before (struck through) and after. */
function ChangesCell({ changes }: { changes: FieldChange[] }) {
  const { t } = useTranslation();
  if (changes.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <ul className="ac-changes" data-testid="change-detail">
      {changes.map((c) => (
        <li key={c.Field}>
          <Typography.Text strong>{t(`accessControl.field.${c.Field}` as TKey)}</Typography.Text>
          {t('acUi.colon')}
          {c.Before !== null && (
            <>
              <Typography.Text delete type="secondary">
                {c.Before}
              </Typography.Text>
              {' → '}
            </>
          )}
          <Typography.Text>{c.After ?? t('acUi.record.cleared')}</Typography.Text>
        </li>
      ))}
    </ul>
  );
}

/** Change records of card holders (added, modified, disabled, enabled, extended), field by field. */
const config: ListPageConfig<ChangeRow> = {
  api: ChangeRecordApi,
  read: ACCESS_CONTROL_ANY,
  write: [],
  actions: { export: true },
  defaultSort: { field: 'At', order: 'desc' },
  filters: [
    recordRange('accessControl.field.At'),
    enumFilter('ChangeType', 'accessControl.field.ChangeType', changeType, 130),
    {
      name: 'Keyword',
      label: 'adminUi.keyword',
      kind: 'text',
      placeholder: 'acUi.record.holderOrOperator',
      width: 200,
    },
  ],
  columns: [
    { key: 'At', title: 'accessControl.field.At', kind: 'instant', sort: 'At', width: 170 },
    { key: 'HolderName', title: 'accessControl.field.HolderName', width: 110 },
    {
      key: 'ChangeType',
      title: 'accessControl.field.ChangeType',
      width: 110,
      render: (row) => <ChangeTypeTag value={row.ChangeType} />,
    },
    {
      key: 'Changes',
      title: 'accessControl.field.Detail',
      render: (row) => <ChangesCell changes={row.Changes} />,
    },
    { key: 'OperatorName', title: 'accessControl.field.Operator', width: 110 },
  ],
};

export default function ChangeRecordsPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.changeRecords')} />;
}
