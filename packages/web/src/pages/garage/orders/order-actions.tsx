import { useCallback, useMemo, useState } from 'react';
import { Descriptions, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  PAYMENT_ACTIONS,
  PAYMENT_ACTION_NAMES,
  PAYMENT_REASON_MAX,
  antdRule,
  findEnumItem,
  formatCents,
  paymentState,
  required,
  type PaymentAction,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  type ChargeOrderItem,
  type ParkOrderItem,
} from '@gatehouse/shared';
import { http } from '../../../core/http.ts';
import { feedback } from '../../../core/feedback.tsx';
import type { RowAction, TKey } from '../../../components/list-page/index.ts';
import { PaymentStateTag } from '../cells.tsx';
import { FormModal } from '../../../components/FormModal.tsx';

/** What both order lists carry for the payment actions. */
/** An order of either kind: the payment actions need only what both carry. */
export type OrderRow = ChargeOrderItem | ParkOrderItem;

type OrderResource = 'ChargeOrder' | 'ParkOrder';

function useAfterAction(resource: OrderResource) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useCallback(
    async (order: OrderRow) => {
      const state = findEnumItem(paymentState, order.PaymentState);
      feedback.success(
        t('garageUi.order.done', { order: order.OrderNo, state: state ? t(state.key as never) : '' }),
      );
      await queryClient.invalidateQueries({ queryKey: ['list', resource] });
    },
    [t, queryClient, resource],
  );
}

/**
 * The payment buttons of an order row, exactly those the server lists in `Actions` (which already
 * follow the caller's code: refunds are the Admin's); the codes here hide them for the same reasons.
 * Actions taking a reason open a dialog; a retry only asks for confirmation.
 */
export function useOrderActions(resource: OrderResource): {
  rowActions: RowAction<OrderRow>[];
  dialog: React.ReactNode;
} {
  const [pending, setPending] = useState<{ action: PaymentAction; order: OrderRow } | null>(null);
  const after = useAfterAction(resource);
  const rowActions = useMemo(
    () =>
      PAYMENT_ACTION_NAMES.map((action): RowAction<OrderRow> => {
        const rule = PAYMENT_ACTIONS[action];
        return {
          key: action,
          label: `garage.action.${action}` as TKey,
          codes: rule.level === 'admin' ? BICYCLE_ADMIN : BICYCLE_ANY,
          danger: action === 'Refund',
          visible: (row) => row.Actions.includes(action),
          ...(rule.reason === 'none'
            ? {
                confirm: 'garageUi.order.confirmRetry' as TKey,
                run: async (row: OrderRow) =>
                  after(await http.post<OrderRow>(`/api/${resource}/${action}`, { Id: row.Id })),
              }
            : { run: (row: OrderRow) => setPending({ action, order: row }) }),
        };
      }),
    [after, resource],
  );
  return {
    rowActions,
    dialog: (
      <ReasonDialog
        resource={resource}
        pending={pending}
        onClose={() => setPending(null)}
        onDone={(order) => void after(order)}
      />
    ),
  };
}

/** The reason an operator gives for closing or refunding an order (required for a refund). */
function ReasonDialog({
  resource,
  pending,
  onClose,
  onDone,
}: {
  resource: OrderResource;
  pending: { action: PaymentAction; order: OrderRow } | null;
  onClose(): void;
  onDone(order: OrderRow): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ Reason?: string }>();
  const action = pending?.action;
  const needed = action ? PAYMENT_ACTIONS[action].reason === 'required' : false;

  async function submit({ Reason }: { Reason?: string }) {
    const reason = Reason?.trim();
    const order = await http.post<OrderRow>(`/api/${resource}/${action!}`, {
      Id: pending!.order.Id,
      ...(reason ? { Reason: reason } : {}),
    });
    onClose();
    onDone(order);
  }

  return (
    <FormModal
      form={form}
      open={pending !== null}
      title={action ? `${t(`garage.action.${action}`)} · ${pending!.order.OrderNo}` : ''}
      keyboard={false}
      destroyOnHidden
      okText={t('list.confirm')}
      okButtonProps={{ danger: action === 'Refund' }}
      okTestId="order-action-ok"
      onCancel={onClose}
      onSubmit={submit}
    >
      {pending && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('garage.field.Amount')}>
            ¥{formatCents(pending.order.AmountCents)}
          </Descriptions.Item>
          <Descriptions.Item label={t('garage.field.PaymentState')}>
            <PaymentStateTag value={pending.order.PaymentState} />
          </Descriptions.Item>
        </Descriptions>
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="Reason"
          label={t('garage.field.Reason')}
          rules={needed ? [antdRule((k) => t(k), required)] : []}
          extra={needed ? undefined : t('garageUi.order.reasonOptional')}
        >
          <Input.TextArea
            rows={3}
            maxLength={PAYMENT_REASON_MAX}
            showCount
            data-testid="order-action-reason"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
