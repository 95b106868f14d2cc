import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ANY,
  DoorAlarmApi,
  doorAlarmKind,
  doorAlarmState,
  type DoorAlarmItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { TwoLineCell } from '../cells.tsx';
import { deviceFilter, enumFilter } from '../options.ts';
import { recordRange } from '../record-range.ts';
import '../access-control.css';

/**
 * Every alarm the area's doors raised, with who acknowledged it, when and with what note (Admin or User);
 * exported like the other records. The door monitor acknowledges; this is the history.
 */
const config: ListPageConfig<DoorAlarmItem> = {
  api: DoorAlarmApi,
  read: ACCESS_CONTROL_ANY,
  write: [],
  actions: { export: true },
  defaultSort: { field: 'RaisedAt', order: 'desc' },
  filters: [
    recordRange('accessControl.field.RaisedAt', null),
    enumFilter('Kind', 'accessControl.field.AlarmKind', doorAlarmKind, 160),
    enumFilter('State', 'accessControl.field.AlarmState', doorAlarmState, 110),
    deviceFilter,
  ],
  columns: [
    { key: 'RaisedAt', title: 'accessControl.field.RaisedAt', kind: 'instant', sort: 'RaisedAt', width: 170 },
    { key: 'Kind', title: 'accessControl.field.AlarmKind', kind: 'enum', enumDef: doorAlarmKind, width: 150 },
    {
      key: 'DeviceName',
      title: 'accessControl.field.DeviceName',
      width: 190,
      render: (row) => <TwoLineCell main={row.DeviceName} sub={row.DoorName} />,
    },
    { key: 'Count', title: 'accessControl.field.AlarmCount', kind: 'number', width: 70 },
    { key: 'Detail', title: 'accessControl.field.AlarmDetail', ellipsis: true },
    {
      key: 'ClearedAt',
      title: 'accessControl.field.ClearedAt',
      kind: 'instant',
      width: 170,
      secondary: true,
    },
    {
      key: 'State',
      title: 'accessControl.field.AlarmState',
      kind: 'enum',
      enumDef: doorAlarmState,
      width: 100,
    },
    { key: 'AcknowledgedBy', title: 'accessControl.field.AcknowledgedBy', width: 110 },
    { key: 'AcknowledgedAt', title: 'accessControl.field.AcknowledgedAt', kind: 'instant', width: 170 },
    { key: 'Note', title: 'accessControl.field.AlarmNote', ellipsis: true },
  ],
};

export default function DoorAlarmsPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.doorAlarms')} />;
}
