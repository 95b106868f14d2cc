import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ACCESS_CONTROL_ANY, MusterApi, type MusterItem } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';

/** Roll calls of the area, newest first, each with its counts; its result opens on the roll call tab. */
function historyList(onView: (id: number) => void): ListPageConfig<MusterItem> {
  return {
    api: MusterApi,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ANY,
    defaultSort: { field: 'StartedAt', order: 'desc' },
    testId: 'muster-history',
    columns: [
      {
        key: 'StartedAt',
        title: 'accessControl.field.StartedAt',
        kind: 'instant',
        sort: 'StartedAt',
        width: 170,
      },
      { key: 'StartedBy', title: 'accessControl.field.StartedBy', width: 120 },
      { key: 'Reason', title: 'accessControl.field.Reason', ellipsis: true },
      {
        key: 'Missing',
        title: 'accessControl.field.Missing',
        width: 260,
        render: (row, tr) => (
          <>
            {row.EndedAt === null && <Tag color="red">{tr('musterUi.history.underWay')}</Tag>}
            {tr('musterUi.history.counts', { total: row.Total, safe: row.Safe, missing: row.Missing })}
          </>
        ),
      },
      { key: 'EndedAt', title: 'accessControl.field.EndedAt', kind: 'instant', width: 170 },
      { key: 'Note', title: 'accessControl.field.Note', secondary: true },
    ],
    rowActions: [
      {
        key: 'view',
        label: 'musterUi.history.view',
        codes: ACCESS_CONTROL_ANY,
        run: (row) => onView(row.Id),
      },
    ],
  };
}

export function MusterHistory({ onView }: { onView: (id: number) => void }) {
  const { t } = useTranslation();
  return <ListPage config={historyList(onView)} title={t('musterUi.tabs.history')} />;
}
