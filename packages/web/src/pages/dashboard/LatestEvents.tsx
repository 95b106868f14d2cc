import { Card, Empty, List, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DoorOpeningRecordApi,
  doorEventReason,
  findEnumItem,
  type DoorOpeningRecordItem,
} from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { useHubEvents } from '../../core/hub.ts';
import { formatSiteTime } from '../../core/site-time.ts';
import { useAreaStore } from '../../stores/area.ts';

const EVENTS_KEY = 'dashboard.latestEvents';
const LIVE_EVENTS = ['Swipe', 'DoorAlarm'] as const;
const COUNT = 8;
const DAY_MS = 86_400_000;

/** A card swipe (as opposed to a controller's door event or alarm): only it has a holder, card and result. */
const isSwipe = (row: DoorOpeningRecordItem) => row.EventType === null || row.EventType === 1;

/** What happened, as the swipe-record screen says it: the holder (or card) and result, or the door event. */
function What({ row }: { row: DoorOpeningRecordItem }) {
  const { t } = useTranslation();
  if (isSwipe(row))
    return (
      <>
        <span>{row.HolderName ?? row.CardNumber}</span>{' '}
        <Tag color={row.Result ? 'green' : 'red'}>{t(`enum.doorRecordResult.${row.Result}` as never)}</Tag>
      </>
    );
  const reason = row.EventReason === null ? undefined : findEnumItem(doorEventReason, row.EventReason);
  return (
    <Tag color={row.EventType === 3 ? 'red' : 'blue'}>
      {reason ? t(reason.key as never) : String(row.EventReason ?? '-')}
    </Tag>
  );
}

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
              <span className="dashboard-event-where" title={`${row.DeviceName} ${row.ChannelName ?? ''}`}>
                {row.ChannelName ?? row.DeviceName}
              </span>
              <span className="dashboard-event-what">
                <What row={row} />
              </span>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
