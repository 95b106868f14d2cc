import { useEffect, useState, type ReactNode } from 'react';
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
import { useSaving } from '../../../components/use-saving.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';

interface Props {
  open: boolean;
  areaId: number;
  onClose(): void;
}

/** What a lockdown dialog asks: its words, test ids, and the call made with the text written. */
interface TextDialog extends Props {
  title: string;
  okText: string;
  danger?: boolean;
  label: string;
  placeholder: string;
  /** data-testid of the dialog; its OK button and text area get `-ok` and `-text`. */
  testId: string;
  done: string;
  send(text: string): Promise<AreaLockdownItem>;
  children?: ReactNode;
}

/**
 * A dialog that sends only with a text written (the reason or the note: the operation log and other systems get
 * it), puts the server's answer where the banner and the monitor read it (the hub's event may come later) and
 * stays open on a refusal, which the request client shows in the server's words.
 */
function LockdownTextDialog(props: TextDialog) {
  const { open, areaId, onClose } = props;
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [saving, withSaving] = useSaving();
  useEffect(() => {
    if (open) setText('');
  }, [open]);

  async function submit() {
    try {
      const item = await withSaving(() => props.send(text.trim()));
      queryClient.setQueryData(lockdownKey(areaId), { Lockdown: item });
      feedback.success(props.done);
      onClose();
    } catch {
      // Shown by the request client (the server's reason, as a 409 for one in force or none to release).
    }
  }

  return (
    <PageModal
      open={open}
      title={props.title}
      okText={props.okText}
      okButtonProps={
        { danger: props.danger, disabled: text.trim() === '', 'data-testid': `${props.testId}-ok` } as never
      }
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      data-testid={props.testId}
    >
      <Form layout="vertical">
        {props.children}
        <Form.Item label={props.label} required>
          <Input.TextArea
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={LOCKDOWN_TEXT_MAX}
            rows={3}
            placeholder={props.placeholder}
            aria-label={props.label}
            data-testid={`${props.testId}-text`}
          />
        </Form.Item>
      </Form>
    </PageModal>
  );
}

/** Locks the area down or evacuates it: the mode chosen, a reason required. */
export function StartLockdownDialog(props: Props) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<LockdownMode>('lockdown');
  useEffect(() => {
    if (props.open) setMode('lockdown');
  }, [props.open]);
  return (
    <LockdownTextDialog
      {...props}
      title={t('lockdownUi.startDialog.title')}
      okText={t('lockdownUi.startDialog.confirm')}
      danger
      label={t('lockdownUi.startDialog.reason')}
      placeholder={t('lockdownUi.startDialog.reasonPlaceholder')}
      testId="lockdown-dialog"
      done={t('lockdownUi.startDialog.started')}
      send={(Reason) => call(AreaLockdownApi.start, { body: { Id: props.areaId, Mode: mode, Reason } })}
    >
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
    </LockdownTextDialog>
  );
}

/** Releases the lockdown or evacuation with a note required; each door goes back to its own mode. */
export function ReleaseLockdownDialog(props: Props) {
  const { t } = useTranslation();
  return (
    <LockdownTextDialog
      {...props}
      title={t('lockdownUi.releaseDialog.title')}
      okText={t('lockdownUi.releaseDialog.confirm')}
      label={t('lockdownUi.releaseDialog.note')}
      placeholder={t('lockdownUi.releaseDialog.notePlaceholder')}
      testId="lockdown-release-dialog"
      done={t('lockdownUi.releaseDialog.released')}
      send={(Note) => call(AreaLockdownApi.release, { body: { Id: props.areaId, Note } })}
    >
      <Alert type="info" showIcon title={t('lockdownUi.releaseDialog.help')} style={{ marginBottom: 12 }} />
    </LockdownTextDialog>
  );
}
