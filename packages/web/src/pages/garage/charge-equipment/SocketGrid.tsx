import { useMemo, useState } from 'react';
import { Button, Card, Empty, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { LeftOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../core/http.ts';
import { loadAll } from '../options.ts';
import { PortStateLegend } from './PortStateLegend.tsx';
import { SocketTile } from './SocketTile.tsx';
import type { PortStateGroup, PowerOffTarget, SocketGridData } from './types.ts';
import './sockets.css';
import { formatSiteTime } from '../../../core/site-time.ts';

interface HostChoice {
  Id: number;
  Name: string;
  SerialNumber: string;
  ParkAreaId: number;
  ZoneName: string;
}

/** Live states change without anyone on this screen acting: the grid reloads itself this often. */
const REFRESH_MS = 30_000;
const GROUPS: PortStateGroup[] = ['idle', 'occupied', 'fault', 'disabled'];

/**
 * The sockets of one host as a grid coloured by state, with a legend, the host's presence and the group
 * counts; a zone picker narrows the hosts, and the arrows step through them.
 */
export function SocketGrid({
  initialHostId,
  initialZoneId,
  onPowerOff,
}: {
  initialHostId?: number | undefined;
  initialZoneId?: number | undefined;
  onPowerOff(target: PowerOffTarget): void;
}) {
  const { t } = useTranslation();
  const hosts = useQuery({
    // Under 'options': the host screen reloads it after a write (its `invalidates`).
    queryKey: ['options', 'garage.gridHosts'],
    queryFn: () => loadAll<HostChoice>('ChargeHost', { SortField: 'ZoneName', SortOrder: 'asc' }),
  });
  const [zoneId, setZoneId] = useState<number | undefined>(initialZoneId);
  const [chosen, setChosen] = useState<number | undefined>(initialHostId);

  const all = useMemo(() => hosts.data ?? [], [hosts.data]);
  const zones = useMemo(() => [...new Map(all.map((h) => [h.ParkAreaId, h.ZoneName])).entries()], [all]);
  const inZone = zoneId === undefined ? all : all.filter((h) => h.ParkAreaId === zoneId);
  const hostId = inZone.some((h) => h.Id === chosen) ? chosen : inZone[0]?.Id;
  const index = inZone.findIndex((h) => h.Id === hostId);

  const grid = useQuery({
    queryKey: ['garage.grid', hostId],
    queryFn: () =>
      http.get<SocketGridData>('/api/ChargeEquipment/Grid', { query: { ChargeHostId: hostId! } }),
    enabled: hostId !== undefined,
    refetchInterval: REFRESH_MS,
  });

  const toolbar = (
    <Space wrap className="socket-grid-toolbar">
      <Select
        allowClear
        value={zoneId}
        onChange={(value: number | undefined) => setZoneId(value)}
        placeholder={t('garageUi.socket.allZones')}
        options={zones.map(([id, name]) => ({ value: id, label: name }))}
        style={{ width: 200 }}
        data-testid="grid-zone"
      />
      <Button
        icon={<LeftOutlined />}
        disabled={index <= 0}
        onClick={() => setChosen(inZone[index - 1]?.Id)}
        aria-label={t('garageUi.socket.previousHost')}
      />
      <Select
        showSearch={{ optionFilterProp: 'label' }}
        value={hostId}
        onChange={(value: number) => setChosen(value)}
        placeholder={t('garageUi.socket.chooseHost')}
        options={inZone.map((h) => ({ value: h.Id, label: `${h.Name} (${h.SerialNumber})` }))}
        style={{ width: 280 }}
        loading={hosts.isLoading}
        data-testid="grid-host"
      />
      <Button
        icon={<RightOutlined />}
        disabled={index < 0 || index >= inZone.length - 1}
        onClick={() => setChosen(inZone[index + 1]?.Id)}
        aria-label={t('garageUi.socket.nextHost')}
        data-testid="grid-next-host"
      />
      <Button
        icon={<ReloadOutlined />}
        loading={grid.isFetching}
        onClick={() => void grid.refetch()}
        data-testid="grid-refresh"
      >
        {t('garageUi.socket.refresh')}
      </Button>
    </Space>
  );

  if (hosts.isLoading)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  if (all.length === 0)
    return (
      <Card>
        <Empty description={t('garageUi.socket.noHosts')} />
      </Card>
    );

  const data = grid.data?.Host.Id === hostId ? grid.data : undefined;
  return (
    <Card data-testid="socket-grid">
      {toolbar}
      {!data ? (
        <Skeleton active />
      ) : (
        <>
          <div className="socket-grid-host" data-testid="grid-host-summary">
            <Typography.Text strong>{data.Host.Name}</Typography.Text>
            <Typography.Text type="secondary">
              {data.Host.SerialNumber} · {data.Host.ZoneName}
            </Typography.Text>
            <Tag color={data.Host.Online ? 'success' : 'default'}>
              {t(data.Host.Online ? 'garage.hostStatus.online' : 'garage.hostStatus.offline')}
            </Tag>
            {data.Host.Disabled && <Tag>{t('enum.disabledFlag.true')}</Tag>}
            <Typography.Text type="secondary">
              {t('garage.field.LastSeenAt')}:{' '}
              {data.Host.LastSeenAt ? formatSiteTime(data.Host.LastSeenAt) : t('garageUi.host.neverSeen')}
            </Typography.Text>
            <span className="socket-grid-counts">
              {GROUPS.map((g) => (
                <span key={g} data-group={g}>
                  {t(`garage.portGroup.${g}`)} <strong>{data.Counts[g]}</strong>
                </span>
              ))}
            </span>
          </div>
          <PortStateLegend sockets={data.Sockets} />
          {data.Sockets.length === 0 ? (
            <Empty description={t('garageUi.socket.noSockets')} />
          ) : (
            <div className="socket-grid">
              {data.Sockets.map((socket) => (
                <SocketTile
                  key={socket.Id}
                  socket={socket}
                  onPowerOff={() =>
                    onPowerOff({
                      socketId: socket.Id,
                      hostName: data.Host.Name,
                      portNumber: socket.PortNumber,
                      session: socket.Session,
                    })
                  }
                />
              ))}
            </div>
          )}
        </>
      )}
    </Card>
  );
}
