import type { ChargeHostItem } from '@gatehouse/shared';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSiteTime } from '../../../core/site-time.ts';
import '../garage.css';

type Presence = Pick<ChargeHostItem, 'Online' | 'LastSeenAt' | 'LiveLink' | 'OfflineSince' | 'Device'>;

/**
 * A host's connection as far as Gatehouse knows it. A charging-API host (OCPP charge point) is "connected" or
 * "not connected" (since when it went away, or never), with what its charger said at boot; any other host is
 * online when it reported within the last minutes, with when it last did.
 */
export function HostPresence({ host, inline = false }: { host: Presence; inline?: boolean }) {
  const { t } = useTranslation();
  const label = host.LiveLink
    ? host.Online
      ? 'garageUi.host.connected'
      : 'garageUi.host.notConnected'
    : host.Online
      ? 'garage.hostStatus.online'
      : 'garage.hostStatus.offline';
  let when: string;
  if (host.LiveLink && !host.Online)
    when = host.OfflineSince
      ? t('garageUi.host.offlineSince', { time: formatSiteTime(host.OfflineSince) })
      : host.LastSeenAt
        ? t('garageUi.host.lastSeen', { time: formatSiteTime(host.LastSeenAt) })
        : t('garageUi.host.neverConnected');
  else
    when = host.LastSeenAt
      ? t('garageUi.host.lastSeen', { time: formatSiteTime(host.LastSeenAt) })
      : t('garageUi.host.neverSeen');
  const device = host.Device
    ? [host.Device.Vendor, host.Device.Model, host.Device.Firmware].filter(Boolean).join(' · ')
    : '';
  return (
    <Space size={inline ? 8 : 2} orientation={inline ? 'horizontal' : 'vertical'} wrap={inline}>
      <Tag
        color={host.Online ? 'success' : host.LiveLink ? 'error' : 'default'}
        data-testid="host-online"
        data-online={host.Online}
      >
        {t(label)}
      </Tag>
      <Typography.Text type="secondary" className="garage-occupancy-detail" data-testid="host-seen">
        {when}
      </Typography.Text>
      {device && (
        <Typography.Text type="secondary" className="garage-occupancy-detail" data-testid="host-device">
          {device}
        </Typography.Text>
      )}
    </Space>
  );
}
