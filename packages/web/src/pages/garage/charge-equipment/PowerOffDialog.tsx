import { useState } from 'react';
import { Alert, Button, Descriptions, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ForcedOutageRecordApi,
  PAYMENT_REASON_MAX,
  POWER_OFF_RESULT,
  antdRule,
  formatCents,
  formatKWh,
  required,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { useHubEvents } from '../../../core/hub.ts';
import { DIALOG_MASK, feedback } from '../../../core/feedback.tsx';
import { closeDialog, useGarageDialogs } from '../dialogs.ts';
import type { PowerOffTarget } from './types.ts';
import { GRID_KEY } from '../live.ts';
import { PageModal } from '../../../components/PageModal.tsx';
import { useSaving } from '../../../components/use-saving.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { powerOffOutcome, type PowerOffOutcome } from './power-off-outcome.ts';

/** Every list the cut changes: the socket's state, the session, its order and the power-off records. */
const AFFECTED = [
  GRID_KEY,
  ['list', 'ChargeEquipment'],
  ['list', 'ChargeRecord'],
  ['list', 'ChargeOrder'],
  ['list', 'ForcedOutageRecord'],
];

/**
 * Forced power-off of one socket: says which socket and which session it ends, asks for the reason, and
 * names the session it saw, so a second click (or a colleague's cut meanwhile) is refused by the server
 * instead of cutting twice. Then it says what the charger answered (the record's Result): "power cut" with the
 * settled order closes the dialog; anything else (not sent, refused, no answer, sent and not confirmed yet)
 * stays on screen with its reason, and the session runs on until the charger confirms; its confirmation
 * arrives live (PowerOffConfirmed) and turns the answer into "power cut" without a reload.
 */
export function PowerOffDialog() {
  const { t } = useTranslation();
  const target = useGarageDialogs((s) => s.powerOff);
  const onClose = () => closeDialog('powerOff');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ Reason: string }>();
  const [saving, withSaving] = useSaving();
  const [outcome, setOutcome] = useState<PowerOffOutcome | null>(null);
  const [sentId, setSentId] = useState<number | null>(null);
  const session = target?.session ?? null;

  function close() {
    setOutcome(null);
    setSentId(null);
    onClose();
  }

  // Sent, not confirmed: the charger's stop report, when it comes, turns the answer into "power cut" here.
  usePowerOffConfirmed(sentId, session?.OrderNo ?? null, (said) => {
    setOutcome(said);
    setSentId(null);
    void Promise.all(AFFECTED.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  });

  async function submit() {
    const { Reason } = await form.validateFields();
    try {
      await withSaving(async () => {
        const record = await call(ForcedOutageRecordApi.powerOff, {
          body: {
            ChargeEquipmentId: target!.socketId,
            ...(session ? { ChargeRecordId: session.ChargeRecordId } : {}),
            Reason: Reason.trim(),
          },
        });
        const said = powerOffOutcome(record, (key, values) => String(t(key as never, values as never)));
        feedback.show({ type: said.type, content: said.text, duration: said.cut ? 3 : 8 });
        if (said.cut) close();
        else {
          setOutcome(said);
          if (record.Result === POWER_OFF_RESULT.sent) setSentId(record.Id);
        }
      });
    } finally {
      // Also after a refusal (the session had ended): the grid then shows what is true now.
      await Promise.all(AFFECTED.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    }
  }

  return (
    <PageModal
      open={target !== null}
      title={t('garage.action.ForcedPowerOff')}
      mask={DIALOG_MASK}
      keyboard={false}
      destroyOnHidden
      confirmLoading={saving}
      okText={t('garageUi.powerOff.confirm')}
      okButtonProps={{ danger: true, 'data-testid': 'power-off-ok' } as never}
      cancelText={t('list.cancel')}
      onCancel={close}
      onOk={() => void submit().catch(() => undefined)}
      // Once the device answered, the only thing left to do is to read it.
      footer={
        outcome
          ? [
              <Button key="close" type="primary" onClick={close} data-testid="power-off-close">
                {t('garageUi.powerOff.close')}
              </Button>,
            ]
          : undefined
      }
    >
      <Answer outcome={outcome} target={target} />
      <Form form={form} layout="vertical" preserve={false} hidden={outcome !== null}>
        <ReasonField />
      </Form>
    </PageModal>
  );
}

/** What the charger answered (once it did), the socket and session it is for, and a warning when none runs. */
function Answer({ outcome, target }: { outcome: PowerOffOutcome | null; target: PowerOffTarget | null }) {
  const { t } = useTranslation();
  return (
    <>
      {outcome && (
        <Alert
          type={outcome.type}
          showIcon
          title={outcome.text}
          style={{ marginBottom: 16 }}
          data-testid="power-off-outcome"
          data-cut={outcome.cut}
        />
      )}
      {target && <TargetSummary target={target} />}
      {target && !target.session && !outcome && (
        <Alert
          type="warning"
          showIcon
          title={t('garageUi.powerOff.noSession')}
          style={{ marginBottom: 16 }}
        />
      )}
    </>
  );
}

function ReasonField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="Reason" label={t('garage.field.Reason')} rules={[antdRule((k) => t(k), required)]}>
      <Input.TextArea
        rows={3}
        maxLength={PAYMENT_REASON_MAX}
        showCount
        placeholder={t('garageUi.powerOff.reasonPlaceholder')}
        data-testid="power-off-reason"
      />
    </Form.Item>
  );
}

/**
 * Follows a power-off the charger accepted (`sentId`, null when none): when its stop report confirms it
 * (PowerOffConfirmed on the hub), says "power cut" with the settled order and hands the outcome over.
 */
function usePowerOffConfirmed(
  sentId: number | null,
  orderNo: string | null,
  onConfirmed: (said: PowerOffOutcome) => void,
) {
  const { t } = useTranslation();
  useHubEvents(['PowerOffConfirmed'], (event) => {
    if (sentId === null || event.ForcedOutageRecordId !== sentId) return;
    const record = {
      Result: POWER_OFF_RESULT.cut,
      ResultReason: null,
      ResultText: null,
      OrderNo: orderNo,
      AmountCents: event.AmountCents,
      ChargeRecordId: event.ChargeRecordId,
    };
    const said = powerOffOutcome(record, (key, values) => String(t(key as never, values as never)));
    feedback.show({ type: said.type, content: said.text, duration: 3 });
    onConfirmed(said);
  });
}

/** Which socket the cut is for and, when a session runs there, its order, card, start, use and estimate. */
function TargetSummary({ target }: { target: PowerOffTarget }) {
  const { t } = useTranslation();
  const session = target.session;
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      style={{ marginBottom: 16 }}
      data-testid="power-off-target"
    >
      <Descriptions.Item label={t('garage.entity.ChargeEquipment')}>
        {t('garageUi.socket.hostPort', { host: target.hostName, port: target.portNumber })}
      </Descriptions.Item>
      {session && (
        <>
          <Descriptions.Item label={t('garage.field.OrderNo')}>{session.OrderNo ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('garage.field.CardNumber')}>
            {session.CardNumber ?? '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('garage.field.StartAt')}>
            {formatSiteTime(session.StartAt)}
          </Descriptions.Item>
          <Descriptions.Item label={t('garageUi.socket.usage')}>
            {t('garageUi.socket.minutesEnergy', {
              minutes: session.DurationMinutes,
              kwh: formatKWh(session.EnergyWh),
            })}
          </Descriptions.Item>
          {session.EstimatedCents !== null && (
            <Descriptions.Item label={t('garageUi.powerOff.billed')}>
              ¥{formatCents(session.EstimatedCents)}
            </Descriptions.Item>
          )}
        </>
      )}
    </Descriptions>
  );
}
