import { useMemo, useState } from 'react';
import { Button, Card, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ANY,
  MusterPersonApi,
  musterSafety,
  type MusterItem,
  type MusterPersonItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { TwoLineCell } from '../cells.tsx';
import { enumFilter } from '../options.ts';
import { markSafe } from './actions.ts';
import { MUSTER_KEY, SUMMARY_KEY, useMuster } from './muster-live.ts';
import { EndMusterDialog } from './StartMusterDialog.tsx';

type Tr = (key: string, values?: Record<string, unknown>) => string;

/** How someone on the roll was found: by whom, or at which muster point, and when. */
function found(row: MusterPersonItem, tr: Tr): string {
  if (!row.Safe) return '';
  const how =
    row.SafeHow === 'swipe'
      ? tr('musterUi.roll.bySwipe', { where: row.SafeBy ?? '' })
      : tr('musterUi.roll.byHand', { who: row.SafeBy ?? '' });
  return `${formatSiteTime(row.SafeAt)} · ${how}`;
}

/** A person on the roll: who, safe or missing, how and when found, where last seen coming in. */
const personColumns: ListPageConfig<MusterPersonItem>['columns'] = [
  {
    key: 'Name',
    title: 'accessControl.field.Name',
    sort: 'Name',
    width: 170,
    render: (row, tr) => (
      <Space size={4} data-testid="muster-person">
        <TwoLineCell main={row.Name} sub={row.DepartmentName} />
        {row.Visitor && <Tag color="blue">{tr('enum.occupantKind.true' as never)}</Tag>}
      </Space>
    ),
  },
  { key: 'Phone', title: 'accessControl.field.Phone', width: 130 },
  {
    key: 'Safe',
    title: 'accessControl.field.Safety',
    width: 110,
    render: (row, tr) => (
      <Tag color={row.Safe ? 'green' : 'red'} data-safe={String(row.Safe)}>
        {tr(`enum.musterSafety.${row.Safe}` as never)}
      </Tag>
    ),
  },
  {
    key: 'SafeAt',
    title: 'musterUi.roll.found',
    sort: 'SafeAt',
    render: (row, tr) => found(row, tr as Tr),
  },
  {
    key: 'LastAt',
    title: 'musterUi.roll.lastSeen',
    sort: 'LastAt',
    width: 190,
    render: (row) => (
      <TwoLineCell main={formatSiteTime(row.LastAt)} sub={row.ChannelName ?? row.DeviceName} />
    ),
  },
  { key: 'CardNumber', title: 'accessControl.field.CardNumber', width: 120, secondary: true },
  { key: 'DeviceName', title: 'accessControl.field.DeviceName', secondary: true },
  { key: 'Note', title: 'accessControl.field.Note', secondary: true },
];

/** The people of one roll call, by name; marked safe by hand (a row, or the ticked ones) while it is under way. */
function peopleList(
  muster: MusterItem,
  onMarked: (after: MusterItem) => void,
): ListPageConfig<MusterPersonItem> {
  const mark = async (ids: number[]) => onMarked(await markSafe(muster.Id, ids));
  const underWay = muster.EndedAt === null;
  return {
    api: MusterPersonApi,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ANY,
    actions: { export: true },
    fixedQuery: { MusterId: muster.Id },
    defaultSort: { field: 'Name', order: 'asc' },
    testId: 'muster-people',
    filters: [
      {
        name: 'Keyword',
        label: 'adminUi.keyword',
        kind: 'text',
        placeholder: 'musterUi.roll.keyword',
        width: 200,
      },
      enumFilter('Safe', 'accessControl.field.Safety', musterSafety, 140),
    ],
    columns: personColumns,
    rowActions: underWay
      ? [
          {
            key: 'markSafe',
            label: 'musterUi.roll.markSafe',
            confirm: 'musterUi.roll.markOneConfirm',
            visible: (row) => !row.Safe,
            run: (row) => mark([row.CardUserId]),
          },
        ]
      : [],
    batchActions: underWay
      ? [
          {
            key: 'markSafe',
            label: 'musterUi.roll.markSafe',
            confirm: 'musterUi.roll.markSafeConfirm',
            run: (rows) => mark(rows.filter((r) => !r.Safe).map((r) => r.CardUserId)),
          },
        ]
      : [],
  };
}

/** What a roll call stands at: how many are missing (large, red, live), who started it, why, where people muster. */
export function MusterHeader({ muster, onEnd }: { muster: MusterItem; onEnd?: () => void }) {
  const { t } = useTranslation();
  const underWay = muster.EndedAt === null;
  const points = muster.Points.map((p) => `${p.DeviceName} · ${p.ChannelName}`).join('，');
  return (
    <Card
      size="small"
      className="muster-header"
      data-testid="muster-header"
      data-under-way={String(underWay)}
    >
      <Space size="large" align="start" wrap>
        <Statistic
          title={t('musterUi.roll.missing')}
          value={muster.Missing}
          styles={muster.Missing > 0 ? { content: { color: 'var(--ant-color-error, #cf1322)' } } : undefined}
          data-testid="muster-missing"
        />
        <div className="muster-facts">
          <Typography.Text strong data-testid="muster-counts">
            {t('musterUi.roll.ofTotal', { safe: muster.Safe, total: muster.Total })}
          </Typography.Text>
          <div>
            {t('musterUi.roll.started', { time: formatSiteTime(muster.StartedAt), who: muster.StartedBy })}
          </div>
          {muster.Reason && <div>{t('musterUi.roll.reason', { reason: muster.Reason })}</div>}
          <div>{points ? t('musterUi.roll.points', { points }) : t('musterUi.roll.noPoints')}</div>
          {muster.EndedAt && (
            <div>
              {t('musterUi.roll.ended', { time: formatSiteTime(muster.EndedAt), who: muster.EndedBy ?? '' })}
            </div>
          )}
        </div>
        {underWay && onEnd && (
          <Button danger onClick={onEnd} data-testid="muster-end">
            {t('musterUi.roll.end')}
          </Button>
        )}
      </Space>
    </Card>
  );
}

/**
 * One roll call: its header, live from the hub, and its people with their marks; under way, people are marked safe
 * by hand here (or by their swipe at a muster point), and it is ended with a note. Its result exports as the list.
 */
export function RollCall({ musterId, onEnded }: { musterId: number; onEnded?: (id: number) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const muster = useMuster(musterId);
  const [ending, setEnding] = useState<MusterItem | null>(null);
  const m = muster.data;
  // The list's declaration changes only when the roll call does, or ends (no more marks then).
  const config = useMemo(
    () =>
      // The marks' answer is the roll call's counts after them: shown at once, whether or not the hub is connected.
      m ? peopleList(m, (after) => queryClient.setQueryData([MUSTER_KEY, after.Id], after)) : null,
    [m?.Id, m?.EndedAt === null], // eslint-disable-line react-hooks/exhaustive-deps
  );
  if (!m || !config) return <Skeleton active paragraph={{ rows: 4 }} />;
  return (
    <>
      <ListPage
        key={m.Id}
        config={config}
        title={t('musterUi.tabs.rollCall')}
        header={<MusterHeader muster={m} onEnd={() => setEnding(m)} />}
      />
      <EndMusterDialog
        muster={ending}
        onClose={() => setEnding(null)}
        onEnded={(ended) => {
          setEnding(null);
          queryClient.setQueryData([MUSTER_KEY, ended.Id], ended);
          void queryClient.invalidateQueries({ queryKey: [SUMMARY_KEY] });
          onEnded?.(ended.Id);
        }}
      />
    </>
  );
}
