import { useMemo } from 'react';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ChargeEquipmentApi,
  MAX_HOST_PORTS,
  chargePortState,
  formatCents,
  formatKWh,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  PORT_STATE_GROUPS,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { openDialog } from '../dialogs.ts';
import { hostOptions, placeFilters } from '../options.ts';
import { canPowerOff, type SocketRow } from './types.ts';
import './sockets.css';

/** The sockets as a table: filters by zone, host and state, the running session, and the standard actions. */
const config: ListPageConfig<SocketRow> = {
  api: ChargeEquipmentApi,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  actions: { create: true, edit: true, remove: true, batchRemove: true, status: true, export: true },
  defaultSort: { field: 'Host', order: 'asc' },
  refreshes: ['ParkArea', 'ChargeHost'],
  filters: [
    { name: 'Keyword', label: 'garageUi.keyword', kind: 'text', placeholder: 'garageUi.host.keyword' },
    ...placeFilters,
    {
      name: 'StateGroup',
      label: 'garageUi.socket.group',
      kind: 'select',
      options: {
        kind: 'static',
        options: (tr) => PORT_STATE_GROUPS.map((g) => ({ value: g, label: tr(`garage.portGroup.${g}`) })),
      },
    },
    {
      name: 'State',
      label: 'garage.field.State',
      kind: 'select',
      options: { kind: 'enum', def: chargePortState },
    },
  ],
  columns: [
    {
      key: 'HostName',
      title: 'garage.field.HostName',
      sort: 'Host',
      width: 160,
      // Name over serial, as device management shows a controller: on one line the pair took the width the
      // running session needs beside the actions column.
      render: (row) => (
        <span className="socket-lines">
          <span>{row.HostName}</span>
          <Typography.Text type="secondary">{row.HostSerialNumber}</Typography.Text>
        </span>
      ),
    },
    { key: 'ZoneName', title: 'garage.field.ZoneName', width: 150 },
    { key: 'PortNumber', title: 'garage.field.PortNumber', sort: 'PortNumber', width: 80 },
    {
      key: 'State',
      title: 'garage.field.State',
      kind: 'enum',
      enumDef: chargePortState,
      sort: 'State',
      width: 150,
    },
    { key: 'Disabled', title: 'garage.field.Status', kind: 'status', width: 100 },
    {
      key: 'Session',
      title: 'garage.field.Session',
      width: 210,
      render: (row, tr) =>
        row.Session ? (
          <span className="socket-lines" data-testid="socket-session">
            <span>{row.Session.CardNumber ?? '-'}</span>
            <Typography.Text type="secondary">
              {tr('garageUi.socket.minutesEnergy', {
                minutes: row.Session.DurationMinutes,
                kwh: formatKWh(row.Session.EnergyWh),
              })}
              {row.Session.EstimatedCents !== null && ` · ¥${formatCents(row.Session.EstimatedCents)}`}
            </Typography.Text>
          </span>
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        ),
    },
    {
      key: 'StateChangedAt',
      title: 'garage.field.StateChangedAt',
      kind: 'instant',
      sort: 'StateChangedAt',
      width: 170,
    },
    { key: 'Remark', title: 'garage.field.Remark', ellipsis: true },
  ],
  form: {
    fields: [
      {
        name: 'ChargeHostId',
        label: 'garage.field.HostName',
        kind: 'select',
        required: true,
        options: hostOptions,
        only: 'create',
      },
      {
        name: 'PortNumber',
        label: 'garage.field.PortNumber',
        kind: 'number',
        required: true,
        min: 1,
        max: MAX_HOST_PORTS,
        extra: 'garageUi.socket.portHint',
      },
      { name: 'Remark', label: 'garage.field.Remark', kind: 'textarea', maxLength: 200 },
    ],
  },
  rowActions: [
    {
      key: 'power-off',
      label: 'garage.action.ForcedPowerOff',
      codes: BICYCLE_ANY,
      danger: true,
      visible: canPowerOff,
      run: (row) =>
        openDialog('powerOff', {
          socketId: row.Id,
          hostName: row.HostName,
          portNumber: row.PortNumber,
          session: row.Session,
        }),
    },
  ],
};

/** The table, opened on a host's or a zone's sockets when a link asks for them. */
export function SocketsTable({ initialFilters }: { initialFilters?: Record<string, unknown> | undefined }) {
  const { t } = useTranslation();
  const preset = useMemo(() => (initialFilters ? { ...config, initialFilters } : config), [initialFilters]);
  return <ListPage config={preset} title={t('route.chargeSockets')} />;
}
