import { Alert, Button, Input, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DIALOG_MASK, feedback } from '../core/feedback.tsx';
import { PageModal } from './PageModal.tsx';

export interface SecretShownOnceProps {
  secret: string;
  title: string;
  warning: string;
  use: string;
  done: string;
  copyFailed: string;
  /** The test ids' prefix: `<prefix>-secret`, `<prefix>-secret-done`, `<prefix>-secret-warning`, `<prefix>-copy`. */
  testId: string;
  onClose(): void;
}

/**
 * The one time a secret is seen (an API key's, a webhook's signing secret): the server shows it no more, so the
 * dialog says so, offers a copy button, and is closed only by its own button (not the mask, not Escape), so the
 * secret is not lost by a stray click. The caller renders it only while there is a secret, so closing unmounts
 * it at once (no closing animation keeping the text in the document meanwhile).
 */
export function SecretShownOnce(props: SecretShownOnceProps) {
  const { t } = useTranslation();
  const { secret, testId, onClose } = props;

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      feedback.success(t('apiKeyUi.copied'));
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text stays selectable.
      feedback.warning(props.copyFailed);
    }
  }

  return (
    <PageModal
      open
      title={props.title}
      mask={DIALOG_MASK}
      keyboard={false}
      closable={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid={`${testId}-secret-done`}>
          {props.done}
        </Button>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={props.warning} data-testid={`${testId}-secret-warning`} />
        <Space.Compact style={{ width: '100%' }}>
          <Input
            readOnly
            value={secret}
            aria-label={props.title}
            data-testid={`${testId}-secret`}
            onFocus={(event) => event.target.select()}
          />
          <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid={`${testId}-copy`}>
            {t('apiKeyUi.copy')}
          </Button>
        </Space.Compact>
        <Typography.Text type="secondary">{props.use}</Typography.Text>
      </Space>
    </PageModal>
  );
}
