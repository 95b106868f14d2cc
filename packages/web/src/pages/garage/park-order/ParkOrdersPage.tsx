import type { ParkOrderItem } from '@gatehouse/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentState, BICYCLE_ANY } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { AmountCell, EndCell, PaymentStateTag, ReasonCell } from '../cells.tsx';
import { flagOptions, ruleOptions, zoneOptions } from '../options.ts';
import { useOrderActions } from '../orders/order-actions.tsx';
import { recordRange } from '../record-range.ts';

type ParkOrderRow = ParkOrderItem;

/** Temporary parking orders: who parked where and how long, the fee, its payment state and actions. */
export default function ParkOrdersPage() {
  const { t } = useTranslation();
  const { rowActions, dialog } = useOrderActions('ParkOrder');
  const config = useMemo<ListPageConfig<ParkOrderRow>>(
    () => ({
      resource: 'ParkOrder',
      read: BICYCLE_ANY,
      write: [],
      actions: { export: true },
      defaultSort: { field: 'EntryAt', order: 'desc' },
      filters: [
        recordRange('garage.field.EntryAt'),
        {
          name: 'Keyword',
          label: 'garageUi.keyword',
          kind: 'text',
          placeholder: 'garageUi.order.parkKeyword',
          width: 220,
        },
        { name: 'ParkAreaId', label: 'garage.field.ZoneName', kind: 'select', options: zoneOptions },
        {
          name: 'PaymentState',
          label: 'garage.field.PaymentState',
          kind: 'select',
          options: { kind: 'enum', def: paymentState },
        },
        { name: 'ChargeRuleId', label: 'garage.field.RuleName', kind: 'select', options: ruleOptions },
        {
          name: 'Inside',
          label: 'garage.field.Inside',
          kind: 'select',
          options: flagOptions('garageUi.inside', 'garageUi.left'),
          width: 120,
        },
      ],
      columns: [
        { key: 'OrderNo', title: 'garage.field.OrderNo', width: 190, fixed: 'left' },
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
        {
          key: 'AmountCents',
          title: 'garage.field.Fee',
          sort: 'AmountCents',
          width: 140,
          render: (row) => <AmountCell cents={row.AmountCents} estimated={row.Estimated} />,
        },
        {
          key: 'PaymentState',
          title: 'garage.field.PaymentState',
          sort: 'PaymentState',
          width: 120,
          render: (row) => <PaymentStateTag value={row.PaymentState} />,
        },
        { key: 'DurationMinutes', title: 'garage.field.DurationMinutes', width: 110 },
        { key: 'ZoneName', title: 'garage.field.ZoneName', width: 160 },
        { key: 'RuleName', title: 'garage.field.RuleName', width: 150 },
        { key: 'PaidAt', title: 'garage.field.PaidAt', kind: 'instant', width: 170 },
        {
          key: 'RefundReason',
          title: 'garage.field.Reason',
          width: 160,
          render: (row) => <ReasonCell refund={row.RefundReason} close={row.CloseReason} />,
        },
      ],
      rowActions: rowActions as ListPageConfig<ParkOrderRow>['rowActions'],
    }),
    [rowActions],
  );
  return (
    <>
      <ListPage config={config} title={t('route.parkOrders')} />
      {dialog}
    </>
  );
}
