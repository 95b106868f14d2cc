import { Card, List, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DoorOpeningRecordItem } from '@gatehouse/shared';
import { formatSiteTime } from '../../../core/site-time.ts';
import { RecordWhat, recordPlace } from '../door-opening-record/record-text.tsx';

/** The latest events, newest first. */
export function EventFeed({ events }: { events: DoorOpeningRecordItem[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('acUi.monitor.events')} className="dm-events">
      {/* the feed scrolls on its own: a region reachable by keyboard, named for a screen reader */}
      <div className="dm-event-feed" tabIndex={0} role="region" aria-label={t('acUi.monitor.events')}>
        <List
          size="small"
          dataSource={events}
          data-testid="event-feed"
          renderItem={(e) => (
            <List.Item data-record={e.Id}>
              <Space direction="vertical" size={0}>
                <Typography.Text type="secondary">{formatSiteTime(e.At)}</Typography.Text>
                <span className="dm-event-what">
                  <RecordWhat row={e} />
                </span>
                <Typography.Text type="secondary" className="dm-event-where">
                  {recordPlace(e, t)}
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      </div>
    </Card>
  );
}
