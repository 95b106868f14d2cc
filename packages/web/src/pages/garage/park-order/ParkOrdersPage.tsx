import { useTranslation } from 'react-i18next';
import type { ParkOrderItem } from '@gatehouse/shared';
import { EndCell } from '../cells.tsx';
import { flagOptions, ruleOptions, zoneOptions } from '../options.ts';
import { OrdersPage, orderList } from '../orders/order-list.tsx';

/** Temporary parking orders: who parked where and how long, the fee, its payment state and actions. */
const config = orderList<ParkOrderItem>('ParkOrder', {
  range: 'garage.field.EntryAt',
  defaultSort: 'EntryAt',
  filters: {
    before: [
      {
        name: 'Keyword',
        label: 'garageUi.keyword',
        kind: 'text',
        placeholder: 'garageUi.order.parkKeyword',
        width: 220,
      },
      { name: 'ParkAreaId', label: 'garage.field.ZoneName', kind: 'select', options: zoneOptions },
    ],
    after: [
      { name: 'ChargeRuleId', label: 'garage.field.RuleName', kind: 'select', options: ruleOptions },
      {
        name: 'Inside',
        label: 'garage.field.Inside',
        kind: 'select',
        options: flagOptions('garageUi.inside', 'garageUi.left'),
        width: 120,
      },
    ],
  },
  columns: {
    lead: [
      { key: 'Plate', title: 'garage.field.Plate', width: 110 },
      { key: 'CardNumber', title: 'garage.field.CardNumber', width: 120 },
      { key: 'EntryAt', title: 'garage.field.EntryAt', kind: 'instant', sort: 'EntryAt', width: 170 },
      {
        key: 'ExitAt',
        title: 'garage.field.ExitAt',
        sort: 'ExitAt',
        width: 170,
        render: (row) => <EndCell value={row.ExitAt} running="garageUi.inside" />,
      },
    ],
    amount: 'garage.field.Fee',
    detail: [
      { key: 'ZoneName', title: 'garage.field.ZoneName', width: 160 },
      { key: 'RuleName', title: 'garage.field.RuleName', width: 150 },
    ],
  },
});

export default function ParkOrdersPage() {
  const { t } = useTranslation();
  return <OrdersPage kind="ParkOrder" config={config} title={t('route.parkOrders')} />;
}
