import { Button, Select, Space } from 'antd';
import { LeftOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** A host the grid can show, as the pickers list it. */
interface GridHost {
  Id: number;
  Name: string;
  SerialNumber: string;
}

/**
 * The grid's toolbar: the zone picker, the host picker between its arrows (stepping through the zone's hosts)
 * and "refresh".
 */
export function SocketGridToolbar({
  zones,
  zoneId,
  onZone,
  inZone,
  hostId,
  onHost,
  hostsLoading,
  refreshing,
  onRefresh,
}: {
  zones: [number, string][];
  zoneId: number | undefined;
  onZone(zoneId: number | undefined): void;
  /** The hosts of the chosen zone (all of them without one). */
  inZone: GridHost[];
  hostId: number | undefined;
  onHost(hostId: number | undefined): void;
  hostsLoading: boolean;
  refreshing: boolean;
  onRefresh(): void;
}) {
  const { t } = useTranslation();
  const index = inZone.findIndex((h) => h.Id === hostId);
  return (
    <Space wrap className="socket-grid-toolbar">
      <Select
        allowClear
        value={zoneId}
        onChange={(value: number | undefined) => onZone(value)}
        placeholder={t('garageUi.socket.allZones')}
        aria-label={t('garage.field.ZoneName')}
        options={zones.map(([id, name]) => ({ value: id, label: name }))}
        style={{ width: 200 }}
        data-testid="grid-zone"
      />
      {/* The arrows stay beside the host on a phone (issue 21, item 12): one group that does not wrap. */}
      <Space.Compact className="socket-grid-stepper">
        <Button
          icon={<LeftOutlined />}
          disabled={index <= 0}
          onClick={() => onHost(inZone[index - 1]?.Id)}
          aria-label={t('garageUi.socket.previousHost')}
        />
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          value={hostId}
          onChange={(value: number) => onHost(value)}
          placeholder={t('garageUi.socket.chooseHost')}
          aria-label={t('garage.field.HostName')}
          options={inZone.map((h) => ({ value: h.Id, label: `${h.Name} (${h.SerialNumber})` }))}
          className="socket-grid-host-select"
          loading={hostsLoading}
          data-testid="grid-host"
        />
        <Button
          icon={<RightOutlined />}
          disabled={index < 0 || index >= inZone.length - 1}
          onClick={() => onHost(inZone[index + 1]?.Id)}
          aria-label={t('garageUi.socket.nextHost')}
          data-testid="grid-next-host"
        />
      </Space.Compact>
      <Button icon={<ReloadOutlined />} loading={refreshing} onClick={onRefresh} data-testid="grid-refresh">
        {t('garageUi.socket.refresh')}
      </Button>
    </Space>
  );
}
