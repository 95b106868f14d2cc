import { Button, Result, Space } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AntdProvider } from '../../core/AntdProvider.tsx';

/** The 401 and 404 pages: public at /401 and /404, and inside the layout at /error/401 and /error/404. */
export function ErrorPage({ code }: { code: 401 | 404 }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AntdProvider>
      <div className="error-page" style={{ padding: '48px 16px' }} data-testid={`page-${code}`}>
        <Result
          status={code === 401 ? '403' : '404'}
          title={<span style={{ fontSize: 48, fontWeight: 700 }}>{code}</span>}
          subTitle={
            <>
              <h2 style={{ margin: '8px 0' }}>
                {code === 401 ? t('errorPage.title401') : t('errorPage.title404')}
              </h2>
              <p>{code === 401 ? t('errorPage.text401') : t('errorPage.text404')}</p>
            </>
          }
          extra={
            <Space>
              <Button onClick={() => navigate(-1)}>{t('errorPage.back')}</Button>
              <Button type="primary" onClick={() => navigate('/dashboard')}>
                {t('errorPage.home')}
              </Button>
            </Space>
          }
        />
      </div>
    </AntdProvider>
  );
}
