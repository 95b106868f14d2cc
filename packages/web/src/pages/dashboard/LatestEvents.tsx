import { Card, Empty, List, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DoorOpeningRecordApi, type DoorOpeningRecordItem } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { useHubEvents } from '../../core/hub.ts';
import { formatSiteTime } from '../../core/site-time.ts';
import { useAreaStore } from '../../stores/area.ts';
import { RecordWhat, recordPlace } from '../access-control/door-opening-record/record-text.tsx';

const EVENTS_KEY = 'dashboard.latestEvents';
const LIVE_EVENTS = ['Swipe', 'DoorAlarm'] as const;
const COUNT = 8;
const DAY_MS = 86_400_000;

/**
 * The area's latest swipes, door events and alarms (the last 24 hours, newest first), kept current by the
 * hub: the "latest events" of the operator's console.
 */
export default function LatestEvents() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const events = useQuery({
    queryKey: [EVENTS_KEY, areaId],
    queryFn: () => {
      const now = Date.now();
      return call(DoorOpeningRecordApi.list, {
        query: {
          PageIndex: 1,
          PageSize: COUNT,
          StartTime: new Date(now - DAY_MS).toISOString(),
          EndTime: new Date(now + 60_000).toISOString(),
        },
      } as never);
    },
    enabled: areaId !== null,
    refetchInterval: 60_000,
  });
  useHubEvents(LIVE_EVENTS, () => void queryClient.invalidateQueries({ queryKey: [EVENTS_KEY] }));
  const items = (events.data as { Items: DoorOpeningRecordItem[] } | undefined)?.Items;
  return (
    <Card
      size="small"
      title={t('dashboard.latestEvents')}
      extra={<Link to="/accesscontrol/doorOpeningRecords">{t('route.doorOpeningRecords')}</Link>}
      className="dashboard-events"
      data-testid="dashboard-events"
    >
      {!items ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noEvents')} />
      ) : (
        <List
          size="small"
          dataSource={items}
          renderItem={(row) => (
            <List.Item className="dashboard-event" data-record={row.Id}>
              <Typography.Text type="secondary" className="dashboard-event-time">
                {formatSiteTime(row.At, 'HH:mm:ss')}
              </Typography.Text>
              <span className="dashboard-event-where" title={recordPlace(row, t)}>
                {recordPlace(row, t)}
              </span>
              <span className="dashboard-event-what">
                <RecordWhat row={row} />
              </span>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
