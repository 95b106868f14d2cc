import { Badge, Collapse, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { issueStatus } from '@gatehouse/shared';
import { http } from '../../../core/http.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { ISSUE_STATUS_COLOURS } from '../cells.tsx';

/** Tag colour names → the dot colours of the same palette (grey for the tag's "default"). */
const BADGE_COLOURS = Object.fromEntries(
  Object.entries(ISSUE_STATUS_COLOURS).map(([status, colour]) => [
    status,
    colour === 'default' ? 'gray' : colour,
  ]),
);
import type { DeviceStatusCount } from './types.ts';

export const STATUS_COUNTS_KEY = 'ac-status-counts';

interface Props {
  /** Shows that device's authorisations (in that status) in the list below. */
  onPick(deviceId: number, status: number | null): void;
}

/**
 * Per device of the area, how many authorisations are in each issue status, and how many wait for the
 * device sync (pending issue, update or deletion). A count opens those authorisations in the list.
 */
export function DeviceStatusSummary({ onPick }: Props) {
  const { t } = useTranslation();
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const counts = useQuery({
    queryKey: [STATUS_COUNTS_KEY, areaId],
    queryFn: () => http.get<DeviceStatusCount[]>('/api/CardUserLinkChannel/DeviceStatusCounts'),
  });
  const rows = counts.data ?? [];
  const pending = rows.reduce((sum, d) => sum + d.Pending, 0);

  const columns: ColumnsType<DeviceStatusCount> = [
    {
      key: 'DeviceName',
      title: t('accessControl.field.DeviceName'),
      fixed: 'left',
      render: (_v, d) => (
        <span>
          <span className="ac-name" title={d.DeviceName}>
            {d.DeviceName}
          </span>
          <Typography.Text type="secondary" className="ac-sub" style={{ marginInlineStart: 6 }}>
            {d.SerialNumber}
          </Typography.Text>
        </span>
      ),
    },
    ...issueStatus.items.map((item) => ({
      key: String(item.value),
      // A coloured dot and the label (the list's tag colours); long labels wrap rather than widen the table.
      title: <Badge color={BADGE_COLOURS[item.value]} text={t(item.key as never)} />,
      width: 96,
      align: 'right' as const,
      render: (_v: unknown, d: DeviceStatusCount) => {
        const n = d.Counts[String(item.value)] ?? 0;
        return n === 0 ? (
          <Typography.Text type="secondary">0</Typography.Text>
        ) : (
          <Typography.Link
            onClick={() => onPick(d.DeviceId, item.value)}
            data-testid={`count-${d.DeviceId}-${item.value}`}
          >
            {n}
          </Typography.Link>
        );
      },
    })),
    {
      key: 'Pending',
      title: t('accessControl.field.Pending'),
      align: 'right',
      width: 90,
      render: (_v, d) =>
        d.Pending ? (
          <Typography.Text strong type="warning">
            {d.Pending}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">0</Typography.Text>
        ),
    },
    {
      key: 'Total',
      title: t('accessControl.field.Total'),
      align: 'right',
      width: 80,
      render: (_v, d) => (
        <Typography.Link onClick={() => onPick(d.DeviceId, null)}>{d.Total}</Typography.Link>
      ),
    },
  ];

  return (
    <Collapse
      className="ac-summary"
      size="small"
      defaultActiveKey={['counts']}
      items={[
        {
          key: 'counts',
          label: (
            <span data-testid="status-summary-title">
              {t('accessControl.title.deviceStatusCounts')}
              {!counts.isLoading && (
                <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                  {t('acUi.auth.summaryPending', { devices: rows.length, pending })}
                </Typography.Text>
              )}
            </span>
          ),
          children: (
            <Table<DeviceStatusCount>
              size="small"
              rowKey="DeviceId"
              loading={counts.isFetching}
              columns={columns}
              dataSource={rows}
              pagination={false}
              scroll={{ x: 'max-content', y: 190 }}
              data-testid="status-summary"
            />
          ),
        },
      ]}
    />
  );
}
