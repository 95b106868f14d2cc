import { Alert, Typography } from 'antd';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  ChargeHostApi,
  chargingSystemType,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  type ChargeHostItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { PageModal } from '../../../components/PageModal.tsx';
import { call } from '../../../core/api.ts';
import { DIALOG_MASK, feedback } from '../../../core/feedback.tsx';
import { closeDialog, openDialog, useGarageDialogs } from '../dialogs.ts';
import { openScreen, socketsHref, zoneOptions } from '../options.ts';
import '../garage.css';
import { hostForm } from './host-form.ts';
import { ClearHeatAlarmDialog } from './ClearHeatAlarmDialog.tsx';
import { HeatAlarmTag, openClearHeatAlarm } from './HeatAlarm.tsx';
import { HostConfiguration } from './HostConfiguration.tsx';
import { HostPresence } from './HostPresence.tsx';

type HostRow = ChargeHostItem;

/**
 * Shows a host's new OCPP password once (docs/chargers.md, "Connecting a charger"): the server keeps only
 * its hash, so closing this is the last chance to copy it into the charger.
 */
function PasswordOnceDialog() {
  const { t } = useTranslation();
  const shown = useGarageDialogs((s) => s.ocppPassword);
  const onClose = () => closeDialog('ocppPassword');
  return (
    <PageModal
      open={shown !== null}
      title={t('garageUi.host.ocppPassword')}
      mask={DIALOG_MASK}
      keyboard={false}
      destroyOnHidden
      okText={t('garageUi.host.passwordCopied')}
      cancelButtonProps={{ style: { display: 'none' } }}
      onOk={onClose}
      onCancel={onClose}
    >
      {shown && (
        <>
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('garageUi.host.passwordOnce')}
            description={t('garageUi.host.passwordUse', { serial: shown.host.SerialNumber })}
          />
          <Typography.Paragraph
            copyable={{ text: shown.password }}
            code
            className="garage-password"
            data-testid="ocpp-password"
          >
            {shown.password}
          </Typography.Paragraph>
        </>
      )}
    </PageModal>
  );
}

/** Charging hosts: serial, zone, ports, charging system and its connection, presence; a way to their sockets. */
const config: ListPageConfig<HostRow> = {
  api: ChargeHostApi,
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
  // At 1440 px the key columns (name and serial, presence, sockets, status, system type, address) stay in
  // view beside the actions; the zone and the remark yield to the row's detail (issue 21, item 7).
  columns: [
    {
      key: 'Name',
      title: 'garageUi.host.name',
      sort: 'Name',
      width: 150,
      render: (row) => (
        <div>
          <div>{row.Name}</div>
          <Typography.Text type="secondary" className="garage-host-serial">
            {row.SerialNumber}
          </Typography.Text>
          {/* In heat alarm: no session starts on it until an operator clears it (docs/garage.md "Heat"). */}
          {row.HeatAlarm && (
            <div>
              <HeatAlarmTag alarm={row.HeatAlarm} />
            </div>
          )}
        </div>
      ),
    },
    { key: 'SerialNumber', title: 'garage.field.SerialNumber', sort: 'SerialNumber', secondary: true },
    { key: 'ZoneName', title: 'garage.field.ZoneName', sort: 'ZoneName', secondary: true },
    {
      key: 'LastSeenAt',
      title: 'garage.field.Online',
      sort: 'LastSeenAt',
      width: 150,
      render: (row) => <HostPresence host={row} />,
    },
    {
      key: 'SocketCount',
      title: 'garageUi.host.sockets',
      width: 110,
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
      width: 110,
    },
    {
      key: 'Endpoint',
      title: 'garage.field.Endpoint',
      width: 150,
      // Long addresses end in an ellipsis within the column, whole on hover.
      render: (row) =>
        row.Endpoint ? (
          <span className="garage-host-endpoint" title={row.Endpoint}>
            {row.Endpoint}
          </span>
        ) : (
          '-'
        ),
    },
    { key: 'Remark', title: 'garage.field.Remark', secondary: true },
    // What the charger did with the configuration the safety rules need (docs/chargers.md, "Configured by
    // Gatehouse"): in the row's detail, as the other things only a charging-API host has.
    {
      key: 'Configuration',
      title: 'garageUi.config.column',
      secondary: true,
      render: (row) => (row.LiveLink ? <HostConfiguration configuration={row.Configuration} /> : '-'),
    },
  ],
  form: hostForm<HostRow>(),
  rowActions: [
    {
      key: 'sockets',
      label: 'garageUi.host.viewSockets',
      codes: BICYCLE_ANY,
      run: (row) => openScreen(socketsHref({ ChargeHostId: row.Id })),
    },
    // A host in heat alarm takes no session until cleared, with a note (Admin code, like its other commands).
    {
      key: 'clearHeatAlarm',
      label: 'garageUi.heat.clear',
      codes: BICYCLE_ADMIN,
      danger: true,
      visible: (row) => row.HeatAlarm !== null,
      run: (row) => openClearHeatAlarm(row, row.HeatAlarm!),
    },
    // Commands go to charging-API hosts over their live link (docs/chargers.md, "Commands"); an offline
    // host, a refusal or no answer is the server's message.
    {
      key: 'reset',
      label: 'garageUi.host.reset',
      codes: BICYCLE_ADMIN,
      visible: (row) => row.LiveLink,
      confirm: 'garageUi.host.confirmReset',
      run: (row) =>
        call(ChargeHostApi.reset, { body: { Id: row.Id } })
          .then((reply) =>
            feedback.success(
              i18next.t('garageUi.host.resetAccepted', { host: row.Name, status: reply.Status }),
            ),
          )
          // The request client has shown why (offline, refused, no answer).
          .catch(() => undefined),
    },
    // One configuration pass on the charger (read, then write what differs); the row shows the outcome per key.
    {
      key: 'configure',
      label: 'garageUi.config.configure',
      codes: BICYCLE_ADMIN,
      visible: (row) => row.LiveLink,
      confirm: 'garageUi.config.confirmConfigure',
      run: (row) =>
        call(ChargeHostApi.configure, { body: { Id: row.Id } })
          .then(() => feedback.success(i18next.t('garageUi.config.configured', { host: row.Name })))
          .catch(() => undefined),
    },
    {
      key: 'ocppPassword',
      label: 'garageUi.host.setPassword',
      codes: BICYCLE_ADMIN,
      visible: (row) => row.LiveLink,
      confirm: 'garageUi.host.confirmPassword',
      run: (row) =>
        call(ChargeHostApi.setOcppPassword, { body: { Id: row.Id } })
          .then((reply) => openDialog('ocppPassword', { host: row, password: reply.Password }))
          .catch(() => undefined),
    },
  ],
};

export default function ChargeHostsPage() {
  const { t } = useTranslation();
  return (
    <>
      <ListPage config={config} title={t('route.chargeHosts')} />
      <PasswordOnceDialog />
      <ClearHeatAlarmDialog />
    </>
  );
}
