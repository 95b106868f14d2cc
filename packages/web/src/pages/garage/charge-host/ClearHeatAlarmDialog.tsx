import { Alert, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChargeHostApi, antdRule, required } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { DIALOG_MASK, feedback } from '../../../core/feedback.tsx';
import { PageModal } from '../../../components/PageModal.tsx';
import { useSaving } from '../../../components/use-saving.ts';
import { closeDialog, useGarageDialogs } from '../dialogs.ts';
import { GRID_KEY } from '../live.ts';
import { heatAlarmLines } from './HeatAlarm.tsx';

/** The note's length, as the server takes it (ClearAlarm: 1–200 characters). */
const NOTE_MAX = 200;

/**
 * Clears a host's heat alarm (POST /api/ChargeHost/ClearAlarm): the note is required, as an acknowledged door
 * alarm's is, and goes to the operation log with who cleared it. An alarm someone else cleared meanwhile is the
 * server's 409; either way the host list and the grid reload.
 */
export function ClearHeatAlarmDialog() {
  const { t } = useTranslation();
  const target = useGarageDialogs((s) => s.clearHeatAlarm);
  const onClose = () => closeDialog('clearHeatAlarm');
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ Note: string }>();
  const [saving, withSaving] = useSaving();

  async function submit() {
    const { Note } = await form.validateFields();
    try {
      await withSaving(async () => {
        await call(ChargeHostApi.clearAlarm, { body: { Id: target!.hostId, Note: Note.trim() } });
        feedback.success(t('garageUi.heat.cleared', { host: target!.hostName }));
        onClose();
      });
    } finally {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: GRID_KEY }),
        queryClient.invalidateQueries({ queryKey: ['list', 'ChargeHost'] }),
      ]);
    }
  }

  return (
    <PageModal
      open={target !== null}
      title={target ? t('garageUi.heat.clearTitle', { host: target.hostName }) : ''}
      mask={DIALOG_MASK}
      keyboard={false}
      destroyOnHidden
      confirmLoading={saving}
      okText={t('garageUi.heat.clear')}
      okButtonProps={{ danger: true, 'data-testid': 'heat-alarm-clear-ok' } as never}
      cancelText={t('list.cancel')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
    >
      {target && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('garageUi.heat.clearHint')}
          description={heatAlarmLines(t, target.alarm).map((line) => (
            <div key={line}>{line}</div>
          ))}
        />
      )}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="Note" label={t('garage.field.Note')} rules={[antdRule((k) => t(k), required)]}>
          <Input.TextArea
            maxLength={NOTE_MAX}
            showCount
            rows={3}
            placeholder={t('garageUi.heat.notePlaceholder')}
            data-testid="heat-alarm-note"
          />
        </Form.Item>
      </Form>
    </PageModal>
  );
}
