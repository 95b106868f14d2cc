import { useEffect, useState } from 'react';
import {
  Button,
  Card,
  Empty,
  Input,
  List,
  Modal,
  Space,
  Table,
  Tag,
  Typography,
  notification,
  theme,
} from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DoorAlarmApi,
  DoorMonitorApi,
  doorAlarmKind,
  doorLiveState,
  findEnumItem,
  type DoorAlarmItem,
  type DoorLiveItem,
  type DoorMonitorReply,
  type DoorOpeningRecordItem,
  type EnumDef,
  type HubEventOf,
} from '@gatehouse/shared';
import { EnumCell, type TKey } from '../../../components/list-page/index.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { useHubEvents } from '../../../core/hub.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { RecordWhat, recordPlace } from '../door-opening-record/record-text.tsx';
import './door-monitor.css';

/**
 * The live path of the dashboard's figures too: a record the gateway stores reaches the hub at once (Swipe, or
 * DoorAlarm for an alarm), and the monitor shows it from there; the door watch's DoorState and AlarmRaised follow
 * at its next look.
 */
const LIVE = ['DoorState', 'AlarmRaised', 'AlarmChanged', 'Swipe', 'DoorAlarm'] as const;
const FEED = 30;

/** A record the hub announced, at the head of the feed (once: a refetch may have brought it already). */
export function withRecord(reply: DoorMonitorReply, record: DoorOpeningRecordItem): DoorMonitorReply {
  const others = reply.Events.filter((e) => e.Id !== record.Id);
  return { ...reply, Events: [record, ...others].slice(0, FEED) };
}

function enumText(t: (key: TKey) => string, def: EnumDef, value: number): string {
  const item = findEnumItem(def, value);
  return item ? t(item.key as TKey) : String(value);
}

/** A door's tile: its name, controller and live state. */
function DoorTile({ door }: { door: DoorLiveItem }) {
  const { t } = useTranslation();
  const alarm = door.State === 4 || door.State === 5;
  return (
    <Card
      size="small"
      className={`dm-door${alarm ? ' dm-door-alarm' : ''}`}
      data-testid={`door-${door.DeviceId}-${door.DoorNumber}`}
      data-state={door.State}
    >
      <Typography.Text strong>
        {door.DoorName ?? t('acUi.monitor.door', { door: door.DoorNumber })}
      </Typography.Text>
      <div className="dm-door-device">
        {door.DeviceName} · {t('acUi.monitor.door', { door: door.DoorNumber })}
      </div>
      <EnumCell def={doorLiveState} value={door.State} />
      {door.Since && <div className="dm-door-since">{formatSiteTime(door.Since, 'HH:mm:ss')}</div>}
    </Card>
  );
}

/** Acknowledging an alarm: a note says what was done (required). */
function AcknowledgeDialog({
  alarm,
  onClose,
}: {
  alarm: DoorAlarmItem | null;
  onClose(done: boolean): void;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setNote(''), [alarm]);
  return (
    <Modal
      open={alarm !== null}
      title={t('acUi.monitor.acknowledgeTitle')}
      okText={t('acUi.monitor.acknowledge')}
      okButtonProps={{ disabled: note.trim() === '', loading: busy, 'data-testid': 'ack-ok' } as never}
      onCancel={() => onClose(false)}
      onOk={async () => {
        setBusy(true);
        try {
          await call(DoorAlarmApi.acknowledge, { body: { Ids: [alarm!.Id], Note: note.trim() } });
          feedback.success(t('acUi.monitor.acknowledged'));
          onClose(true);
        } finally {
          setBusy(false);
        }
      }}
      destroyOnHidden
    >
      {alarm && (
        <Typography.Paragraph>
          {enumText(t, doorAlarmKind, alarm.Kind)} · {alarm.DeviceName}
          {alarm.DoorNumber > 0 ? ` · ${alarm.DoorName ?? alarm.DoorNumber}` : ''}
        </Typography.Paragraph>
      )}
      <Input.TextArea
        value={note}
        onChange={(e) => setNote(e.target.value)}
        maxLength={200}
        rows={3}
        placeholder={t('acUi.monitor.notePlaceholder')}
        aria-label={t('accessControl.field.AlarmNote')}
        data-testid="ack-note"
      />
    </Modal>
  );
}

const alarmKey = (id: number) => `door-alarm-${id}`;

/**
 * Tells the operator of a new alarm: in the page, and as a browser notification when allowed. The in-page notice
 * stays until the alarm is acknowledged (here or on another screen or instance: AlarmChanged closes it), since an
 * alarm waits for an operator; one that faded after 4.5 s could be missed by the operator it was for.
 */
function announce(alarm: DoorAlarmItem, t: (key: TKey, o?: Record<string, unknown>) => string) {
  const title = enumText(t, doorAlarmKind, alarm.Kind);
  const text = `${alarm.DeviceName}${alarm.DoorNumber > 0 ? ` · ${alarm.DoorName ?? alarm.DoorNumber}` : ''}`;
  notification.warning({
    key: alarmKey(alarm.Id),
    message: title,
    description: text,
    placement: 'topRight',
    duration: 0,
  });
  if (typeof Notification !== 'undefined' && Notification.permission === 'granted')
    new Notification(title, { body: text, tag: `door-alarm-${alarm.Id}` });
}

/**
 * The live door monitor (Admin or User): every door of the area with its state from the controllers' status
 * replies and events, the latest events, and the alarms waiting for an operator, all kept live by the hub.
 */
export default function DoorMonitorPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const key = ['ac.doorMonitor', areaId];
  const { data, isLoading } = useQuery({ queryKey: key, queryFn: () => call(DoorMonitorApi.state) });
  const [acknowledging, setAcknowledging] = useState<DoorAlarmItem | null>(null);
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );

  useHubEvents(LIVE, (event: HubEventOf<(typeof LIVE)[number]>) => {
    if (event.Type === 'Swipe' || event.Type === 'DoorAlarm') {
      // Shown now; the doors as the server reads them (records the door watch has not looked at included) next.
      // (A record's event carries the record's own time: the hub stamps only events without one.)
      const { Type: _type, ...record } = event;
      queryClient.setQueryData<DoorMonitorReply>(key, (reply) => (reply ? withRecord(reply, record) : reply));
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    if (event.Type === 'AlarmRaised') announce(event, t);
    if (event.Type === 'AlarmChanged' && event.State !== 0) notification.destroy(alarmKey(event.Id));
    queryClient.setQueryData<DoorMonitorReply>(key, (reply) => {
      if (!reply) return reply;
      if (event.Type === 'DoorState') {
        const same = (d: DoorLiveItem) => d.DeviceId === event.DeviceId && d.DoorNumber === event.DoorNumber;
        const { Type: _type, ...door } = event;
        return { ...reply, Doors: reply.Doors.map((d) => (same(d) ? door : d)) };
      }
      const { Type: _type, ...alarm } = event;
      const others = reply.OpenAlarms.filter((a) => a.Id !== alarm.Id);
      return { ...reply, OpenAlarms: alarm.State === 0 ? [alarm, ...others] : others };
    });
  });

  const doors = data?.Doors ?? [];
  const alarms = data?.OpenAlarms ?? [];
  return (
    <div className="dm-page">
      <Space className="dm-head" wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('route.doorMonitor')}
        </Typography.Title>
        {permission === 'default' && (
          <Button
            icon={<BellOutlined />}
            onClick={() => void Notification.requestPermission().then(setPermission)}
            data-testid="enable-notifications"
          >
            {t('acUi.monitor.enableNotifications')}
          </Button>
        )}
      </Space>
      <Card
        size="small"
        title={
          <Space>
            {t('acUi.monitor.openAlarms')}
            <Tag color={alarms.length ? 'red' : 'default'} data-testid="open-alarm-count">
              {alarms.length}
            </Tag>
          </Space>
        }
        className="dm-alarms"
      >
        <Table<DoorAlarmItem>
          rowKey="Id"
          size="small"
          loading={isLoading}
          dataSource={alarms}
          pagination={false}
          locale={{
            // antd greys a table's empty text to the disabled colour (contrast 1.8): this one is information
            emptyText: <span style={{ color: token.colorTextSecondary }}>{t('acUi.monitor.noAlarms')}</span>,
          }}
          data-testid="alarm-table"
          columns={[
            {
              title: t('accessControl.field.RaisedAt'),
              dataIndex: 'RaisedAt',
              width: 170,
              render: (v: string) => formatSiteTime(v),
            },
            {
              title: t('accessControl.field.AlarmKind'),
              dataIndex: 'Kind',
              width: 230,
              // Waiting for an operator is not still going on: a door that closed again says so.
              render: (v: number, a) => (
                <Space size={4} wrap>
                  <EnumCell def={doorAlarmKind} value={v} />
                  {a.ClearedAt && (
                    <Tag color="green" data-cleared={a.ClearedAt}>
                      {t('acUi.monitor.over', { time: formatSiteTime(a.ClearedAt, 'HH:mm:ss') })}
                    </Tag>
                  )}
                </Space>
              ),
            },
            {
              title: t('accessControl.field.DeviceName'),
              dataIndex: 'DeviceName',
              render: (_: unknown, a) =>
                `${a.DeviceName}${a.DoorNumber > 0 ? ` · ${a.DoorName ?? a.DoorNumber}` : ''}`,
            },
            { title: t('accessControl.field.AlarmCount'), dataIndex: 'Count', width: 70 },
            { title: t('accessControl.field.AlarmDetail'), dataIndex: 'Detail', ellipsis: true },
            {
              title: '',
              key: 'ack',
              width: 110,
              render: (_: unknown, a) => (
                <Button
                  size="small"
                  type="primary"
                  onClick={() => setAcknowledging(a)}
                  data-testid={`ack-${a.Id}`}
                >
                  {t('acUi.monitor.acknowledge')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <div className="dm-body">
        <Card size="small" title={t('acUi.monitor.doors')} className="dm-doors">
          {doors.length === 0 && !isLoading ? (
            <Empty />
          ) : (
            <div className="dm-grid" data-testid="door-grid">
              {doors.map((d) => (
                <DoorTile key={`${d.DeviceId}-${d.DoorNumber}`} door={d} />
              ))}
            </div>
          )}
        </Card>
        <Card size="small" title={t('acUi.monitor.events')} className="dm-events">
          {/* the feed scrolls on its own: a region reachable by keyboard, named for a screen reader */}
          <div className="dm-event-feed" tabIndex={0} role="region" aria-label={t('acUi.monitor.events')}>
            <List
              size="small"
              dataSource={data?.Events ?? []}
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
      </div>
      <AcknowledgeDialog
        alarm={acknowledging}
        onClose={(done) => {
          setAcknowledging(null);
          if (done) void queryClient.invalidateQueries({ queryKey: key });
        }}
      />
    </div>
  );
}
