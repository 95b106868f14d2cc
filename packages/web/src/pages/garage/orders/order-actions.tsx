import { Descriptions, Form, Input } from 'antd';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  ChargeOrderApi,
  PAYMENT_ACTIONS,
  PAYMENT_ACTION_NAMES,
  PAYMENT_REASON_MAX,
  ParkOrderApi,
  antdRule,
  findEnumItem,
  formatCents,
  paymentState,
  required,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  type OrderKind,
  type PaymentAction,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import type { RowAction, TKey } from '../../../components/list-page/index.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import { PaymentStateTag } from '../cells.tsx';
import { queryClient } from '../../../core/query-client.ts';
import { closeDialog, openDialog, useGarageDialogs, type OrderRow } from '../dialogs.ts';

const APIS = { ChargeOrder: ChargeOrderApi, ParkOrder: ParkOrderApi } as const;

/** Sends an operator action; the reply is the order as its list shows it. */
function act(kind: OrderKind, action: PaymentAction, id: number, reason?: string): Promise<OrderRow> {
  return call(APIS[kind][action], { body: { Id: id, ...(reason ? { Reason: reason } : {}) } });
}

/** The toast naming the order and its new state; the order list reloads. */
function announce(kind: OrderKind, order: OrderRow) {
  const state = findEnumItem(paymentState, order.PaymentState);
  feedback.success(
    i18next.t('garageUi.order.done', {
      order: order.OrderNo,
      state: state ? i18next.t(state.key as TKey) : '',
    }),
  );
  return queryClient.invalidateQueries({ queryKey: ['list', kind] });
}

/**
 * The payment buttons of an order row, exactly those the server lists in `Actions` (which already
 * follow the caller's code: refunds are the Admin's); the codes here hide them for the same reasons.
 * Actions taking a reason open a dialog; a retry only asks for confirmation.
 */
export function orderRowActions(kind: OrderKind): RowAction<OrderRow>[] {
  return PAYMENT_ACTION_NAMES.map((action): RowAction<OrderRow> => {
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
            run: async (row: OrderRow) => announce(kind, await act(kind, action, row.Id)),
          }
        : { run: (row: OrderRow) => openDialog('orderAction', { kind, action, order: row }) }),
    };
  });
}

/** The reason an operator gives for closing or refunding an order of this kind (required for a refund). */
export function OrderActionDialog({ kind }: { kind: OrderKind }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ Reason?: string }>();
  const open = useGarageDialogs((s) => s.orderAction);
  const pending = open?.kind === kind ? open : null;
  const action = pending?.action;
  const needed = action ? PAYMENT_ACTIONS[action].reason === 'required' : false;

  async function submit({ Reason }: { Reason?: string }) {
    const order = await act(kind, action!, pending!.order.Id, Reason?.trim());
    closeDialog('orderAction');
    await announce(kind, order);
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
      onCancel={() => closeDialog('orderAction')}
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
