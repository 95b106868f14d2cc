import { useTranslation } from 'react-i18next';
import { ChargeRecordApi, chargeStopReason, BICYCLE_ANY, type ChargeRecordItem } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { AmountCell, EndCell, EnergyCell, PaymentStateTag, socketColumn } from '../cells.tsx';
import { flagOptions, placeFilters } from '../options.ts';
import { recordRange } from '../record-range.ts';

/** Charging records: the sessions as measured, read-only, with the order each one priced. */
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
      kind: 'enum',
      enumDef: chargeStopReason,
      width: 140,
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
  ],
};

export default function ChargeRecordsPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.chargeRecords')} />;
}
