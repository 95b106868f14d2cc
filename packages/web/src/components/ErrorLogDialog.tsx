import { Button, Modal, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatInZone } from '@gatehouse/shared';
import { DIALOG_MASK } from '../core/feedback.tsx';
import { useSiteZone } from '../core/site-time.ts';
import { useErrorLogStore, type ErrorLogEntry } from '../stores/error-log.ts';
import { useAccessibleTable } from './table-a11y.ts';
import { SiteZoneNote } from './SiteZoneNote.tsx';

/** The collected runtime errors with message, component, info, URL and stack; Clear All empties the log. */
export default function ErrorLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const logs = useErrorLogStore((s) => s.logs);
  const clear = useErrorLogStore((s) => s.clear);
  const tableRef = useAccessibleTable(t('errorLog.title'));
  // Its times on the area's clock like every other time on the screens (issue 27), named where it differs.
  const zone = useSiteZone();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      mask={DIALOG_MASK}
      width="min(1000px, 96vw)"
      title={
        <span>
          {t('errorLog.title')}
          <Button
            size="small"
            danger
            style={{ marginLeft: 16 }}
            onClick={() => {
              clear();
              onClose();
            }}
          >
            {t('errorLog.clearAll')}
          </Button>
          <span style={{ marginLeft: 16, fontWeight: 'normal' }}>
            <SiteZoneNote />
          </span>
        </span>
      }
      footer={null}
      className="error-log-dialog"
    >
      <Table<ErrorLogEntry>
        ref={tableRef}
        rowKey="id"
        size="small"
        dataSource={logs}
        pagination={false}
        scroll={{ y: '60vh' }}
        locale={{ emptyText: t('errorLog.empty') }}
        columns={errorColumns(t, zone)}
      />
    </Modal>
  );
}

/** The log's columns: the error with its component and time, the info, the URL and the stack. */
function errorColumns(t: TFunction, zone: string): ColumnsType<ErrorLogEntry> {
  return [
    {
      title: t('errorLog.message'),
      key: 'message',
      width: 260,
      render: (_, log) => (
        <div>
          <Typography.Text type="danger" strong>
            {log.error}
          </Typography.Text>
          <div>
            <Typography.Text type="secondary">
              {t('errorLog.component')}: {log.component || '-'}
            </Typography.Text>
          </div>
          <div>
            <Typography.Text type="secondary">
              {t('errorLog.time')}: {formatInZone(log.time, zone)}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      title: t('errorLog.info'),
      key: 'info',
      render: (_, log) => <pre className="error-log-pre">{log.info}</pre>,
    },
    {
      title: t('errorLog.url'),
      dataIndex: 'url',
      width: 200,
      render: (url: string) => <span className="error-log-url">{url}</span>,
    },
    {
      title: t('errorLog.stack'),
      key: 'stack',
      render: (_, log) => <pre className="error-log-pre">{log.stack}</pre>,
    },
  ];
}
