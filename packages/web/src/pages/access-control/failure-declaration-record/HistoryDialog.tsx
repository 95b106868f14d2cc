import { Space, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { faultReportStatus } from '@gatehouse/shared';
import { DIALOG_MASK } from '../../../core/feedback.tsx';
import { EnumCell } from '../../../components/list-page/index.ts';
import type { FaultRow } from './types.ts';
import { PageModal } from '../../../components/PageModal.tsx';
import { formatSiteTime } from '../../../core/site-time.ts';

/** Every step of a fault report: when, which status, who, the handler then and the note. */
export function HistoryDialog({ item, onClose }: { item: FaultRow | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <PageModal
      open={item !== null}
      title={t('accessControl.field.History')}
      mask={DIALOG_MASK}
      destroyOnHidden
      footer={null}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        {item && `${item.DeviceName}${item.ChannelName ? ` · ${item.ChannelName}` : ''}`}
      </Typography.Paragraph>
      <Timeline
        data-testid="fault-history"
        items={(item?.History ?? []).map((h, index) => ({
          key: index,
          title: formatSiteTime(h.At),
          content: (
            <Space orientation="vertical" size={2}>
              <Space size={6} wrap>
                <EnumCell def={faultReportStatus} value={h.Status} />
                <Typography.Text>{h.OperatorName}</Typography.Text>
                {h.HandlerName && (
                  <Typography.Text type="secondary">
                    {t('accessControl.field.Handler')}
                    {t('acUi.colon')}
                    {h.HandlerName}
                  </Typography.Text>
                )}
              </Space>
              {h.Note && <Typography.Text>{h.Note}</Typography.Text>}
            </Space>
          ),
        }))}
      />
    </PageModal>
  );
}
