import { useTranslation } from 'react-i18next';
import { ChargeRecordApi, chargeStopReason, BICYCLE_ANY, type ChargeRecordItem } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { PriceLines } from '../charge-order/PriceLines.tsx';
import { AmountCell, EndCell, EnergyCell, PaymentStateTag, socketColumn } from '../cells.tsx';
import { flagOptions, placeFilters } from '../options.ts';
import { recordRange } from '../record-range.ts';
import { StopReasonLine, StopReasonTag } from './StopReason.tsx';

/**
 * Charging records: the sessions as measured, read-only, with the order each one priced. Filtered by a card
 * number it is that card holder's charging history (issue 30, "the user told"): a session ended by a safety stop
 * says so in red, and its row opens on the line of how it ended and its order's itemised charges.
 */
const config: ListPageConfig<ChargeRecordItem> = {
  api: ChargeRecordApi,
  read: BICYCLE_ANY,
  write: [],
  actions: { export: true },
  defaultSort: { field: 'StartAt', order: 'desc' },
  filters: [
    recordRange('garage.field.StartAt'),
    { name: 'CardNumber', label: 'garage.field.CardNumber', kind: 'text' },
    ...placeFilters,
    {
      name: 'StopReason',
      label: 'garage.field.StopReason',
      kind: 'select',
      options: { kind: 'enum', def: chargeStopReason },
    },
    {
      name: 'Open',
      label: 'garageUi.order.progress',
      kind: 'select',
      options: flagOptions('garageUi.charging', 'garageUi.ended'),
      width: 120,
    },
  ],
  columns: [
    { key: 'StartAt', title: 'garage.field.StartAt', kind: 'instant', sort: 'StartAt', width: 170 },
    {
      key: 'EndAt',
      title: 'garage.field.EndAt',
      sort: 'EndAt',
      width: 170,
      render: (row) => <EndCell value={row.EndAt} running="garageUi.charging" />,
    },
    { key: 'ZoneName', title: 'garage.field.ZoneName', width: 160 },
    socketColumn(),
    { key: 'CardNumber', title: 'garage.field.CardNumber', width: 120 },
    { key: 'DurationMinutes', title: 'garage.field.DurationMinutes', width: 110 },
    {
      key: 'EnergyWh',
      title: 'garage.field.EnergyKWh',
      sort: 'EnergyWh',
      width: 110,
      render: (row) => <EnergyCell wh={row.EnergyWh} />,
    },
    {
      key: 'StopReason',
      title: 'garage.field.StopReason',
      width: 140,
      render: (row) => <StopReasonTag value={row.StopReason} />,
    },
    { key: 'OrderNo', title: 'garage.field.OrderNo', width: 190 },
    {
      key: 'AmountCents',
      title: 'garage.field.Amount',
      width: 140,
      render: (row) => <AmountCell cents={row.AmountCents} estimated={row.Estimated} />,
    },
    {
      key: 'PaymentState',
      title: 'garage.field.PaymentState',
      width: 120,
      render: (row) => <PaymentStateTag value={row.PaymentState} />,
    },
    // The row's detail: how the session ended, in words for a safety stop, and what its order charged, line by
    // line as the charging-order screen shows it (docs/garage.md, "Tariff dimensions").
    {
      key: 'StopReason',
      title: 'garageUi.record.ended',
      secondary: true,
      detailSpan: 'filled',
      render: (row, tr) => (row.Open ? tr('garageUi.charging') : <StopReasonLine value={row.StopReason} />),
    },
    {
      key: 'Lines',
      title: 'garageUi.order.lines',
      secondary: true,
      detailSpan: 'filled',
      // No order (a session no rule priced): no lines, a dash.
      render: (row) => (
        <PriceLines lines={row.Lines} amountCents={row.AmountCents ?? 0} estimated={row.Estimated} />
      ),
    },
  ],
};

export { config as chargeRecordList };

export default function ChargeRecordsPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.chargeRecords')} />;
}
