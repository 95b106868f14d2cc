import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/PageLoading.tsx';

/**
 * Landing page of a third-party login window: hands the returned query to the opener's login page and
 * closes. Opened directly (no opener), it goes to the login page.
 */
export default function AuthRedirectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const query = window.location.search || window.location.hash.split('?')[1] || '';
    if (window.opener && window.opener !== window) {
      (window.opener as Window).location.href =
        `${window.location.origin}/#/login${query ? `?${query.replace(/^\?/, '')}` : ''}`;
      window.close();
    } else {
      navigate('/login', { replace: true });
    }
  }, [navigate]);
  return (
    <div aria-label={t('authRedirect.text')}>
      <PageLoading />
    </div>
  );
}
