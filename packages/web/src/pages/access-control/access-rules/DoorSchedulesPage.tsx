import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ADMIN,
  ACCESS_CONTROL_ANY,
  DoorScheduleApi,
  doorScheduleAction,
  type DoorScheduleItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import {
  dateRangeColumn,
  drivenDeviceField,
  drivenDeviceFilter,
  periodFields,
  weekdaysColumn,
} from './options.ts';
import '../access-control.css';

/**
 * Door schedules (read: Admin or User; write: Admin): at a time on chosen days within a date range, a door
 * becomes normally open, normally closed or controlled again, or its push button goes off or on. Each
 * controller holds its doors' schedules as its task list, rebuilt whole when one changes.
 */
const config: ListPageConfig<DoorScheduleItem> = {
  api: DoorScheduleApi,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ADMIN,
  actions: { create: true, edit: true, remove: true, export: true },
  defaultSort: { field: 'Time', order: 'asc' },
  filters: [drivenDeviceFilter],
  columns: [
    { key: 'DeviceName', title: 'accessControl.field.DeviceName', width: 170 },
    { key: 'DoorNumber', title: 'accessControl.field.DoorNumber', kind: 'number', width: 70 },
    { key: 'Time', title: 'accessControl.field.Time', width: 80 },
    {
      key: 'Action',
      title: 'accessControl.field.Action',
      kind: 'enum',
      enumDef: doorScheduleAction,
      width: 170,
    },
    weekdaysColumn(),
    dateRangeColumn(),
    { key: 'Remark', title: 'accessControl.field.Remark', ellipsis: true },
  ],
  form: {
    width: 720,
    defaults: () => ({ Weekdays: [1, 2, 3, 4, 5], Time: '07:00', Action: 1, DoorNumber: 1 }),
    fields: [
      { ...drivenDeviceField, only: 'create' },
      {
        name: 'DoorNumber',
        label: 'accessControl.field.DoorNumber',
        kind: 'number',
        min: 1,
        max: 4,
        required: true,
      },
      {
        name: 'Action',
        label: 'accessControl.field.Action',
        kind: 'select',
        options: { kind: 'enum', def: doorScheduleAction },
        required: true,
      },
      {
        name: 'Time',
        label: 'accessControl.field.Time',
        kind: 'text',
        required: true,
        placeholder: 'acUi.rules.timePlaceholder',
      },
      ...periodFields,
      { name: 'Remark', label: 'accessControl.field.Remark', kind: 'text', maxLength: 200 },
    ],
  },
};

export default function DoorSchedulesPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.doorSchedules')} />;
}
