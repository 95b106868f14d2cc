import { DeviceRegistrationApi, type AccessControlDeviceItem } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { deviceModelColumns, deviceModelFilters } from '../access-control-device/device-columns.tsx';
import { assignedFilter } from '../pool/filters.ts';
import { PoolPage, poolAreaColumn, poolList } from '../pool/PoolPage.tsx';
import { REGISTER_DEFAULTS, registerDevicesForm } from './register-devices.tsx';

type DeviceRow = AccessControlDeviceItem;

const DEVICE_POOL = poolList<DeviceRow>({
  api: DeviceRegistrationApi,
  title: 'route.deviceRegistration',
  filters: [
    { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'acUi.device.keyword' },
    ...deviceModelFilters,
    assignedFilter,
  ],
  columns: [
    {
      key: 'SerialNumber',
      title: 'accessControl.field.SerialNumber',
      sort: 'SerialNumber',
      width: 130,
      fixed: 'left',
    },
    { key: 'Name', title: 'accessControl.field.DeviceName', sort: 'Name', width: 160 },
    ...deviceModelColumns<DeviceRow>(),
    poolAreaColumn('acUi.pool.devicePool'),
    { key: 'ChannelCount', title: 'accessControl.field.ChannelCount', kind: 'number', width: 80 },
    { key: 'Remark', title: 'accessControl.field.Remark', ellipsis: true, width: 160 },
    { key: 'AssignedAt', title: 'accessControl.field.AssignedAt', kind: 'instant', width: 170 },
    {
      key: 'CreatedAt',
      title: 'accessControl.field.CreatedAt',
      kind: 'instant',
      sort: 'CreatedAt',
      width: 170,
      responsive: ['xxl'],
    },
  ],
  defaultSort: { field: 'CreatedAt', order: 'desc' },
  register: {
    label: 'acUi.device.register',
    testId: 'register-devices',
    form: registerDevicesForm,
    defaults: REGISTER_DEFAULTS,
    submit: async (body) =>
      (await call(DeviceRegistrationApi.register, { body: body as never }, { quiet: true })).length,
    done: 'accessControl.message.devicesRegistered',
  },
  assignOne: (row, t) => t('acUi.device.assignOne', { serial: row.SerialNumber }),
  assignMany: (count, t) => t('acUi.device.assignMany', { count }),
  confirmUnassign: 'acUi.device.confirmUnassign',
  confirmBatchUnassign: 'acUi.device.confirmBatchUnassign',
});

/**
 * Device registration (SuperAdmin): controllers enter the pool by serial number and are assigned to one of
 * the caller's areas, or returned to the pool. The list shows the pool and the caller's areas.
 */
export default function DeviceRegistrationPage() {
  return <PoolPage list={DEVICE_POOL} />;
}
