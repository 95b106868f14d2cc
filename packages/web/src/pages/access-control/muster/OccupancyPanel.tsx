import { Button, Card, Select, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ADMIN,
  ACCESS_CONTROL_ANY,
  OccupancyApi,
  formatInZone,
  occupantKind,
  type OccupancyItem,
  type OccupancySummary,
} from '@gatehouse/shared';
import { ListPage, useCan, type ListPageConfig } from '../../../components/list-page/index.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { TwoLineCell } from '../cells.tsx';
import { deviceFilter, enumFilter } from '../options.ts';
import { SUMMARY_KEY } from './muster-live.ts';

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
const HOURS = Array.from({ length: 24 }, (_, hour) => ({ value: hour, label: hourLabel(hour) }));

/** The area's reset hour: AccessControl/Admin changes it, others read it. */
function ResetHour({ summary }: { summary: OccupancySummary }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const admin = useCan(ACCESS_CONTROL_ADMIN);
  if (!admin) return null;
  return (
    <Space size="small" className="muster-reset" title={t('musterUi.occupancy.resetHint')}>
      <Typography.Text type="secondary">{t('musterUi.occupancy.resetHour')}</Typography.Text>
      <Select
        size="small"
        value={summary.ResetHour}
        options={HOURS}
        style={{ width: 90 }}
        // The words beside it are not a <label>: the select is named for screen readers (axe: label).
        aria-label={t('musterUi.occupancy.resetHour')}
        data-testid="occupancy-reset-hour"
        onChange={async (hour: number) => {
          const saved = await call(OccupancyApi.settings, { body: { ResetHour: hour } });
          queryClient.setQueriesData({ queryKey: [SUMMARY_KEY] }, saved);
          feedback.success(t('accessControl.message.resetHourSaved'), 3);
        }}
      />
    </Space>
  );
}

/**
 * How many are inside now (and of them visitors), counted since the reset hour last came round in the area's zone,
 * with the reset hour and, when no roll call is under way, the button that starts one.
 */
export function OccupancyHeader({
  summary,
  onStart,
}: {
  summary: OccupancySummary | undefined;
  onStart?: () => void;
}) {
  const { t } = useTranslation();
  if (!summary) return <Skeleton active paragraph={{ rows: 1 }} />;
  const since = formatInZone(summary.Since, summary.TimeZone, 'MM-DD HH:mm');
  return (
    <Card size="small" className="muster-occupancy" data-testid="occupancy-header">
      <Space size="large" align="center" wrap>
        <Statistic
          title={t('musterUi.occupancy.inside')}
          value={summary.Inside}
          data-testid="occupancy-inside"
        />
        <div>
          {summary.Visitors > 0 && (
            <div>
              <Tag color="blue">{t('musterUi.occupancy.visitors', { count: summary.Visitors })}</Tag>
            </div>
          )}
          <Typography.Text type="secondary" data-testid="occupancy-since">
            {t('musterUi.occupancy.since', {
              time: since,
              hour: hourLabel(summary.ResetHour),
              zone: summary.TimeZone,
            })}
          </Typography.Text>
        </div>
        <ResetHour summary={summary} />
        {!summary.Muster && onStart && (
          <Button type="primary" danger onClick={onStart} data-testid="muster-start">
            {t('musterUi.start.button')}
          </Button>
        )}
      </Space>
    </Card>
  );
}

/** Who is inside now: newest arrival first, with the door they came through; narrowed by name, controller, visitors. */
const insideList: ListPageConfig<OccupancyItem> = {
  api: OccupancyApi,
  read: ACCESS_CONTROL_ANY,
  write: [],
  defaultSort: { field: 'LastAt', order: 'desc' },
  testId: 'occupancy-list',
  filters: [
    {
      name: 'Keyword',
      label: 'adminUi.keyword',
      kind: 'text',
      placeholder: 'musterUi.occupancy.keyword',
      width: 200,
    },
    deviceFilter,
    enumFilter('Visitor', 'accessControl.field.Occupant', occupantKind, 150),
  ],
  columns: [
    {
      key: 'Name',
      title: 'accessControl.field.Name',
      sort: 'Name',
      width: 170,
      render: (row, tr) => (
        <Space size={4}>
          <TwoLineCell main={row.Name} sub={row.DepartmentName} />
          {row.Visitor && <Tag color="blue">{tr('enum.occupantKind.true' as never)}</Tag>}
        </Space>
      ),
    },
    { key: 'Phone', title: 'accessControl.field.Phone', width: 130 },
    { key: 'LastAt', title: 'accessControl.field.LastAt', kind: 'instant', sort: 'LastAt', width: 170 },
    {
      key: 'ChannelName',
      title: 'musterUi.occupancy.door',
      render: (row) => <TwoLineCell main={row.ChannelName ?? String(row.DoorNumber)} sub={row.DeviceName} />,
    },
    {
      key: 'CardNumber',
      title: 'accessControl.field.CardNumber',
      width: 120,
      render: (row) => <span className="ac-card-number">{row.CardNumber}</span>,
    },
  ],
};

export function InsideList() {
  const { t } = useTranslation();
  return <ListPage config={insideList} title={t('musterUi.tabs.inside')} />;
}
