import type { ChargeHostItem } from '@gatehouse/shared';
import { useMemo } from 'react';
import { Space, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { chargingSystemType, BICYCLE_ADMIN, BICYCLE_ANY } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { zoneOptions } from '../options.ts';
import { hostForm } from './host-form.ts';
import { formatSiteTime } from '../../../core/site-time.ts';

type HostRow = ChargeHostItem;

/** Online (reported within the last minutes) or offline, with when it was last heard from. */
function Presence({ host }: { host: HostRow }) {
  const { t } = useTranslation();
  return (
    <Space size={4} orientation="vertical">
      <Tag color={host.Online ? 'success' : 'default'} data-testid="host-online">
        {t(host.Online ? 'garage.hostStatus.online' : 'garage.hostStatus.offline')}
      </Tag>
      <Typography.Text type="secondary" className="garage-occupancy-detail">
        {host.LastSeenAt ? formatSiteTime(host.LastSeenAt) : t('garageUi.host.neverSeen')}
      </Typography.Text>
    </Space>
  );
}

/** Charging hosts: serial, zone, ports, charging system and its connection, presence; a way to their sockets. */
export default function ChargeHostsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = useMemo<ListPageConfig<HostRow>>(
    () => ({
      resource: 'ChargeHost',
      read: BICYCLE_ANY,
      write: BICYCLE_ADMIN,
      actions: { create: true, edit: true, remove: true, batchRemove: true, status: true, export: true },
      invalidates: ['garage.hosts', 'garage.gridHosts'],
      refreshes: ['ParkArea', 'ChargeEquipment'],
      defaultSort: { field: 'Name', order: 'asc' },
      filters: [
        {
          name: 'Keyword',
          label: 'garageUi.keyword',
          kind: 'text',
          placeholder: 'garageUi.host.keyword',
        },
        { name: 'ParkAreaId', label: 'garage.field.ZoneName', kind: 'select', options: zoneOptions },
        {
          name: 'ChargingSystemType',
          label: 'garage.field.ChargingSystemType',
          kind: 'select',
          options: { kind: 'enum', def: chargingSystemType },
        },
        { name: 'Disabled', label: 'garage.field.Status', kind: 'bool' },
      ],
      columns: [
        { key: 'Name', title: 'garageUi.host.name', sort: 'Name', width: 170 },
        { key: 'SerialNumber', title: 'garage.field.SerialNumber', sort: 'SerialNumber', width: 130 },
        { key: 'ZoneName', title: 'garage.field.ZoneName', sort: 'ZoneName', width: 170 },
        {
          key: 'LastSeenAt',
          title: 'garage.field.Online',
          sort: 'LastSeenAt',
          width: 170,
          render: (row) => <Presence host={row} />,
        },
        {
          key: 'SocketCount',
          title: 'garageUi.host.sockets',
          width: 150,
          render: (row, tr) => (
            <span className="list-page-nowrap">
              {tr('garageUi.host.socketSummary', {
                total: row.SocketCount,
                occupied: row.SocketsOccupied,
                fault: row.SocketsFault,
              })}
            </span>
          ),
        },
        { key: 'Disabled', title: 'garage.field.Status', kind: 'status', width: 100 },
        {
          key: 'ChargingSystemType',
          title: 'garage.field.ChargingSystemType',
          kind: 'enum',
          enumDef: chargingSystemType,
          width: 150,
        },
        { key: 'Endpoint', title: 'garage.field.Endpoint', ellipsis: true, width: 200 },
        { key: 'Remark', title: 'garage.field.Remark', ellipsis: true },
      ],
      form: hostForm<HostRow>(),
      rowActions: [
        {
          key: 'sockets',
          label: 'garageUi.host.viewSockets',
          codes: BICYCLE_ANY,
          run: (row) => void navigate(`/Bicycle/chargeEquipment?ChargeHostId=${row.Id}&view=grid`),
        },
      ],
    }),
    [navigate],
  );
  return <ListPage config={config} title={t('route.chargeHosts')} />;
}
