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
import {
  EnumCell,
  ListPage,
  type ColumnDef,
  type ListPageConfig,
} from '../../../components/list-page/index.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { openDialog } from '../dialogs.ts';
import { hostOptions, placeFilters } from '../options.ts';
import { canPowerOff, type SocketRow } from './types.ts';
import './sockets.css';

/** Every column but the phone's summary: shown from sm (576 px) up. */
const WIDER: ColumnDef<SocketRow>['responsive'] = ['sm', 'md', 'lg', 'xl', 'xxl'];

type Tr = Parameters<NonNullable<ColumnDef<SocketRow>['render']>>[1];

/** A running session in two lines: the card, then minutes, energy and the live estimate. */
function SessionLines({ session, tr }: { session: NonNullable<SocketRow['Session']>; tr: Tr }) {
  return (
    <span className="socket-lines" data-testid="socket-session">
      <span>{session.CardNumber ?? '-'}</span>
      <Typography.Text type="secondary">
        {tr('garageUi.socket.minutesEnergy', {
          minutes: session.DurationMinutes,
          kwh: formatKWh(session.EnergyWh),
        })}
        {session.EstimatedCents !== null && ` · ¥${formatCents(session.EstimatedCents)}`}
      </Typography.Text>
    </span>
  );
}

/**
 * The sockets as a table: filters by zone, host and state, the running session, and the standard actions. It
 * opens on the sockets whose state is known (a connected charger's, or disabled) before the "unknown / not
 * connected" ones (the server's KnownFirst sort; docs/garage.md, "Screens").
 */
const config: ListPageConfig<SocketRow> = {
  api: ChargeEquipmentApi,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  actions: { create: true, edit: true, remove: true, batchRemove: true, status: true, export: true },
  defaultSort: { field: 'KnownFirst', order: 'asc' },
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
    // On a phone (xs) one column tells the socket whole: host and port, its state, the session or since when
    // the state holds; the table's own columns come back from sm up (issue 27: at 390 px the state and the
    // session were hidden behind a horizontal scroll nothing pointed at).
    {
      // The socket itself (a column's key names a field of the row).
      key: 'Id',
      title: 'garageUi.socket.column',
      responsive: ['xs'],
      // Wide enough for a state tag, narrow enough that the row and its stacked actions fit 390 px unscrolled.
      width: 150,
      render: (row, tr) => (
        <span className="socket-lines socket-summary" data-testid="socket-summary">
          <span>{tr('garageUi.socket.hostPort', { host: row.HostName, port: row.PortNumber })}</span>
          <span>
            <EnumCell def={chargePortState} value={row.State} />
          </span>
          {row.Session ? (
            <SessionLines session={row.Session} tr={tr} />
          ) : (
            <Typography.Text type="secondary">{formatSiteTime(row.StateChangedAt)}</Typography.Text>
          )}
        </span>
      ),
    },
    {
      key: 'HostName',
      title: 'garage.field.HostName',
      sort: 'Host',
      width: 160,
      responsive: WIDER,
      // Name over serial, as device management shows a controller: on one line the pair took the width the
      // running session needs beside the actions column.
      render: (row) => (
        <span className="socket-lines">
          <span>{row.HostName}</span>
          <Typography.Text type="secondary">{row.HostSerialNumber}</Typography.Text>
        </span>
      ),
    },
    { key: 'PortNumber', title: 'garage.field.PortNumber', sort: 'PortNumber', width: 80, responsive: WIDER },
    // What the operator came for, next to the socket: its state, since when and the running session; the status
    // switch, the zone and the remark follow (at 1440 px "since" was cut under the actions column).
    {
      key: 'State',
      title: 'garage.field.State',
      kind: 'enum',
      enumDef: chargePortState,
      sort: 'State',
      width: 150,
      responsive: WIDER,
    },
    {
      key: 'StateChangedAt',
      title: 'garage.field.StateChangedAt',
      kind: 'instant',
      sort: 'StateChangedAt',
      width: 160,
      responsive: WIDER,
    },
    {
      key: 'Session',
      title: 'garage.field.Session',
      width: 210,
      responsive: WIDER,
      render: (row, tr) =>
        row.Session ? (
          <SessionLines session={row.Session} tr={tr} />
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        ),
    },
    { key: 'Disabled', title: 'garage.field.Status', kind: 'status', width: 100, responsive: WIDER },
    // From 1600 px: the host's name already says where it is (and the zone is a filter); below that the two took
    // the width the state, its time and the session need beside the actions column.
    { key: 'ZoneName', title: 'garage.field.ZoneName', width: 150, responsive: ['xxl'] },
    { key: 'Remark', title: 'garage.field.Remark', ellipsis: true, responsive: ['xxl'] },
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
