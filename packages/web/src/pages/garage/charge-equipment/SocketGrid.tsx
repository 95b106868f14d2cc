import { useMemo, useState } from 'react';
import { Card, Empty, Skeleton, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ChargeEquipmentApi,
  ChargeHostApi,
  PORT_STATE_GROUPS,
  type ChargeEquipmentGrid,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { HostPresence } from '../charge-host/HostPresence.tsx';
import { HeatAlarmBanner } from '../charge-host/HeatAlarm.tsx';
import { openDialog } from '../dialogs.ts';
import { loadAll } from '../options.ts';
import { GRID_KEY } from '../live.ts';
import { ZonePowerBar } from '../park-area/ZonePower.tsx';
import { PortStateLegend } from './PortStateLegend.tsx';
import { SocketGridToolbar } from './SocketGridToolbar.tsx';
import { SocketTile } from './SocketTile.tsx';
import { canRemoteStart } from './types.ts';
import './sockets.css';

/**
 * The area's hub brings every change as it happens (GarageLive); the grid still reloads this often, so the
 * live estimate and minutes of a session whose charger sends no meter values move on, and a missed event
 * (a lost connection) does not last.
 */
const REFRESH_MS = 30_000;

/**
 * The sockets of one host as a grid coloured by state, with a legend, the host's presence and the group
 * counts; a zone picker narrows the hosts, and the arrows step through them.
 */
export function SocketGrid({
  initialHostId,
  initialZoneId,
}: {
  initialHostId?: number | undefined;
  initialZoneId?: number | undefined;
}) {
  const { t } = useTranslation();
  const hosts = useQuery({
    // Under 'options': the host screen reloads it after a write (its `invalidates`).
    queryKey: ['options', 'garage.gridHosts'],
    queryFn: () => loadAll(ChargeHostApi, { SortField: 'ZoneName', SortOrder: 'asc' }),
  });
  const [zoneId, setZoneId] = useState<number | undefined>(initialZoneId);
  const [chosen, setChosen] = useState<number | undefined>(initialHostId);

  const all = useMemo(() => hosts.data ?? [], [hosts.data]);
  const zones = useMemo(() => [...new Map(all.map((h) => [h.ParkAreaId, h.ZoneName])).entries()], [all]);
  const inZone = zoneId === undefined ? all : all.filter((h) => h.ParkAreaId === zoneId);
  const hostId = inZone.some((h) => h.Id === chosen) ? chosen : inZone[0]?.Id;

  const grid = useQuery({
    queryKey: [...GRID_KEY, hostId],
    queryFn: () => call(ChargeEquipmentApi.grid, { query: { ChargeHostId: hostId! } }),
    enabled: hostId !== undefined,
    refetchInterval: REFRESH_MS,
  });

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
      <SocketGridToolbar
        zones={zones}
        zoneId={zoneId}
        onZone={setZoneId}
        inZone={inZone}
        hostId={hostId}
        onHost={setChosen}
        hostsLoading={hosts.isLoading}
        refreshing={grid.isFetching}
        onRefresh={() => void grid.refetch()}
      />
      {data ? <HostSockets data={data} /> : <Skeleton active />}
    </Card>
  );
}

/** One host's sockets: its presence and group counts, the legend, and a tile per socket. */
function HostSockets({ data }: { data: ChargeEquipmentGrid }) {
  const { t } = useTranslation();
  const host = data.Host;
  return (
    <>
      <div className="socket-grid-host" data-testid="grid-host-summary">
        <Typography.Text strong>{host.Name}</Typography.Text>
        <Typography.Text type="secondary">
          {host.SerialNumber} · {host.ZoneName}
        </Typography.Text>
        <HostPresence host={host} inline />
        {host.Disabled && <Tag>{t('enum.disabledFlag.true')}</Tag>}
        <span className="socket-grid-counts">
          {PORT_STATE_GROUPS.map((g) => (
            <span key={g} data-group={g}>
              {t(`garage.portGroup.${g}`)} <strong>{data.Counts[g] ?? 0}</strong>
            </span>
          ))}
        </span>
      </div>
      {host.HeatAlarm && <HeatAlarmBanner host={host} alarm={host.HeatAlarm} />}
      {data.ZonePower.BudgetW !== null && (
        // The host's zone against its power budget: at it, "Start charging" is refused with the reason.
        <div className="socket-grid-power" data-testid="grid-zone-power">
          <Typography.Text type="secondary">
            {host.ZoneName} · {t('garageUi.zonePower.title')}
          </Typography.Text>
          <ZonePowerBar power={data.ZonePower} />
        </div>
      )}
      <PortStateLegend sockets={data.Sockets} />
      {data.Sockets.length === 0 ? (
        <Empty description={t('garageUi.socket.noSockets')} />
      ) : (
        <div className="socket-grid">
          {data.Sockets.map((socket) => (
            <SocketTile
              key={socket.Id}
              socket={socket}
              heatAlarm={host.HeatAlarm !== null}
              onRemoteStart={
                // A host in heat alarm refuses every start: nothing to offer until it is cleared.
                canRemoteStart(socket, host) && !host.HeatAlarm
                  ? () =>
                      openDialog('remoteStart', {
                        socketId: socket.Id,
                        hostName: host.Name,
                        portNumber: socket.PortNumber,
                      })
                  : undefined
              }
              onPowerOff={() =>
                openDialog('powerOff', {
                  socketId: socket.Id,
                  hostName: host.Name,
                  portNumber: socket.PortNumber,
                  session: socket.Session,
                })
              }
            />
          ))}
        </div>
      )}
    </>
  );
}
