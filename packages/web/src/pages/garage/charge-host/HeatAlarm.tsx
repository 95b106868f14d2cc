import { Alert, Button, Space, Tag, Tooltip, Typography } from 'antd';
import { FireOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { BICYCLE_ADMIN, type HeatAlarmItem } from '@gatehouse/shared';
import { useCan } from '../../../components/list-page/index.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { openDialog } from '../dialogs.ts';

/**
 * A charging host's heat alarm on the screens (docs/garage.md "Heat"): a red tag with the temperature against
 * its zone's limit (host list), a banner over its socket grid with the clear action, and the details both show:
 * when and where it was raised and why, the latest reading, the sessions it stopped.
 */

const degrees = (t: TFunction, value: number | null) =>
  value === null ? '-' : t('garageUi.heat.degrees', { value: value.toFixed(1).replace(/\.0$/, '') });

/** Why it was raised, in words. */
export const heatCause = (t: TFunction, alarm: HeatAlarmItem) => t(`garage.heatTrigger.${alarm.Trigger}`);

/** The tag's text: the reading against the limit, or the charger's own fault. */
export function heatAlarmText(t: TFunction, alarm: HeatAlarmItem): string {
  if (alarm.Trigger === 'fault' && alarm.TemperatureC === null) return t('garageUi.heat.tagFault');
  return t('garageUi.heat.tag', {
    temperature: degrees(t, alarm.TemperatureC),
    limit: alarm.LimitC === null ? t('garageUi.heat.noLimit') : degrees(t, alarm.LimitC),
  });
}

/** When, where and why it was raised; the latest reading; the sessions it stopped. */
export function heatAlarmLines(t: TFunction, alarm: HeatAlarmItem): string[] {
  const where =
    alarm.ConnectorId === 0
      ? t('garageUi.heat.whereHost')
      : t('garageUi.heat.wherePort', { port: alarm.ConnectorId });
  const lines: string[] = [
    t('garageUi.heat.raised', {
      time: formatSiteTime(alarm.RaisedAt, 'MM-DD HH:mm:ss'),
      where,
      cause: heatCause(t, alarm),
    }),
  ];
  if (alarm.LastTemperatureC !== null && alarm.LastReadingAt !== null)
    lines.push(
      t('garageUi.heat.last', {
        temperature: degrees(t, alarm.LastTemperatureC),
        time: formatSiteTime(alarm.LastReadingAt, 'MM-DD HH:mm:ss'),
      }),
    );
  lines.push(
    alarm.Sessions.length === 0
      ? t('garageUi.heat.noSessions')
      : t('garageUi.heat.sessions', {
          count: alarm.Sessions.length,
          ports: alarm.Sessions.map((s) => t('garageUi.heat.port', { port: s.PortNumber })).join(', '),
        }),
  );
  return lines;
}

/** The host list's red tag, its details on hover. */
export function HeatAlarmTag({ alarm }: { alarm: HeatAlarmItem }) {
  const { t } = useTranslation();
  return (
    <Tooltip
      title={heatAlarmLines(t, alarm).map((line) => (
        <div key={line}>{line}</div>
      ))}
    >
      <Tag color="error" icon={<FireOutlined />} data-testid="heat-alarm-tag">
        {heatAlarmText(t, alarm)}
      </Tag>
    </Tooltip>
  );
}

/** Opens the dialog that clears a host's alarm with a note. */
export function openClearHeatAlarm(host: { Id: number; Name: string }, alarm: HeatAlarmItem): void {
  openDialog('clearHeatAlarm', { hostId: host.Id, hostName: host.Name, alarm });
}

/** Over a host's socket grid: the alarm, what it did, and (Admin code) the way to clear it. */
export function HeatAlarmBanner({
  host,
  alarm,
}: {
  host: { Id: number; Name: string };
  alarm: HeatAlarmItem;
}) {
  const { t } = useTranslation();
  const canClear = useCan(BICYCLE_ADMIN);
  return (
    <Alert
      type="error"
      showIcon
      icon={<FireOutlined />}
      style={{ marginBottom: 12 }}
      data-testid="heat-alarm-banner"
      title={
        <Space wrap>
          <Typography.Text strong>{t('garageUi.heat.title')}</Typography.Text>
          <Tag color="error">{heatAlarmText(t, alarm)}</Tag>
        </Space>
      }
      description={heatAlarmLines(t, alarm).map((line) => (
        <div key={line}>{line}</div>
      ))}
      action={
        canClear ? (
          <Button
            size="small"
            danger
            onClick={() => openClearHeatAlarm(host, alarm)}
            data-testid="heat-alarm-clear"
          >
            {t('garageUi.heat.clear')}
          </Button>
        ) : undefined
      }
    />
  );
}
