import type { ApiKeyCreated } from '@gatehouse/shared';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DIALOG_MASK, feedback } from '../../../core/feedback.tsx';
import { PageModal } from '../../../components/PageModal.tsx';

interface Props {
  /** The key just created, with its secret; null while closed. */
  created: ApiKeyCreated | null;
  onClose(): void;
}

/**
 * The one time an API key's secret is seen: the server keeps only its hash, so the dialog says so, offers a
 * copy button, and is closed only by its own button (not the mask, not Escape), so the secret is not lost by a
 * stray click. Closing it forgets the secret: it is in no store, no cache and no list, and the dialog leaves
 * the page at once (no closing animation keeping the text in the document meanwhile).
 */
export function SecretDialog({ created, onClose }: Props) {
  if (!created) return null;
  return <SecretModal created={created} onClose={onClose} />;
}

function SecretModal({ created, onClose }: { created: ApiKeyCreated; onClose(): void }) {
  const { t } = useTranslation();
  const secret = created.Secret;

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      feedback.success(t('apiKeyUi.copied'));
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text stays selectable.
      feedback.warning(t('apiKeyUi.copyFailed'));
    }
  }

  return (
    <PageModal
      open
      title={`${t('apiKeyUi.secretTitle')} · ${created.Name}`}
      mask={DIALOG_MASK}
      keyboard={false}
      closable={false}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="api-key-secret-done">
          {t('apiKeyUi.secretDone')}
        </Button>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert
          type="warning"
          showIcon
          title={t('apiKeyUi.secretWarning')}
          data-testid="api-key-secret-warning"
        />
        <Space.Compact style={{ width: '100%' }}>
          <Input
            readOnly
            value={secret}
            aria-label={t('apiKeyUi.secretTitle')}
            data-testid="api-key-secret"
            onFocus={(event) => event.target.select()}
          />
          <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="api-key-copy">
            {t('apiKeyUi.copy')}
          </Button>
        </Space.Compact>
        <Typography.Text type="secondary">{t('apiKeyUi.secretUse')}</Typography.Text>
      </Space>
    </PageModal>
  );
}
