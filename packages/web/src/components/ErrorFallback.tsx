import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** What a failed page shows instead of going blank: the message and a retry. */
export default function ErrorFallback({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="error"
      title={t('errorLog.fallback', { message: error.message })}
      extra={<Button onClick={onRetry}>{t('ui.retry')}</Button>}
    />
  );
}
