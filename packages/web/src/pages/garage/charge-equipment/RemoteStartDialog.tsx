import { Alert, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChargeEquipmentApi, antdRule, required } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { DIALOG_MASK, feedback } from '../../../core/feedback.tsx';
import { PageModal } from '../../../components/PageModal.tsx';
import { useSaving } from '../../../components/use-saving.ts';
import { closeDialog, useGarageDialogs } from '../dialogs.ts';
import { GRID_KEY } from '../live.ts';

/** Card numbers as the server takes them (RemoteStart: 1–20 characters, the OCPP idTag). */
const CARD_MAX = 20;

/**
 * Starts a session on a socket for a card (OCPP RemoteStartTransaction): the charger then starts it as if
 * the card had been swiped, with the usual card and tariff checks. "Accepted" means the charger took the
 * command; the session appears when the charger reports its start (live, on the grid). A refusal, an offline
 * host or no answer is the server's message, and nothing changes.
 */
export function RemoteStartDialog() {
  const { t } = useTranslation();
  const target = useGarageDialogs((s) => s.remoteStart);
  const onClose = () => closeDialog('remoteStart');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ CardNumber: string }>();
  const [saving, withSaving] = useSaving();

  async function submit() {
    const { CardNumber } = await form.validateFields();
    await withSaving(async () => {
      const reply = await call(ChargeEquipmentApi.remoteStart, {
        body: { ChargeEquipmentId: target!.socketId, CardNumber: CardNumber.trim() },
      });
      feedback.success(t('garageUi.remoteStart.accepted', { status: reply.Status }));
      onClose();
    });
    await queryClient.invalidateQueries({ queryKey: GRID_KEY });
  }

  return (
    <PageModal
      open={target !== null}
      title={t('garageUi.remoteStart.title')}
      mask={DIALOG_MASK}
      keyboard={false}
      destroyOnHidden
      confirmLoading={saving}
      okText={t('garageUi.remoteStart.confirm')}
      okButtonProps={{ 'data-testid': 'remote-start-ok' } as never}
      cancelText={t('list.cancel')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
    >
      {target && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('garageUi.socket.hostPort', { host: target.hostName, port: target.portNumber })}
          description={t('garageUi.remoteStart.hint')}
        />
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="CardNumber"
          label={t('garage.field.CardNumber')}
          rules={[antdRule((k) => t(k), required)]}
        >
          <Input maxLength={CARD_MAX} autoComplete="off" data-testid="remote-start-card" />
        </Form.Item>
      </Form>
    </PageModal>
  );
}
