import type { ChargeOrderItem } from '@gatehouse/shared';
import { useMemo } from 'react';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { chargeStopReason, chargeType, paymentState, BICYCLE_ANY } from '@gatehouse/shared';
import { EnumCell, ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { AmountCell, EndCell, EnergyCell, PaymentStateTag, ReasonCell, SocketCell } from '../cells.tsx';
import { flagOptions, hostOptions, zoneOptions } from '../options.ts';
import { useOrderActions } from '../orders/order-actions.tsx';
import { recordRange } from '../record-range.ts';

type ChargeOrderRow = ChargeOrderItem;

/** The charge types a charging order can have: temporary charging, or charging under a monthly pass. */
const CHARGING_TYPES = new Set([2, 3]);

/** Charging orders: the priced order of each session, its payment state and the operator's payment actions. */
export default function ChargeOrdersPage() {
  const { t } = useTranslation();
  const { rowActions, dialog } = useOrderActions('ChargeOrder');
  const config = useMemo<ListPageConfig<ChargeOrderRow>>(
    () => ({
      resource: 'ChargeOrder',
      read: BICYCLE_ANY,
      write: [],
      actions: { export: true },
      defaultSort: { field: 'StartAt', order: 'desc' },
      filters: [
        recordRange('garage.field.StartAt'),
        { name: 'OrderNo', label: 'garage.field.OrderNo', kind: 'text' },
        { name: 'CardNumber', label: 'garage.field.CardNumber', kind: 'text' },
        {
          name: 'PaymentState',
          label: 'garage.field.PaymentState',
          kind: 'select',
          options: { kind: 'enum', def: paymentState },
        },
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
        { name: 'ParkAreaId', label: 'garage.field.ZoneName', kind: 'select', options: zoneOptions },
        {
          name: 'ChargeHostId',
          label: 'garage.field.HostName',
          kind: 'select',
          options: hostOptions,
          width: 240,
        },
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
      columns: [
        { key: 'OrderNo', title: 'garage.field.OrderNo', width: 190, fixed: 'left' },
        { key: 'StartAt', title: 'garage.field.StartAt', kind: 'instant', sort: 'StartAt', width: 170 },
        {
          key: 'EndAt',
          title: 'garage.field.EndAt',
          width: 170,
          render: (row) => <EndCell value={row.EndAt} running="garageUi.charging" />,
        },
        {
          key: 'HostName',
          title: 'garageUi.socket.column',
          render: (row) => <SocketCell host={row.HostName} port={row.PortNumber} />,
        },
        { key: 'CardNumber', title: 'garage.field.CardNumber', width: 120 },
        {
          key: 'AmountCents',
          title: 'garage.field.Amount',
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
          render: (row, tr) => (
            <Space size={4}>
              <EnumCell def={chargeStopReason} value={row.StopReason} />
              {row.Forced && (
                <Tag color="red" data-testid="order-forced">
                  {tr('garage.field.Forced')}
                </Tag>
              )}
            </Space>
          ),
        },
        { key: 'RuleName', title: 'garage.field.RuleName', width: 150 },
        { key: 'ZoneName', title: 'garage.field.ZoneName', width: 160 },
        { key: 'PaidAt', title: 'garage.field.PaidAt', kind: 'instant', width: 170 },
        {
          key: 'RefundReason',
          title: 'garage.field.Reason',
          width: 160,
          render: (row) => <ReasonCell refund={row.RefundReason} close={row.CloseReason} />,
        },
      ],
      rowActions: rowActions as ListPageConfig<ChargeOrderRow>['rowActions'],
    }),
    [rowActions],
  );
  return (
    <>
      <ListPage config={config} title={t('route.chargeOrders')} />
      {dialog}
    </>
  );
}
