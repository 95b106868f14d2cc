import type { WebhookWithSecret } from '@gatehouse/shared';
import { useTranslation } from 'react-i18next';
import { SecretShownOnce } from '../../../components/SecretShownOnce.tsx';

interface Props {
  /** The subscription with its new signing secret; null while closed. */
  created: WebhookWithSecret | null;
  onClose(): void;
}

/** The one time a webhook's signing secret is seen: at creation and after a rotation. */
export function WebhookSecretDialog({ created, onClose }: Props) {
  const { t } = useTranslation();
  if (!created) return null;
  return (
    <SecretShownOnce
      secret={created.Secret}
      title={`${t('webhookUi.secretTitle')} · ${created.Url}`}
      warning={t('webhookUi.secretWarning')}
      use={t('webhookUi.secretUse')}
      done={t('webhookUi.secretDone')}
      copyFailed={t('webhookUi.copyFailed')}
      testId="webhook"
      onClose={onClose}
    />
  );
}
