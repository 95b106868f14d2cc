import { useEffect, useState } from 'react';
import { Alert, Form, Input, Radio, Space, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  AreaLockdownApi,
  LOCKDOWN_MODES,
  LOCKDOWN_TEXT_MAX,
  type AreaLockdownItem,
  type LockdownMode,
} from '@gatehouse/shared';
import { PageModal } from '../../../components/PageModal.tsx';
import { lockdownKey } from '../../../components/lockdown/area-lockdown.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';

interface Props {
  open: boolean;
  areaId: number;
  onClose(): void;
}

/** What the server answered, in the cache the banner and the monitor read (the hub's event may come later). */
function useStore(areaId: number) {
  const queryClient = useQueryClient();
  return (item: AreaLockdownItem) =>
    queryClient.setQueryData(lockdownKey(areaId), { Lockdown: item } satisfies {
      Lockdown: AreaLockdownItem;
    });
}

/**
 * Locks the area down or evacuates it: the mode is chosen, a reason is required (it goes to the operation log and
 * out to other systems). The server refuses with its reason (409: one is in force already) and the dialog stays.
 */
export function StartLockdownDialog({ open, areaId, onClose }: Props) {
  const { t } = useTranslation();
  const store = useStore(areaId);
  const [mode, setMode] = useState<LockdownMode>('lockdown');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setMode('lockdown');
      setReason('');
    }
  }, [open]);

  async function submit() {
    setBusy(true);
    try {
      store(await call(AreaLockdownApi.start, { body: { Id: areaId, Mode: mode, Reason: reason.trim() } }));
      feedback.success(t('lockdownUi.startDialog.started'));
      onClose();
    } catch {
      // Shown by the request client (the server's reason).
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageModal
      open={open}
      title={t('lockdownUi.startDialog.title')}
      okText={t('lockdownUi.startDialog.confirm')}
      okButtonProps={{ danger: true, disabled: reason.trim() === '', 'data-testid': 'lockdown-ok' } as never}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="lockdown-dialog"
    >
      <Form layout="vertical">
        <Form.Item label={t('accessControl.field.LockdownMode')}>
          <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as LockdownMode)}>
            <Space orientation="vertical">
              {LOCKDOWN_MODES.map((m) => (
                <Radio key={m} value={m} data-lockdown-mode={m}>
                  <Typography.Text strong>{t(`lockdownUi.mode.${m}`)}</Typography.Text>
                  <div>
                    <Typography.Text type="secondary">{t(`lockdownUi.startDialog.${m}Help`)}</Typography.Text>
                  </div>
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item label={t('lockdownUi.startDialog.reason')} required>
          <Input.TextArea
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={LOCKDOWN_TEXT_MAX}
            rows={3}
            placeholder={t('lockdownUi.startDialog.reasonPlaceholder')}
            aria-label={t('lockdownUi.startDialog.reason')}
            data-testid="lockdown-reason"
          />
        </Form.Item>
      </Form>
    </PageModal>
  );
}

/** Releases the lockdown or evacuation with a required note; each door goes back to its own mode. */
export function ReleaseLockdownDialog({ open, areaId, onClose }: Props) {
  const { t } = useTranslation();
  const store = useStore(areaId);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setNote('');
  }, [open]);

  async function submit() {
    setBusy(true);
    try {
      store(await call(AreaLockdownApi.release, { body: { Id: areaId, Note: note.trim() } }));
      feedback.success(t('lockdownUi.releaseDialog.released'));
      onClose();
    } catch {
      // Shown by the request client (the server's reason).
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageModal
      open={open}
      title={t('lockdownUi.releaseDialog.title')}
      okText={t('lockdownUi.releaseDialog.confirm')}
      okButtonProps={{ disabled: note.trim() === '', 'data-testid': 'lockdown-release-ok' } as never}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid="lockdown-release-dialog"
    >
      <Alert type="info" showIcon title={t('lockdownUi.releaseDialog.help')} style={{ marginBottom: 12 }} />
      <Form layout="vertical">
        <Form.Item label={t('lockdownUi.releaseDialog.note')} required>
          <Input.TextArea
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={LOCKDOWN_TEXT_MAX}
            rows={3}
            placeholder={t('lockdownUi.releaseDialog.notePlaceholder')}
            aria-label={t('lockdownUi.releaseDialog.note')}
            data-testid="lockdown-note"
          />
        </Form.Item>
      </Form>
    </PageModal>
  );
}
