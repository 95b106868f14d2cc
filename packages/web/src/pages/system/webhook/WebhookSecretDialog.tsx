import type { WebhookWithSecret } from '@gatehouse/shared';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DIALOG_MASK, feedback } from '../../../core/feedback.tsx';
import { PageModal } from '../../../components/PageModal.tsx';

interface Props {
  /** The subscription with its new signing secret; null while closed. */
  created: WebhookWithSecret | null;
  onClose(): void;
}

/**
 * The one time a webhook's signing secret is seen (at creation and after a rotation), as the API key's secret
 * dialog does: a warning, a copy button, closed only by its own button, and unmounted at once on closing.
 */
export function WebhookSecretDialog({ created, onClose }: Props) {
  if (!created) return null;
  return <SecretModal created={created} onClose={onClose} />;
}

function SecretModal({ created, onClose }: { created: WebhookWithSecret; onClose(): void }) {
  const { t } = useTranslation();
  const secret = created.Secret;

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      feedback.success(t('apiKeyUi.copied'));
    } catch {
      feedback.warning(t('webhookUi.copyFailed'));
    }
  }

  return (
    <PageModal
      open
      title={`${t('webhookUi.secretTitle')} · ${created.Url}`}
      mask={DIALOG_MASK}
      keyboard={false}
      closable={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="webhook-secret-done">
          {t('webhookUi.secretDone')}
        </Button>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={t('webhookUi.secretWarning')} />
        <Space.Compact style={{ width: '100%' }}>
          <Input
            readOnly
            value={secret}
            aria-label={t('webhookUi.secretTitle')}
            data-testid="webhook-secret"
            onFocus={(event) => event.target.select()}
          />
          <Button icon={<CopyOutlined />} onClick={() => void copy()}>
            {t('apiKeyUi.copy')}
          </Button>
        </Space.Compact>
        <Typography.Text type="secondary">{t('webhookUi.secretUse')}</Typography.Text>
      </Space>
    </PageModal>
  );
}
