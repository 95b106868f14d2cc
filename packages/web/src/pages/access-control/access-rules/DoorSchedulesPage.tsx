import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ADMIN,
  ACCESS_CONTROL_ANY,
  DoorScheduleApi,
  doorScheduleAction,
  type DoorScheduleItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { drivenDeviceField, drivenDeviceFilter, weekdayOptions, weekdayText } from './options.ts';
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
    {
      key: 'Weekdays',
      title: 'accessControl.field.Weekdays',
      width: 200,
      render: (row, t) => weekdayText(row.Weekdays, t),
    },
    {
      // Both ends of the range, under a header that says so.
      key: 'StartDate',
      title: 'accessControl.field.DateRange',
      width: 200,
      render: (row) => `${row.StartDate} ~ ${row.EndDate}`,
    },
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
      { name: 'StartDate', label: 'accessControl.field.StartDate', kind: 'date', required: true },
      { name: 'EndDate', label: 'accessControl.field.EndDate', kind: 'date', required: true },
      {
        name: 'Weekdays',
        label: 'accessControl.field.Weekdays',
        kind: 'multiSelect',
        options: weekdayOptions,
        required: true,
        wide: true,
      },
      { name: 'Remark', label: 'accessControl.field.Remark', kind: 'text', maxLength: 200 },
    ],
  },
};

export default function DoorSchedulesPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.doorSchedules')} />;
}
