import { useTranslation } from 'react-i18next';
import {
  ACCESS_CONTROL_ANY,
  VisitorLogApi,
  doorDirection,
  doorRecordReason,
  doorRecordResult,
  findEnumItem,
  type VisitorLogItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { ResultTag, TwoLineCell } from '../cells.tsx';
import { deviceFilter, enumFilter } from '../options.ts';
import { recordRange } from '../record-range.ts';
import { passPeopleColumns } from './columns.tsx';
import '../access-control.css';

/**
 * The visitor log (Admin or User): every swipe of every visitor pass, granted or refused, with the visitor and the
 * host who invited them, read from the swipe records; the last week by default (at most 61 days), filtered by
 * visitor, result and controller, exported with the same filters.
 */
const config: ListPageConfig<VisitorLogItem> = {
  api: VisitorLogApi,
  read: ACCESS_CONTROL_ANY,
  write: [],
  actions: { export: true },
  defaultSort: { field: 'At', order: 'desc' },
  filters: [
    recordRange('accessControl.field.At'),
    {
      name: 'Keyword',
      label: 'adminUi.keyword',
      kind: 'text',
      placeholder: 'acUi.visitor.keyword',
      width: 200,
    },
    enumFilter('Result', 'accessControl.field.Result', doorRecordResult, 130),
    deviceFilter,
  ],
  columns: [
    { key: 'At', title: 'accessControl.field.At', kind: 'instant', sort: 'At', width: 170 },
    ...passPeopleColumns<VisitorLogItem>(false),
    {
      key: 'DeviceName',
      title: 'accessControl.field.DeviceName',
      width: 190,
      render: (row) => <TwoLineCell main={row.DeviceName} sub={row.ChannelName} />,
    },
    {
      key: 'Direction',
      title: 'accessControl.field.Direction',
      width: 80,
      render: (row, tr) => {
        const item = findEnumItem(doorDirection, row.Direction);
        return item ? tr(item.key as never) : '';
      },
    },
    {
      key: 'Result',
      title: 'accessControl.field.Result',
      width: 110,
      render: (row) => <ResultTag opened={row.Result} />,
    },
    {
      key: 'Reason',
      title: 'accessControl.field.Reason',
      render: (row, tr) => {
        const item = findEnumItem(doorRecordReason, row.Reason);
        return item ? tr(item.key as never) : String(row.Reason);
      },
    },
  ],
};

export default function VisitorLogPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.visitorLog')} />;
}
