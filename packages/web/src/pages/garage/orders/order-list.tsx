import { ChargeOrderApi, ParkOrderApi, paymentState, BICYCLE_ANY, type OrderKind } from '@gatehouse/shared';
import type { ColumnDef, FilterDef, ListPageConfig, TKey } from '../../../components/list-page/index.ts';
import { ListPage } from '../../../components/list-page/index.ts';
import { AmountCell, PaymentStateTag, ReasonCell } from '../cells.tsx';
import type { OrderRow } from '../dialogs.ts';
import { recordRange } from '../record-range.ts';
import { OrderActionDialog, orderRowActions } from './order-actions.tsx';

const APIS = { ChargeOrder: ChargeOrderApi, ParkOrder: ParkOrderApi } as const;

/** What one kind of order list adds to what both share. */
export interface OrderListParts<T extends OrderRow> {
  /** Label of the time filter (session start, entry) and the default sort (the list's time). */
  range: TKey;
  defaultSort: string;
  /** Filters before and after the payment state. */
  filters: { before: FilterDef[]; after: FilterDef[] };
  /** Columns after the order number and before the amount; the amount's title; columns after the duration. */
  columns: { lead: ColumnDef<T>[]; amount: TKey; detail: ColumnDef<T>[] };
}

/**
 * An order list of either kind (charging orders, parking orders): the time range, the payment-state filter,
 * the order number, amount (estimate while running), payment state, duration, paid at and reason columns,
 * export, and the payment actions of the shared table. The kind adds its session or stay.
 */
export function orderList<T extends OrderRow>(kind: OrderKind, parts: OrderListParts<T>): ListPageConfig<T> {
  return {
    api: APIS[kind],
    read: BICYCLE_ANY,
    write: [],
    actions: { export: true },
    defaultSort: { field: parts.defaultSort, order: 'desc' },
    filters: [
      recordRange(parts.range),
      ...parts.filters.before,
      {
        name: 'PaymentState',
        label: 'garage.field.PaymentState',
        kind: 'select',
        options: { kind: 'enum', def: paymentState },
      },
      ...parts.filters.after,
    ],
    columns: [
      { key: 'OrderNo', title: 'garage.field.OrderNo', width: 190, fixed: 'left' },
      ...parts.columns.lead,
      {
        key: 'AmountCents',
        title: parts.columns.amount,
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
      ...parts.columns.detail,
      { key: 'PaidAt', title: 'garage.field.PaidAt', kind: 'instant', width: 170 },
      {
        key: 'RefundReason',
        title: 'garage.field.Reason',
        width: 160,
        render: (row) => <ReasonCell refund={row.RefundReason} close={row.CloseReason} />,
      },
    ],
    rowActions: orderRowActions(kind),
  };
}

/** An order screen: its list and the dialog of its payment actions. */
export function OrdersPage<T extends OrderRow>({
  kind,
  config,
  title,
}: {
  kind: OrderKind;
  config: ListPageConfig<T>;
  title: string;
}) {
  return (
    <>
      <ListPage config={config} title={title} />
      <OrderActionDialog kind={kind} />
    </>
  );
}
