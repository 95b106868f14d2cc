import {
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  MAX_TEMPERATURE_C,
  ParkAreaApi,
  type ParkAreaItem,
} from '@gatehouse/shared';
import { Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { openScreen, ruleOptions, socketsHref } from '../options.ts';
import { ZonePowerBar, powerBudgetField } from './ZonePower.tsx';
import { openEmergencyDialog } from './emergency.ts';
import { EmergencyDialog } from './EmergencyDialog.tsx';
import { EmergencyStopBanner } from './EmergencyStopBanner.tsx';
import '../garage.css';

type ZoneRow = ParkAreaItem;

/**
 * Live socket occupancy of a zone: occupied / total, a bar, and the idle, fault, disabled and unknown counts
 * (sockets nothing connected reports: not counted as idle or charging).
 */
function Occupancy({ zone }: { zone: ZoneRow }) {
  const { t } = useTranslation();
  const percent = zone.SocketsTotal ? Math.round((zone.SocketsOccupied / zone.SocketsTotal) * 100) : 0;
  const detail = [
    `${t('garage.portGroup.idle')} ${zone.SocketsIdle}`,
    `${t('garage.portGroup.fault')} ${zone.SocketsFault}`,
    `${t('garage.portGroup.disabled')} ${zone.SocketsDisabled}`,
    ...(zone.SocketsOffline ? [`${t('garage.portGroup.offline')} ${zone.SocketsOffline}`] : []),
  ].join(' · ');
  return (
    <Tooltip title={detail}>
      <div data-testid="zone-occupancy">
        <div className="garage-occupancy">
          <span className="list-page-nowrap">
            {zone.SocketsOccupied} / {zone.SocketsTotal}
          </span>
          <Progress
            percent={percent}
            size="small"
            showInfo={false}
            style={{ width: 80, margin: 0 }}
            aria-label={t('garageUi.zone.occupancy')}
          />
        </div>
        <Typography.Text type="secondary" className="garage-occupancy-detail">
          {detail}
        </Typography.Text>
      </div>
    </Tooltip>
  );
}

/** Parking zones: capacity, location, the rules that apply, and live occupancy. */
const config: ListPageConfig<ZoneRow> = {
  api: ParkAreaApi,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  actions: { create: true, edit: true, remove: true, batchRemove: true, status: true, export: true },
  invalidates: ['garage.zones', 'garage.gridHosts'],
  refreshes: ['ChargeRule', 'ChargeHost', 'ChargeEquipment'],
  defaultSort: { field: 'Name', order: 'asc' },
  filters: [
    { name: 'Name', label: 'garage.field.ZoneName', kind: 'text' },
    { name: 'ChargeRuleId', label: 'garage.field.ChargeRules', kind: 'select', options: ruleOptions },
    { name: 'Disabled', label: 'garage.field.Status', kind: 'bool' },
  ],
  columns: [
    {
      key: 'Name',
      title: 'garage.field.ZoneName',
      sort: 'Name',
      width: 160,
      // Under emergency stop: said on the row too (the banner above names who, why and since when).
      render: (row, tr) => (
        <>
          {row.Name}
          {row.EmergencyStop && (
            <Tag color="red" className="garage-emergency-tag" data-testid="zone-emergency-tag">
              {tr('garageUi.emergency.tag')}
            </Tag>
          )}
        </>
      ),
    },
    { key: 'Capacity', title: 'garage.field.Capacity', sort: 'Capacity', width: 90 },
    {
      key: 'SocketsOccupied',
      title: 'garageUi.zone.occupancy',
      width: 170,
      render: (row) => <Occupancy zone={row} />,
    },
    // The live draw against the zone's power budget (docs/garage.md "Zone power budget").
    {
      key: 'Power',
      title: 'garageUi.zonePower.title',
      width: 230,
      render: (row) => <ZonePowerBar power={row.Power} />,
    },
    { key: 'ParkedCount', title: 'garage.field.ParkedCount', width: 110 },
    { key: 'HostCount', title: 'garage.field.HostCount', width: 80 },
    { key: 'Disabled', title: 'garage.field.Status', kind: 'status', width: 100 },
    {
      key: 'ChargeRules',
      title: 'garage.field.ChargeRules',
      width: 230,
      render: (row, tr) =>
        row.ChargeRules.length ? (
          <Space size={[0, 4]} wrap>
            {row.ChargeRules.map((r) => (
              <Tag key={r.Id} color={r.Disabled ? 'default' : 'blue'}>
                {r.Name}
                {r.Disabled ? ` (${tr('enum.disabledFlag.true')})` : ''}
              </Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        ),
    },
    { key: 'Location', title: 'garage.field.Location', ellipsis: true, width: 140 },
    {
      key: 'MaxTemperatureC',
      title: 'garage.field.MaxTemperatureC',
      width: 110,
      render: (row, tr) =>
        row.MaxTemperatureC === null ? (
          <Typography.Text type="secondary">{tr('garageUi.heat.noLimit')}</Typography.Text>
        ) : (
          tr('garageUi.heat.degrees', { value: row.MaxTemperatureC })
        ),
    },
  ],
  form: {
    width: 720,
    fields: [
      { name: 'Name', label: 'garage.field.ZoneName', kind: 'text', required: true, maxLength: 50 },
      {
        name: 'Capacity',
        label: 'garage.field.Capacity',
        kind: 'number',
        required: true,
        min: 0,
        max: 100_000,
      },
      { name: 'Location', label: 'garage.field.Location', kind: 'text', maxLength: 100, wide: true },
      {
        name: 'ChargeRuleIds',
        label: 'garage.field.ChargeRules',
        kind: 'multiSelect',
        options: ruleOptions,
        wide: true,
        extra: 'garageUi.zone.rulesHint',
      },
      // Heat (docs/garage.md "Heat"): above this a charger of the zone puts its host in alarm; empty, none.
      {
        name: 'MaxTemperatureC',
        label: 'garage.field.MaxTemperatureC',
        kind: 'number',
        min: MAX_TEMPERATURE_C.min,
        max: MAX_TEMPERATURE_C.max,
        extra: 'garageUi.heat.limitHint',
      },
      powerBudgetField,
      { name: 'Remark', label: 'garage.field.Remark', kind: 'textarea', maxLength: 200 },
    ],
    // An emptied limit is sent as null (removed); left out, the server would keep the old one.
    toBody: (values) => ({
      ...values,
      ChargeRuleIds: values.ChargeRuleIds ?? [],
      MaxTemperatureC: values.MaxTemperatureC ?? null,
    }),
  },
  rowActions: [
    {
      key: 'sockets',
      label: 'garageUi.zone.sockets',
      codes: BICYCLE_ANY,
      run: (row) => openScreen(socketsHref({ ParkAreaId: row.Id })),
    },
    // docs/garage.md "Emergency stop": Bicycle/Admin, each with a required reason or note.
    {
      key: 'emergencyStop',
      label: 'garageUi.emergency.stop',
      codes: BICYCLE_ADMIN,
      danger: true,
      visible: (row) => row.EmergencyStop === null,
      run: (row) => openEmergencyDialog({ mode: 'stop', zone: row }),
    },
    {
      key: 'emergencyRelease',
      label: 'garageUi.emergency.release',
      codes: BICYCLE_ADMIN,
      visible: (row) => row.EmergencyStop !== null,
      run: (row) => openEmergencyDialog({ mode: 'release', zone: row }),
    },
  ],
};

export function ZonesList() {
  const { t } = useTranslation();
  return (
    <>
      <EmergencyStopBanner />
      <ListPage config={config} title={t('route.parkAreas')} />
      <EmergencyDialog />
    </>
  );
}
