import {
  AccessControlChannelApi,
  DOOR_DELAY_DEFAULT,
  DOOR_DELAY_MAX,
  DOOR_MODES,
  type AccessControlChannelItem,
  type DoorMode,
} from '@gatehouse/shared';
import { useState } from 'react';
import { Alert, Form, InputNumber, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageModal } from '../../../components/PageModal.tsx';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';

const MODE_LABELS = {
  1: 'acUi.channel.mode.open',
  2: 'acUi.channel.mode.closed',
  3: 'acUi.channel.mode.controlled',
} as const;
const MODE_CONTROLLED: DoorMode = 3;

interface Props {
  channel: AccessControlChannelItem | null;
  onClose(): void;
}

/**
 * Sets the door mode of a channel's door on its controller. The server refuses (409, translated) when the
 * controller is offline or does not answer; the request client shows that message and the dialog stays open.
 */
export function DoorModeDialog({ channel, onClose }: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<DoorMode>(MODE_CONTROLLED);
  const [delay, setDelay] = useState<number | null>(DOOR_DELAY_DEFAULT);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (!channel) return;
    setBusy(true);
    try {
      await call(AccessControlChannelApi.setDoorMode, {
        body: {
          Id: channel.Id,
          Mode: mode,
          ...(mode === MODE_CONTROLLED && delay !== null ? { Delay: delay } : {}),
        },
      });
      feedback.success(t('acUi.channel.modeSet'));
      onClose();
    } catch {
      // Shown by the request client (the server's reason); the operator may retry or cancel.
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageModal
      open={channel !== null}
      title={t('acUi.channel.doorModeTitle', { name: channel?.Name ?? '' })}
      okText={t('list.confirm')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="door-mode-dialog"
    >
      <Form layout="vertical">
        <Form.Item label={t('acUi.channel.doorMode')}>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as DoorMode)}>
            {DOOR_MODES.map((m) => (
              <Radio key={m} value={m} data-door-mode={m}>
                {t(MODE_LABELS[m])}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        {mode === MODE_CONTROLLED ? (
          <Form.Item label={t('acUi.channel.delay')}>
            <InputNumber min={1} max={DOOR_DELAY_MAX} precision={0} value={delay} onChange={setDelay} />
          </Form.Item>
        ) : null}
      </Form>
      <Alert type="warning" showIcon message={t('acUi.channel.confirmDoorMode')} />
    </PageModal>
  );
}
