import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ForcedOutageRecordApi,
  findEnumItem,
  forcedOutageResult,
  BICYCLE_ANY,
  type ForcedOutageRecordItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { AmountCell, socketColumn } from '../cells.tsx';
import { placeFilters } from '../options.ts';
import { recordRange } from '../record-range.ts';

type OutageRow = ForcedOutageRecordItem;

/** Power cut green, failed red, recorded but not sent orange: the result is what the device did. */
const RESULT_COLOURS: Record<number, string> = { 0: 'warning', 1: 'success', 2: 'error' };

/** The device's answer and, unless the power was cut, why (in the reader's language). */
function ResultCell({ row }: { row: OutageRow }) {
  const { t } = useTranslation();
  const item = findEnumItem(forcedOutageResult, row.Result);
  return (
    <Space size={2} orientation="vertical" data-testid="outage-result" data-result={row.Result}>
      <Tag color={RESULT_COLOURS[row.Result] ?? 'default'}>{item ? t(item.key as never) : row.Result}</Tag>
      {row.ResultText && (
        <Typography.Text type="secondary" className="outage-result-reason">
          {row.ResultText}
        </Typography.Text>
      )}
    </Space>
  );
}

/** Forced power-off records: who cut which socket when and why, the order it ended and the device's answer. */
const config: ListPageConfig<OutageRow> = {
  api: ForcedOutageRecordApi,
  read: BICYCLE_ANY,
  write: [],
  actions: { export: true },
  defaultSort: { field: 'At', order: 'desc' },
  filters: [
    recordRange('garage.field.At'),
    {
      name: 'Keyword',
      label: 'garageUi.keyword',
      kind: 'text',
      placeholder: 'garageUi.powerOff.keyword',
      width: 220,
    },
    ...placeFilters,
    {
      name: 'Result',
      label: 'garage.field.Result',
      kind: 'select',
      options: { kind: 'enum', def: forcedOutageResult },
    },
    { name: 'UserName', label: 'garage.field.Operator', kind: 'text', width: 140 },
  ],
  columns: [
    { key: 'At', title: 'garage.field.At', kind: 'instant', sort: 'At', width: 170 },
    socketColumn(),
    { key: 'Reason', title: 'garage.field.Reason', ellipsis: true, width: 220 },
    {
      key: 'Result',
      title: 'garage.field.Result',
      width: 220,
      render: (row) => <ResultCell row={row} />,
    },
    { key: 'UserName', title: 'garage.field.Operator', width: 110 },
    { key: 'OrderNo', title: 'garage.field.OrderNo', width: 190 },
    { key: 'CardNumber', title: 'garage.field.CardNumber', width: 120 },
    {
      key: 'AmountCents',
      title: 'garage.field.Amount',
      width: 110,
      render: (row) => <AmountCell cents={row.AmountCents} estimated={false} />,
    },
    { key: 'ZoneName', title: 'garage.field.ZoneName', width: 160 },
  ],
};

export default function ForcedOutageRecordsPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.forcedOutageRecords')} />;
}
