import type { ReactNode } from 'react';
import { Card, Empty, List, Skeleton, Space, Statistic, Tag, Typography } from 'antd';
import { AlertOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AccessControlDashboardApi,
  ACCESS_CONTROL_ADMIN,
  type AccessControlSummary,
  type HubEventOf,
  type OpenDoorAlarm,
} from '@gatehouse/shared';
import { useCan } from '../../../components/list-page/permissions.ts';
import { call } from '../../../core/api.ts';
import { useHubEvents } from '../../../core/hub.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { eventText, recordPlace } from '../door-opening-record/record-text.tsx';
import './access-control-dashboard.css';

const SUMMARY_KEY = 'ac.dashboard';

/** Hub events that move a figure: swipes and door events, alarms, controllers coming and going, syncs, roll calls. */
const LIVE_EVENTS = [
  'Swipe',
  'DoorAlarm',
  'DeviceStatus',
  'SyncProgress',
  'AlarmRaised',
  'AlarmChanged',
  'Muster',
] as const;

/** A sync pass moves the figures when it starts (a controller syncing) and when it ends (statuses moved). */
const movesFigures = (m: HubEventOf<(typeof LIVE_EVENTS)[number]>) =>
  m.Type !== 'SyncProgress' || m.Phase === 'done' || (m.Done ?? 0) === 0;

function Figure({
  title,
  value,
  suffix,
  note,
  danger,
  testId,
}: {
  title: string;
  value: number;
  suffix?: string;
  note?: ReactNode;
  danger?: boolean;
  testId: string;
}) {
  return (
    <Card size="small" className="ac-figure">
      <Statistic
        title={title}
        value={value}
        suffix={suffix}
        styles={danger ? { content: { color: 'var(--ant-color-error, #cf1322)' } } : undefined}
        data-testid={testId}
      />
      {note && <div className="ac-figure-note">{note}</div>}
    </Card>
  );
}

/**
 * Controllers online, who is inside now (and the roll call under way), today's granted and denied swipes,
 * authorisations waiting, doors in alarm and alarms to acknowledge.
 */
function Figures({ summary: s }: { summary: AccessControlSummary }) {
  const { t } = useTranslation();
  return (
    <div className="ac-figures">
      <Figure
        title={t('acUi.dashboard.controllersOnline')}
        value={s.Controllers.Online}
        suffix={`/ ${s.Controllers.Total}`}
        testId="ac-figure-online"
        note={
          <Typography.Text type="secondary">
            {t('acUi.dashboard.controllersDetail', {
              offline: s.Controllers.Offline,
              unknown: s.Controllers.Unknown,
            })}
            {s.Controllers.Syncing > 0 &&
              ` · ${t('acUi.dashboard.syncing', { count: s.Controllers.Syncing })}`}
          </Typography.Text>
        }
      />
      <Figure
        title={t('musterUi.dashboard.inside')}
        value={s.Occupancy.Inside}
        testId="ac-figure-inside"
        danger={s.Occupancy.Muster !== null && s.Occupancy.Muster.Missing > 0}
        // Who is inside and the roll call under way are one screen: the figure leads there.
        note={
          <>
            {s.Occupancy.Muster && (
              <>
                <Typography.Text type="danger" data-testid="ac-figure-muster">
                  {t('musterUi.dashboard.missing', { count: s.Occupancy.Muster.Missing })}
                </Typography.Text>
                <br />
              </>
            )}
            <Link to="/accesscontrol/muster" data-testid="ac-panel-muster">
              {t('musterUi.dashboard.open')}
            </Link>
          </>
        }
      />
      <Figure title={t('acUi.dashboard.granted')} value={s.Today.Granted} testId="ac-figure-granted" />
      <Figure title={t('acUi.dashboard.denied')} value={s.Today.Denied} testId="ac-figure-denied" />
      <Figure
        title={t('acUi.dashboard.waiting')}
        value={s.Authorizations.Pending}
        testId="ac-figure-waiting"
        note={
          s.Authorizations.Failing > 0 ? (
            <Typography.Text type="danger">
              {t('acUi.dashboard.failing', { count: s.Authorizations.Failing })}
            </Typography.Text>
          ) : undefined
        }
      />
      <Figure
        title={t('acUi.dashboard.alarms')}
        value={s.Alarms.Open}
        danger={s.Alarms.Open > 0}
        testId="ac-figure-alarms"
        // The door monitor's alarms waiting for an operator share this card: one row of figures keeps the
        // garage's figures above the fold at 1440x900 in every language.
        note={
          <>
            <Typography.Text
              type={s.OpenAlarms.Count > 0 ? 'danger' : 'secondary'}
              data-testid="ac-figure-open-alarms"
            >
              {t('acUi.dashboard.toAcknowledge', { count: s.OpenAlarms.Count })}
            </Typography.Text>
            <br />
            <Link to="/accesscontrol/doorMonitor" data-testid="ac-panel-monitor">
              {t('route.doorMonitor')}
            </Link>
          </>
        }
      />
    </div>
  );
}

/** Doors in alarm the panel lists: what fits above the fold beside the figures; the rest are counted. */
const ALARMS_SHOWN = 3;

/**
 * The newest doors in alarm: when, which door, and why. More doors than it lists (the count says how many are in
 * alarm) are told as "and N more", with the way to the alarm list: a list cut short without a word read as all.
 */
function Alarms({ items, open }: { items: OpenDoorAlarm[]; open: number }) {
  const { t } = useTranslation();
  const shown = items.slice(0, ALARMS_SHOWN);
  if (shown.length === 0)
    return (
      <Empty
        className="ac-alarms-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('acUi.dashboard.noAlarm')}
      />
    );
  return (
    <>
      <List
        className="ac-alarms"
        size="small"
        dataSource={shown}
        data-testid="ac-alarms"
        renderItem={(alarm) => (
          <List.Item data-alarm-device={alarm.DeviceId} data-alarm-door={alarm.DoorNumber}>
            <Space size="small" wrap>
              <AlertOutlined className="ac-alarm-icon" />
              <Typography.Text type="secondary">{formatSiteTime(alarm.At)}</Typography.Text>
              <span>{recordPlace(alarm, t)}</span>
              <Tag color="red">{eventText(alarm, t) ?? '-'}</Tag>
            </Space>
          </List.Item>
        )}
      />
      {open > shown.length && (
        <Link to="/accesscontrol/doorAlarm" className="ac-alarms-more" data-testid="ac-alarms-more">
          {t('acUi.dashboard.moreAlarms', { count: open - shown.length })}
        </Link>
      )}
    </>
  );
}

/**
 * Access control on the dashboard, for the current area: controllers online, today's granted and denied
 * swipes, authorisations waiting for the device sync and doors in alarm (docs/access-control.md,
 * "Dashboard"), live from the area's hub.
 */
export default function AccessControlPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isAdmin = useCan(ACCESS_CONTROL_ADMIN);
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const summary = useQuery({
    queryKey: [SUMMARY_KEY, areaId],
    queryFn: () => call(AccessControlDashboardApi.summary),
    // Nothing announces midnight or an alarm passing its 24 hours: look again now and then.
    refetchInterval: 60_000,
  });
  useHubEvents(LIVE_EVENTS, (message) => {
    if (movesFigures(message)) void queryClient.invalidateQueries({ queryKey: [SUMMARY_KEY] });
  });
  const s = summary.data;

  return (
    <Card
      title={t('acUi.dashboard.title')}
      extra={
        <Space size="middle">
          {isAdmin && (
            <Link to="/accesscontrol/deviceManagement" data-testid="ac-panel-devices">
              {t('acUi.dashboard.devices')}
            </Link>
          )}
          <Link to="/accesscontrol/doorOpeningRecords" data-testid="ac-panel-records">
            {t('acUi.dashboard.records')}
          </Link>
        </Space>
      }
      data-testid="ac-panel"
    >
      {!s ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <>
          <Figures summary={s} />
          <Alarms items={s.Alarms.Items} open={s.Alarms.Open} />
          <Typography.Paragraph type="secondary" className="ac-panel-note">
            {t('acUi.dashboard.note', { zone: s.TimeZone })}
          </Typography.Paragraph>
        </>
      )}
    </Card>
  );
}
