import { useEffect, useState } from 'react';
import { Button, Card, Empty, Input, Modal, Space, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DoorAlarmApi,
  DoorMonitorApi,
  doorAlarmKind,
  doorLiveState,
  type AreaLockdownDoor,
  type DoorAlarmItem,
  type DoorLiveItem,
} from '@gatehouse/shared';
import { EnumCell } from '../../../components/list-page/index.ts';
import { useAreaLockdown } from '../../../components/lockdown/area-lockdown.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { formatSiteTime } from '../../../core/site-time.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { EventFeed } from './EventFeed.tsx';
import { LockdownDoorTag, LockdownPanel } from './LockdownPanel.tsx';
import { OpenAlarms } from './OpenAlarms.tsx';
import { enumText, useLiveDoorMonitor } from './live-monitor.ts';
import './door-monitor.css';

export { withRecord } from './live-monitor.ts';

/** A door's tile: its name, controller and live state, and under a lockdown what its controller confirmed. */
function DoorTile({ door, lockdown }: { door: DoorLiveItem; lockdown: AreaLockdownDoor | undefined }) {
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
      {lockdown && <LockdownDoorTag door={lockdown} />}
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

/**
 * The live door monitor (Admin or User): every door of the area with its state from the controllers' status
 * replies and events, the latest events, and the alarms waiting for an operator, all kept live by the hub.
 */
export default function DoorMonitorPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const key = ['ac.doorMonitor', areaId];
  const { data, isLoading } = useQuery({ queryKey: key, queryFn: () => call(DoorMonitorApi.state) });
  const [acknowledging, setAcknowledging] = useState<DoorAlarmItem | null>(null);
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );
  useLiveDoorMonitor(key);
  const { lockdown } = useAreaLockdown();
  const lockdownDoor = (d: DoorLiveItem) =>
    lockdown?.Doors.find((l) => l.DeviceId === d.DeviceId && l.DoorNumber === d.DoorNumber);

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
      {areaId !== null && <LockdownPanel areaId={areaId} lockdown={lockdown} />}
      <OpenAlarms alarms={alarms} loading={isLoading} onAcknowledge={setAcknowledging} />
      <div className="dm-body">
        <Card size="small" title={t('acUi.monitor.doors')} className="dm-doors">
          {doors.length === 0 && !isLoading ? (
            <Empty />
          ) : (
            <div className="dm-grid" data-testid="door-grid">
              {doors.map((d) => (
                <DoorTile key={`${d.DeviceId}-${d.DoorNumber}`} door={d} lockdown={lockdownDoor(d)} />
              ))}
            </div>
          )}
        </Card>
        <EventFeed events={data?.Events ?? []} />
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
