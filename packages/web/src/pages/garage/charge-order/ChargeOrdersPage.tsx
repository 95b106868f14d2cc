import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  STOP_REASON,
  chargeStopReason,
  chargeType,
  findEnumItem,
  type ChargeOrderItem,
} from '@gatehouse/shared';
import { EnumCell } from '../../../components/list-page/index.ts';
import { EndCell, EnergyCell, socketColumn } from '../cells.tsx';
import { flagOptions, placeFilters } from '../options.ts';
import { OrdersPage, orderList } from '../orders/order-list.tsx';
import { PriceLines } from './PriceLines.tsx';

/** The charge types a charging order can have: temporary charging, or charging under a monthly pass. */
const CHARGING_TYPES = new Set([2, 3]);

/** Charging orders: the priced order of each session, its payment state and the operator's payment actions. */
export const chargeOrderList = orderList<ChargeOrderItem>('ChargeOrder', {
  range: 'garage.field.StartAt',
  defaultSort: 'StartAt',
  filters: {
    before: [
      { name: 'OrderNo', label: 'garage.field.OrderNo', kind: 'text' },
      { name: 'CardNumber', label: 'garage.field.CardNumber', kind: 'text' },
    ],
    after: [
      {
        name: 'ChargeType',
        label: 'garage.field.ChargeType',
        kind: 'select',
        options: {
          kind: 'static',
          options: (tr) =>
            chargeType.items
              .filter((i) => CHARGING_TYPES.has(i.value))
              .map((i) => ({ value: i.value, label: tr(i.key as never) })),
        },
      },
      ...placeFilters,
      {
        name: 'Forced',
        label: 'garage.field.Forced',
        kind: 'select',
        options: flagOptions('garageUi.yes', 'garageUi.no'),
        width: 120,
      },
      {
        name: 'Open',
        label: 'garageUi.order.progress',
        kind: 'select',
        options: flagOptions('garageUi.charging', 'garageUi.ended'),
        width: 120,
      },
    ],
  },
  columns: {
    lead: [
      { key: 'StartAt', title: 'garage.field.StartAt', kind: 'instant', sort: 'StartAt', width: 170 },
      {
        key: 'EndAt',
        title: 'garage.field.EndAt',
        width: 170,
        render: (row) => <EndCell value={row.EndAt} running="garageUi.charging" />,
      },
      socketColumn(),
      { key: 'CardNumber', title: 'garage.field.CardNumber', width: 120 },
    ],
    amount: 'garage.field.Amount',
    detail: [
      {
        key: 'EnergyWh',
        title: 'garage.field.EnergyKWh',
        width: 100,
        render: (row) => <EnergyCell wh={row.EnergyWh} />,
      },
      {
        key: 'StopReason',
        title: 'garage.field.StopReason',
        width: 160,
        // A forced stop is told once, as a red tag of its stop reason (the reason and a "forced" tag beside it
        // said "forced power-off" twice).
        render: (row, tr) =>
          row.Forced ? (
            <Tag color="red" data-testid="order-forced">
              {tr(findEnumItem(chargeStopReason, STOP_REASON.forcedPowerOff)!.key as never)}
            </Tag>
          ) : (
            <EnumCell def={chargeStopReason} value={row.StopReason} />
          ),
      },
      { key: 'RuleName', title: 'garage.field.RuleName', width: 150 },
      { key: 'ZoneName', title: 'garage.field.ZoneName', width: 160 },
      // The itemised order (docs/garage.md, "Tariff dimensions") in the row's detail, a small table adding up
      // to the amount: the stored lines, or the live estimate's while the session runs.
      {
        key: 'Lines',
        title: 'garageUi.order.lines',
        secondary: true,
        detailSpan: 'filled',
        render: (row) => (
          <PriceLines lines={row.Lines} amountCents={row.AmountCents} estimated={row.Estimated} />
        ),
      },
    ],
  },
});

export default function ChargeOrdersPage() {
  const { t } = useTranslation();
  return <OrdersPage kind="ChargeOrder" config={chargeOrderList} title={t('route.chargeOrders')} />;
}
