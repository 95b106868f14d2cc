import type { ApiKeyCreated } from '@gatehouse/shared';
import { useTranslation } from 'react-i18next';
import { SecretShownOnce } from '../../../components/SecretShownOnce.tsx';

interface Props {
  /** The key just created, with its secret; null while closed. */
  created: ApiKeyCreated | null;
  onClose(): void;
}

/**
 * The one time an API key's secret is seen: the server keeps only its hash. Closing it forgets the secret: it is
 * in no store, no cache and no list.
 */
export function SecretDialog({ created, onClose }: Props) {
  const { t } = useTranslation();
  if (!created) return null;
  return (
    <SecretShownOnce
      secret={created.Secret}
      title={`${t('apiKeyUi.secretTitle')} · ${created.Name}`}
      warning={t('apiKeyUi.secretWarning')}
      use={t('apiKeyUi.secretUse')}
      done={t('apiKeyUi.secretDone')}
      copyFailed={t('apiKeyUi.copyFailed')}
      testId="api-key"
      onClose={onClose}
    />
  );
}
