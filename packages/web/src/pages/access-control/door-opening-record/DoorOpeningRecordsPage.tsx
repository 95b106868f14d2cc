import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { doorDirection, doorRecordReason, doorRecordResult } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { ResultTag, TwoLineCell } from '../cells.tsx';
import { AC_ANY } from '../codes.ts';
import { deviceOptions } from '../options.ts';
import { recordRange } from '../record-range.ts';
import '../access-control.css';

interface SwipeRow {
  Id: number;
  At: string;
  CardNumber: string;
  CardValue: number;
  CardUserId: number | null;
  HolderName: string | null;
  DeviceId: number;
  DeviceName: string;
  ChannelName: string | null;
  DoorNumber: number;
  Direction: number;
  Result: boolean;
  Reason: number;
  [key: string]: unknown;
}

/**
 * Door-opening (swipe) records, newest first: the last week by default, never more than 61 days (the
 * server's limit), by result, holder, card and device; exported with the same filters.
 */
const config: ListPageConfig<SwipeRow> = {
  resource: 'DoorOpeningRecord',
  read: AC_ANY,
  write: [],
  actions: { export: true },
  filters: [
    recordRange('accessControl.field.At'),
    {
      name: 'Result',
      label: 'accessControl.field.Result',
      kind: 'select',
      options: { kind: 'enum', def: doorRecordResult },
      width: 130,
    },
    { name: 'HolderName', label: 'accessControl.field.HolderName', kind: 'text', width: 140 },
    {
      name: 'CardNumber',
      label: 'accessControl.field.CardNumber',
      kind: 'text',
      width: 150,
      placeholder: 'acUi.record.wholeCard',
    },
    {
      name: 'DeviceId',
      label: 'accessControl.field.DeviceName',
      kind: 'select',
      options: deviceOptions,
      width: 220,
    },
  ],
  columns: [
    { key: 'At', title: 'accessControl.field.At', kind: 'instant', width: 170 },
    {
      key: 'CardNumber',
      title: 'accessControl.field.CardNumber',
      width: 130,
      render: (row, tr) => (
        <Tooltip title={tr('acUi.card.deviceForm', { value: row.CardValue })}>
          <span className="ac-card-number">{row.CardNumber}</span>
        </Tooltip>
      ),
    },
    {
      key: 'HolderName',
      title: 'accessControl.field.HolderName',
      width: 110,
    },
    {
      key: 'DeviceName',
      title: 'accessControl.field.DeviceName',
      width: 170,
      render: (row) => <TwoLineCell main={row.DeviceName} sub={row.ChannelName} />,
    },
    {
      key: 'Direction',
      title: 'accessControl.field.Direction',
      kind: 'enum',
      enumDef: doorDirection,
      width: 80,
    },
    {
      key: 'Result',
      title: 'accessControl.field.Result',
      width: 110,
      render: (row) => <ResultTag opened={row.Result} />,
    },
    { key: 'Reason', title: 'accessControl.field.Reason', kind: 'enum', enumDef: doorRecordReason },
  ],
};

export default function DoorOpeningRecordsPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.doorOpeningRecords')} />;
}
