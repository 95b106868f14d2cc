import { EXPORT_MANAGERS, ExportJobApi } from '@gatehouse/shared';
import { Alert, Progress, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  downloadExport,
  ListPage,
  type ExportJob,
  type ListPageConfig,
} from '../../../components/list-page/index.ts';
import { useAreaStore } from '../../../stores/area.ts';

type JobRow = ExportJob;

const STATUS_COLOURS: Record<ExportJob['Status'], string> = {
  pending: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  expired: 'warning',
};

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The area's export jobs: status, progress, rows, size, who and when; download and delete. */
const config: ListPageConfig<JobRow> = {
  api: ExportJobApi,
  read: EXPORT_MANAGERS,
  write: EXPORT_MANAGERS,
  actions: { remove: true },
  filters: [
    { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'adminUi.exportKeyword' },
    {
      name: 'Status',
      label: 'admin.field.Status',
      kind: 'select',
      options: {
        kind: 'static',
        options: (t) =>
          (['pending', 'running', 'done', 'failed', 'expired'] as const).map((s) => ({
            value: s,
            label: t(`admin.exportStatus.${s}`),
          })),
      },
    },
    { name: 'Created', label: 'admin.field.CreatedAt', kind: 'dateRange' },
  ],
  columns: [
    { key: 'Title', title: 'admin.field.Title', width: 160 },
    {
      key: 'Status',
      title: 'admin.field.Status',
      width: 110,
      render: (row, tr) => (
        <Tag color={STATUS_COLOURS[row.Status]} title={row.Error ?? undefined}>
          {tr(`admin.exportStatus.${row.Status}`)}
        </Tag>
      ),
    },
    {
      key: 'Progress',
      title: 'admin.field.Progress',
      width: 140,
      render: (row, tr) => (
        <Progress
          aria-label={tr('admin.field.Progress')}
          percent={row.Progress}
          size="small"
          status={row.Status === 'failed' ? 'exception' : undefined}
        />
      ),
    },
    { key: 'RowCount', title: 'admin.field.RowCount', width: 90 },
    {
      key: 'Size',
      title: 'admin.field.Size',
      width: 100,
      render: (row) => (row.Size ? size(row.Size) : '-'),
    },
    { key: 'UserName', title: 'admin.field.Operator', width: 120 },
    { key: 'CreatedAt', title: 'admin.field.CreatedAt', kind: 'instant', width: 170 },
    { key: 'ExpiresAt', title: 'admin.field.ExpiresAt', kind: 'instant', width: 170 },
  ],
  rowActions: [
    {
      key: 'download',
      label: 'adminUi.download',
      visible: (row) => row.Status === 'done',
      run: (row) => downloadExport(row),
    },
  ],
};

export default function ExportLogPage() {
  const { t } = useTranslation();
  const hasArea = useAreaStore((s) => s.areas.length > 0);
  // Jobs belong to an area: without one the list could only fail. Say why, and what to do.
  if (!hasArea)
    return <Alert type="info" showIcon data-testid="export-no-area" title={t('adminUi.exportNoArea')} />;
  // Jobs run in the background (an export in parts is several): the log follows them until they finish.
  return (
    <ListPage
      config={config}
      title={t('route.exportLog')}
      refetchWhile={(rows) => rows.some((row) => row.Status === 'pending' || row.Status === 'running')}
    />
  );
}
